/**
 * /login (spec §2): vendor and user login on two tabs (separate logins, §6), and a third tab to log in by QR code
 * (§4, QrLogin.tsx). `?msg=token_out|role_deny|reset_done` shows why the visitor is here; an already logged-in visitor goes to
 * `redirectFrom` or the default page — unless it opened a QR code's link (`?session_id=`): then it confirms that
 * login (after logging in here first, if it was not). A 200 with `set_pwd_flag` goes to /setpwd/init first (§4).
 * "Create an account" opens /register on the chosen tab's role.
 */
import { defaultPage, type TLoginRole } from '@tessera/contracts';
import { Alert, Button, Flex, Segmented, Spin, theme } from 'antd';
// The input and the password input on their own: antd's `Input` also carries its search, text area, OTP and group
// members, which the login page does not show (docs/web-bundle.md).
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { type FormEvent, lazy, type ReactNode, Suspense, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { getSession, subscribeSession } from '../../lib/session';
import type { TTranslate } from '../../lib/zodRules';
import { useLogin } from './api';
import { AuthCard } from './AuthCard';
import { authErrorKey } from './errorMessages';

// The QR sign-in (antd's QRCode and Result) is loaded when its tab or a QR code's link is opened, not with the form.
const QrLoginPanel = lazy(() => import('./QrLogin').then((m) => ({ default: m.QrLoginPanel })));
const QrConfirm = lazy(() => import('./QrLogin').then((m) => ({ default: m.QrConfirm })));

// The schemas (and zod) load at the first check or with a QR code's link: the form draws without them.
const loadChecks = () => import('./loginChecks');

/**
 * The QR session id of the page's link once checked against ZQrSessionId: null without one (or an invalid one),
 * undefined while the check's chunk loads.
 */
function useQrSessionId(raw: string | null): string | null | undefined {
  const [checked, setChecked] = useState<{ raw: string; id: string | null }>();
  useEffect(() => {
    if (raw === null) return;
    let current = true;
    loadChecks().then(
      ({ ZQrSessionId }) => current && setChecked({ raw, id: ZQrSessionId.safeParse(raw).data ?? null }),
      () => current && setChecked({ raw, id: null }),
    );
    return () => {
      current = false;
    };
  }, [raw]);
  if (raw === null) return null;
  return checked?.raw === raw ? checked.id : undefined;
}

type TLoginField = 'email' | 'password';
type TLoginValues = Record<TLoginField, string>;

/**
 * The first message for `field` of the login form holding `values` (ZLoginRequest, loaded with zod at the first
 * check), or null when it is valid.
 */
async function loginFieldError(field: TLoginField, values: TLoginValues, role: TLoginRole, t: TTranslate): Promise<string | null> {
  const [{ ZLoginRequest }, { fieldError }] = await Promise.all([loadChecks(), import('../../lib/zodRules')]);
  return fieldError(ZLoginRequest, field, { ...values, role }, t);
}

/** One labelled field of the login form, laid out as antd's vertical form lays out its items. */
function LoginField({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div style={{ marginBottom: error ? 0 : token.marginLG }}>
      <label htmlFor={id} style={{ display: 'block', paddingBottom: token.paddingXS, color: token.colorTextHeading }}>
        {label}
      </label>
      {children}
      {error && (
        <div id={`${id}_help`} role="alert" style={{ color: token.colorError, minHeight: token.marginLG }}>
          {error}
        </div>
      )}
    </div>
  );
}

/**
 * The e-mail and password form. Checked against the contract's ZLoginRequest on every change of a field and on
 * submit, as antd's Form would, but without antd's Form (its code is a tenth of the login page's download).
 */
function LoginForm({
  role,
  pending,
  error,
  onSubmit,
}: {
  role: TLoginRole;
  pending: boolean;
  error: ReactNode;
  onSubmit: (values: TLoginValues) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [values, setValues] = useState<TLoginValues>({ email: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<TLoginField, string>>>({});
  // A check answers after the chunk with zod loaded: only the newest check of a field may set its message.
  const checks = useRef<Record<TLoginField, number>>({ email: 0, password: 0 });
  const check = async (field: TLoginField, next: TLoginValues): Promise<boolean> => {
    const n = ++checks.current[field];
    const message = await loginFieldError(field, next, role, t);
    if (n === checks.current[field]) setErrors((e) => ({ ...e, [field]: message ?? undefined }));
    return message === null;
  };
  const change = (field: TLoginField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    void check(field, next);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const valid = await Promise.all([check('email', values), check('password', values)]);
    if (valid.every(Boolean)) onSubmit(values);
  };
  const fieldProps = (field: TLoginField) => ({
    id: `${id}-${field}`,
    value: values[field],
    onChange: (e: { target: { value: string } }) => change(field, e.target.value),
    status: errors[field] ? ('error' as const) : undefined,
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${id}-${field}_help` : undefined,
  });
  return (
    <form onSubmit={submit} noValidate>
      <LoginField id={`${id}-email`} label={t('common.email')} error={errors.email}>
        <Input {...fieldProps('email')} data-testid="login-email" autoComplete="username" />
      </LoginField>
      <LoginField id={`${id}-password`} label={t('common.password')} error={errors.password}>
        <Password {...fieldProps('password')} data-testid="login-password" autoComplete="current-password" />
      </LoginField>
      {error}
      <Button type="primary" htmlType="submit" block loading={pending} data-testid="login-submit">
        {t('auth.login')}
      </Button>
    </form>
  );
}

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
  const sessionId = useQrSessionId(params.get('session_id'));
  const loggedIn = useSyncExternalStore(subscribeSession, () => Boolean(getSession().token));

  if (sessionId === undefined) {
    return (
      <AuthCard title={t('auth.login')}>
        <Spin />
      </AuthCard>
    );
  }

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

  return (
    <AuthCard title={t('auth.login')}>
      {(msg === 'token_out' || msg === 'role_deny' || msg === 'reset_done') && (
        <Alert
          type={msg === 'reset_done' ? 'success' : 'warning'}
          showIcon
          title={t(`auth.msg.${msg}`)}
          style={{ marginBottom: 16 }}
          data-testid="login-msg"
        />
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
        <LoginForm
          role={loginRole}
          pending={login.isPending}
          onSubmit={submit}
          error={
            login.isError && (
              <Alert type="error" showIcon title={t(authErrorKey(login.error))} style={{ marginBottom: 16 }} data-testid="login-error" />
            )
          }
        />
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
