/** New password + confirmation fields, validated by the given contracts schema (§5 password rule). */
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { zodRule } from '../../lib/zodRules';

/**
 * The `password` and `confirm_password` items of a form whose schema is `schema`. `labels` (translated) replaces
 * the "new password" wording where the password is the first one (sign-up).
 *
 * The schema's "does not match" check is a refinement of the whole form, and zod skips those while any other field
 * is invalid (the sign-up's code is typed last), so the confirmation is also compared with the password directly,
 * first, to say so as soon as it is typed.
 */
export function PasswordFields({
  schema,
  prefix,
  labels,
}: {
  schema: z.ZodType;
  prefix: string;
  labels?: { password: string; confirm: string };
}) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="password"
        label={labels?.password ?? t('auth.newPassword')}
        extra={t('auth.passwordRule')}
        rules={[zodRule(schema, 'password', t)]}
      >
        <Input.Password data-testid={`${prefix}-password`} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm_password"
        label={labels?.confirm ?? t('auth.confirmPassword')}
        dependencies={['password']}
        validateFirst
        rules={[
          ({ getFieldValue }) => ({
            validator: async (_rule, value: unknown) => {
              if (value && value !== getFieldValue('password')) throw new Error(t('validation.mismatch'));
            },
          }),
          zodRule(schema, 'confirm_password', t),
        ]}
      >
        <Input.Password data-testid={`${prefix}-confirm`} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
