/** "Copy project" (POST projects/copy): asks the new name, then opens the copy. */
import { CopyOutlined } from '@ant-design/icons';
import { type TProject, ZProjectCopy } from '@tessera/contracts';
import { App, Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { zodRule } from '../../lib/zodRules';
import { useCopyProject } from './api';

/** The button and its dialog for `project`. */
export function CopyProjectButton({ project }: { project: TProject }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ name: string }>();
  const copy = useCopyProject();
  const submit = ({ name }: { name: string }) =>
    copy.mutate(
      { id: project.id, name },
      {
        onSuccess: (created) => {
          setOpen(false);
          void message.success(t('projectSettings.copy.done'));
          navigate(`/project/detail/${created.id}/system`);
        },
        onError: () => void message.error(t('errors.saveFailed')),
      },
    );
  return (
    <>
      <Button icon={<CopyOutlined />} onClick={() => setOpen(true)} data-testid="project-copy">
        {t('projectSettings.copy.button')}
      </Button>
      <Modal
        open={open}
        title={t('projectSettings.copy.title')}
        okText={t('projectSettings.copy.button')}
        okButtonProps={{ loading: copy.isPending, 'data-testid': 'project-copy-ok' }}
        onOk={() => form.submit()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={submit} initialValues={{ name: `${project.name} copy`.slice(0, 32) }}>
          <Form.Item
            name="name"
            label={t('projectSettings.copy.name')}
            rules={[zodRule(ZProjectCopy, 'name', t, (v) => ({ ...v, id: project.id }))]}
          >
            <Input data-testid="project-copy-name" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
