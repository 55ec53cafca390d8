/** /forgot (spec §2 login screens): email → POST forgot-pwd, then on to /reset with the email filled in. */
import { ZForgotPasswordRequest } from '@tessera/contracts';
import { Alert, App, Button, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { getLanguage } from '../../lib/session';
import { zodRule } from '../../lib/zodRules';
import { useForgotPassword } from './api';
import { AuthCard } from './AuthCard';
import { authErrorKey } from './errorMessages';

/** The forgot-password screen. */
export default function ForgotPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const forgot = useForgotPassword();
  const submit = ({ email }: { email: string }) =>
    forgot.mutate(
      { email, language: getLanguage() },
      {
        onSuccess: () => {
          void message.success(t('auth.codeSent'));
          navigate(`/reset?email=${encodeURIComponent(email)}`);
        },
      },
    );
  return (
    <AuthCard title={t('auth.forgotTitle')}>
      <Typography.Paragraph type="secondary">{t('auth.forgotHint')}</Typography.Paragraph>
      <Form layout="vertical" onFinish={submit} requiredMark={false}>
        <Form.Item name="email" label={t('common.email')} rules={[zodRule(ZForgotPasswordRequest, 'email', t)]}>
          <Input data-testid="forgot-email" />
        </Form.Item>
        {forgot.isError && <Alert type="error" showIcon title={t(authErrorKey(forgot.error))} style={{ marginBottom: 16 }} />}
        <Button type="primary" htmlType="submit" block loading={forgot.isPending} data-testid="forgot-submit">
          {t('auth.sendCode')}
        </Button>
      </Form>
      <div style={{ marginTop: 16 }}>
        <Link to="/login">{t('common.backToLogin')}</Link>
      </div>
    </AuthCard>
  );
}
