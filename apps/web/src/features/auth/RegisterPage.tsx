/**
 * /register (spec §2 login screens, §7 verify-email and register/aiot; docs/decisions/auth.md "Sign-up screens"):
 * a vendor opens a tenant of its own, a user opens an account. One form: role, email, name, password twice, and the
 * code mailed by "send code" (RegisterCodeField). The server answers a logged-in token pair, so the new account
 * goes straight on to the console, as after a login. A visitor already logged in goes to the default page.
 */
import { defaultPage, ErrorCode, type TLoginRole, type TRegisterRequest, ZRegisterRequest } from '@tessera/contracts';
import { Alert, App, Button, Form, Input, Radio } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { HttpError } from '../../lib/http';
import { getLanguage, getSession } from '../../lib/session';
import { zodRule } from '../../lib/zodRules';
import { useRegister } from './api';
import { AuthCard } from './AuthCard';
import { authErrorKey } from './errorMessages';
import { PasswordFields } from './PasswordFields';
import { RegisterCodeField } from './RegisterCodeField';

type TRegisterForm = Omit<TRegisterRequest, 'language'>;

/** The sign-up screen. `?role=user` opens it on the user choice (the login page's link passes its tab). */
export default function RegisterPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [form] = Form.useForm<TRegisterForm>();
  const [initialRole] = useState<TLoginRole>(() => (params.get('role') === 'user' ? 'user' : 'vendor'));
  const role: TLoginRole = Form.useWatch('role', form) ?? initialRole;
  const [wasLoggedIn] = useState(() => Boolean(getSession().token));
  const register = useRegister();
  if (wasLoggedIn) return <Navigate to={defaultPage(getSession()) ?? '/'} replace />;

  const submit = (values: TRegisterForm) =>
    register.mutate(
      { ...values, language: getLanguage() },
      {
        onSuccess: (res) => {
          void message.success(t('auth.register.done'));
          navigate(res.set_pwd_flag ? '/setpwd/init' : (defaultPage(getSession()) ?? '/'), { replace: true });
        },
      },
    );
  const rule = (field: string) => zodRule(ZRegisterRequest, field, t);
  const emailTaken = register.error instanceof HttpError && register.error.code === ErrorCode.EmailTaken;

  return (
    <AuthCard title={t('auth.register.title')}>
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false} initialValues={{ role: initialRole }}>
        <Form.Item
          name="role"
          label={t('auth.register.role')}
          extra={role === 'user' ? t('auth.register.userHint') : t('auth.register.vendorHint')}
        >
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            options={[
              { value: 'vendor', label: <span data-testid="register-role-vendor">{t('auth.register.vendor')}</span> },
              { value: 'user', label: <span data-testid="register-role-user">{t('auth.register.user')}</span> },
            ]}
          />
        </Form.Item>
        <Form.Item name="email" label={t('common.email')} rules={[rule('email')]}>
          <Input data-testid="register-email" autoComplete="email" />
        </Form.Item>
        <Form.Item name="name" label={t('common.name')} extra={t('auth.register.nameHint')} rules={[rule('name')]}>
          <Input data-testid="register-name" autoComplete="name" />
        </Form.Item>
        <PasswordFields
          schema={ZRegisterRequest}
          prefix="register"
          labels={{ password: t('common.password'), confirm: t('auth.register.confirmPassword') }}
        />
        <RegisterCodeField />
        {register.isError && (
          <Alert
            type="error"
            showIcon
            title={t(authErrorKey(register.error, 'auth.errors.registerFailed'))}
            action={emailTaken && <Link to="/forgot">{t('auth.forgot')}</Link>}
            style={{ marginBottom: 16 }}
            data-testid="register-error"
          />
        )}
        <Button type="primary" htmlType="submit" block loading={register.isPending} data-testid="register-submit">
          {t('auth.register.submit')}
        </Button>
      </Form>
      <div style={{ marginTop: 16 }}>
        <Link to={`/login?role=${role}`} data-testid="register-login">
          {t('auth.register.haveAccount')}
        </Link>
      </div>
    </AuthCard>
  );
}
