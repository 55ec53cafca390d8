/** /reset (spec §2): email, mailed code, new password and its confirmation → POST reset-pwd → /login. */
import { type TResetPasswordRequest, ZResetPasswordRequest } from '@tessera/contracts';
import { Alert, App, Button, Form, Input } from 'antd';
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
  const { message } = App.useApp();
  const reset = useResetPassword();
  const submit = (values: TResetPasswordRequest) =>
    reset.mutate(values, {
      onSuccess: () => {
        void message.success(t('auth.resetDone'));
        navigate('/login', { replace: true });
      },
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
