/** The name form of a dashboard page (DashboardPage.tsx loads it when a page is first added or renamed). */
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

/** The name form of a new or renamed page. */
export function PageNameModal({
  open,
  initial,
  onClose,
  onDone,
}: {
  open: boolean;
  initial: string;
  onClose: () => void;
  onDone: (name: string) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  return (
    <Modal
      open={open}
      title={initial ? t('dashboard.renamePage') : t('dashboard.newPage')}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'page-name-save' }}
    >
      <Form form={form} preserve={false} initialValues={{ name: initial }} onFinish={(v) => onDone(v.name.trim())}>
        <Form.Item name="name" rules={[{ required: true, whitespace: true, message: t('dashboard.nameRequired') }, { max: 32 }]}>
          <Input autoFocus data-testid="page-name" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
