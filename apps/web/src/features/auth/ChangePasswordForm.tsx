/** Old password → new password (PUT pwd), shared by /setpwd and the profile page (§5: new differs from old). */
import { type TChangePasswordRequest, ZChangePasswordRequest } from '@tessera/contracts';
import { Alert, Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../lib/zodRules';
import { useChangePassword } from './api';
import { authErrorKey } from './errorMessages';
import { PasswordFields } from './PasswordFields';

/** The form; `onDone` runs after the server accepted the new password. */
export function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TChangePasswordRequest>();
  const change = useChangePassword();
  const submit = (values: TChangePasswordRequest) =>
    change.mutate(values, {
      onSuccess: () => {
        form.resetFields();
        onDone();
      },
    });
  return (
    <Form form={form} layout="vertical" onFinish={submit} requiredMark={false} style={{ maxWidth: 400 }}>
      <Form.Item name="old_password" label={t('auth.oldPassword')} rules={[zodRule(ZChangePasswordRequest, 'old_password', t)]}>
        <Input.Password data-testid="pwd-old" autoComplete="current-password" />
      </Form.Item>
      <PasswordFields schema={ZChangePasswordRequest} prefix="pwd" />
      {change.isError && <Alert type="error" showIcon title={t(authErrorKey(change.error))} style={{ marginBottom: 16 }} />}
      <Button type="primary" htmlType="submit" loading={change.isPending} data-testid="pwd-submit">
        {t('common.save')}
      </Button>
    </Form>
  );
}
