/**
 * /login (spec §2): vendor and user login on two tabs (separate logins, §6), and a third tab to log in by QR code
 * (§4, QrLogin.tsx). `?msg=token_out|role_deny` shows why the visitor is here; an already logged-in visitor goes to
 * `redirectFrom` or the default page — unless it opened a QR code's link (`?session_id=`): then it confirms that
 * login (after logging in here first, if it was not). A 200 with `set_pwd_flag` goes to /setpwd/init first (§4).
 * "Create an account" opens /register on the chosen tab's role.
 */
import { defaultPage, type TLoginRole, ZLoginRequest } from '@tessera/contracts';
import { Alert, Button, Flex, Form, Input, Segmented, Spin } from 'antd';
import { ZQrSessionId } from '@tessera/contracts';
import { lazy, Suspense, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { getSession, subscribeSession } from '../../lib/session';
import { zodRule } from '../../lib/zodRules';
import { useLogin } from './api';
import { AuthCard } from './AuthCard';
import { authErrorKey } from './errorMessages';

// The QR sign-in (antd's QRCode and Result) is loaded when its tab or a QR code's link is opened, not with the form.
const QrLoginPanel = lazy(() => import('./QrLogin').then((m) => ({ default: m.QrLoginPanel })));
const QrConfirm = lazy(() => import('./QrLogin').then((m) => ({ default: m.QrConfirm })));

/** Only same-site paths are followed after login. */
function safeRedirect(value: string | null): string | null {
  return value?.startsWith('/') && !value.startsWith('//') && !value.startsWith('/login') ? value : null;
}

/** The login screen. */
export default function LoginPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [role, setRole] = useState<TLoginRole | 'qr'>(params.get('role') === 'user' ? 'user' : 'vendor');
  const [wasLoggedIn] = useState(() => Boolean(getSession().token));
  const login = useLogin();
  const msg = params.get('msg');
  const target = () => safeRedirect(params.get('redirectFrom')) ?? defaultPage(getSession()) ?? '/';
  const sessionId = ZQrSessionId.safeParse(params.get('session_id')).data ?? null;
  const loggedIn = useSyncExternalStore(subscribeSession, () => Boolean(getSession().token));

  if (sessionId && loggedIn) {
    return (
      <AuthCard title={t('auth.qr.confirmTitle')}>
        <Suspense fallback={<Spin />}>
          <QrConfirm sessionId={sessionId} onDone={() => navigate(defaultPage(getSession()) ?? '/', { replace: true })} />
        </Suspense>
      </AuthCard>
    );
  }
  if (wasLoggedIn && msg !== 'role_deny') return <Navigate to={target()} replace />;

  const entered = (res: { set_pwd_flag?: boolean }) => navigate(res.set_pwd_flag ? '/setpwd/init' : target(), { replace: true });
  const loginRole: TLoginRole = role === 'user' ? 'user' : 'vendor';
  // With a QR code's link, logging in here leads to the confirmation above (the session now has a token).
  const submit = (values: { email: string; password: string }) =>
    login.mutate({ ...values, role: loginRole }, { onSuccess: (res) => (sessionId ? undefined : entered(res)) });
  const rule = (field: string) => zodRule(ZLoginRequest, field, t, (v) => ({ ...v, role: loginRole }));

  return (
    <AuthCard title={t('auth.login')}>
      {(msg === 'token_out' || msg === 'role_deny') && (
        <Alert type="warning" showIcon title={t(`auth.msg.${msg}`)} style={{ marginBottom: 16 }} data-testid="login-msg" />
      )}
      {/* A segmented switch rather than tabs: antd's Tabs bring their overflow menu, a weight the login page does without. */}
      <Segmented<TLoginRole | 'qr'>
        block
        value={role}
        onChange={setRole}
        style={{ marginBottom: 16 }}
        options={[
          { value: 'vendor', label: <span data-testid="login-tab-vendor">{t('auth.vendorLogin')}</span> },
          { value: 'user', label: <span data-testid="login-tab-user">{t('auth.userLogin')}</span> },
          ...(sessionId ? [] : [{ value: 'qr' as const, label: <span data-testid="login-tab-qr">{t('auth.qr.tab')}</span> }]),
        ]}
      />
      {role === 'qr' ? (
        <Suspense fallback={<Spin />}>
          <QrLoginPanel onTokens={entered} />
        </Suspense>
      ) : (
        <Form layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item name="email" label={t('common.email')} rules={[rule('email')]}>
            <Input data-testid="login-email" autoComplete="username" />
          </Form.Item>
          <Form.Item name="password" label={t('common.password')} rules={[rule('password')]}>
            <Input.Password data-testid="login-password" autoComplete="current-password" />
          </Form.Item>
          {login.isError && (
            <Alert type="error" showIcon title={t(authErrorKey(login.error))} style={{ marginBottom: 16 }} data-testid="login-error" />
          )}
          <Button type="primary" htmlType="submit" block loading={login.isPending} data-testid="login-submit">
            {t('auth.login')}
          </Button>
        </Form>
      )}
      <Flex justify="space-between" style={{ marginTop: 16 }}>
        <Link to={`/register?role=${loginRole}`} data-testid="login-register">
          {t('auth.createAccount')}
        </Link>
        <Link to="/forgot" data-testid="login-forgot">
          {t('auth.forgot')}
        </Link>
      </Flex>
    </AuthCard>
  );
}
