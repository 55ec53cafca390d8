/** /reset (spec §2): email, mailed code, new password and its confirmation → POST reset-pwd → /login?msg=reset_done. */
import { type TResetPasswordRequest, ZResetPasswordRequest } from '@tessera/contracts';
import { Alert, Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { zodRule } from '../../lib/zodRules';
import { useResetPassword } from './api';
import { AuthCard } from './AuthCard';
import { authErrorKey } from './errorMessages';
import { PasswordFields } from './PasswordFields';

/** The reset-password screen. */
export default function ResetPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const reset = useResetPassword();
  const submit = (values: TResetPasswordRequest) =>
    reset.mutate(values, {
      // Said on the login page itself (`?msg=reset_done`), not in a toast: a toast's holder may be drawn again as the
      // route changes, and a slow phone can take longer to show /login than a toast lasts.
      onSuccess: () => navigate('/login?msg=reset_done', { replace: true }),
    });
  return (
    <AuthCard title={t('auth.resetTitle')}>
      <Form layout="vertical" onFinish={submit} requiredMark={false} initialValues={{ email: params.get('email') ?? '' }}>
        <Form.Item name="email" label={t('common.email')} rules={[zodRule(ZResetPasswordRequest, 'email', t)]}>
          <Input data-testid="reset-email" />
        </Form.Item>
        <Form.Item name="code" label={t('auth.code')} rules={[zodRule(ZResetPasswordRequest, 'code', t)]}>
          <Input data-testid="reset-code" maxLength={6} inputMode="numeric" />
        </Form.Item>
        <PasswordFields schema={ZResetPasswordRequest} prefix="reset" />
        {reset.isError && (
          <Alert type="error" showIcon title={t(authErrorKey(reset.error, 'auth.errors.resetFailed'))} style={{ marginBottom: 16 }} />
        )}
        <Button type="primary" htmlType="submit" block loading={reset.isPending} data-testid="reset-submit">
          {t('auth.resetTitle')}
        </Button>
      </Form>
      <div style={{ marginTop: 16 }}>
        <Link to="/login">{t('common.backToLogin')}</Link>
      </div>
    </AuthCard>
  );
}
