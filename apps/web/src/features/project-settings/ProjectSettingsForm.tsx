/** The system tab's project settings: name, description and device authorisation method (PUT projects/{id}). */
import { DEVICE_AUTHZ_METHODS, type TProject, type TProjectUpdate, ZProjectUpdate } from '@tessera/contracts';
import { App, Button, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUnsavedChangesPrompt } from '../../lib/useUnsavedChangesPrompt';
import { zodRule } from '../../lib/zodRules';
import { useUpdateProject } from './api';

type TValues = Required<Pick<TProjectUpdate, 'name' | 'description' | 'device_authz_method'>>;

/** The form, seeded from `project`; asks before leaving with unsaved edits. */
export function ProjectSettingsForm({ project }: { project: TProject }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<TValues>();
  const update = useUpdateProject(project.id);
  const initial: TValues = { name: project.name, description: project.description, device_authz_method: project.device_authz_method };
  const values = Form.useWatch([], form) as Partial<TValues> | undefined;
  const dirty = !!values && (Object.keys(initial) as (keyof TValues)[]).some((k) => values[k] !== undefined && values[k] !== initial[k]);
  useUnsavedChangesPrompt(dirty);
  const submit = (v: TValues) =>
    update.mutate(v, {
      onSuccess: (saved) => {
        form.setFieldsValue({ name: saved.name, description: saved.description, device_authz_method: saved.device_authz_method });
        void message.success(t('common.saved'));
      },
      onError: () => void message.error(t('errors.saveFailed')),
    });
  return (
    <Form form={form} layout="vertical" initialValues={initial} onFinish={submit} style={{ maxWidth: 480 }} key={project.id}>
      <Form.Item name="name" label={t('common.name')} rules={[zodRule(ZProjectUpdate, 'name', t)]}>
        <Input data-testid="system-name" />
      </Form.Item>
      <Form.Item name="description" label={t('common.description')} rules={[zodRule(ZProjectUpdate, 'description', t)]}>
        <Input.TextArea rows={2} data-testid="system-description" />
      </Form.Item>
      <Form.Item name="device_authz_method" label={t('projects.authz')}>
        <Select
          data-testid="system-authz"
          options={DEVICE_AUTHZ_METHODS.map((m) => ({ value: m, label: t(`projects.authzMethods.${m}`) }))}
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" disabled={!dirty} loading={update.isPending} data-testid="system-save">
        {t('common.save')}
      </Button>
    </Form>
  );
}
