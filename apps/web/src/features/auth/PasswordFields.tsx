/** New password + confirmation fields, validated by the given contracts schema (§5 password rule). */
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { zodRule } from '../../lib/zodRules';

/** The `password` and `confirm_password` items of a form whose schema is `schema`. */
export function PasswordFields({ schema, prefix }: { schema: z.ZodType; prefix: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="password" label={t('auth.newPassword')} extra={t('auth.passwordRule')} rules={[zodRule(schema, 'password', t)]}>
        <Input.Password data-testid={`${prefix}-password`} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm_password"
        label={t('auth.confirmPassword')}
        dependencies={['password']}
        rules={[zodRule(schema, 'confirm_password', t)]}
      >
        <Input.Password data-testid={`${prefix}-confirm`} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
