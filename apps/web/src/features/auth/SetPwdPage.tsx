/** /setpwd/{type} (spec §2, §4 set_pwd_flag): the logged-in account sets a new password before going on. */
import { defaultPage } from '@tessera/contracts';
import { App, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { getSession } from '../../lib/session';
import { useSession } from '../../lib/useSession';
import { AuthCard } from './AuthCard';
import { ChangePasswordForm } from './ChangePasswordForm';

/** The set-password screen. */
export default function SetPwdPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const session = useSession();
  const done = () => {
    void message.success(t('auth.setPwdDone'));
    navigate(defaultPage(getSession()) ?? '/', { replace: true });
  };
  return (
    <AuthCard title={t('auth.setPwdTitle')}>
      {session.token ? (
        <>
          <Typography.Paragraph type="secondary">{t('auth.setPwdHint')}</Typography.Paragraph>
          <ChangePasswordForm onDone={done} />
        </>
      ) : (
        <Link to="/login">{t('auth.needLogin')}</Link>
      )}
    </AuthCard>
  );
}
