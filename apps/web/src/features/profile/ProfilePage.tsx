/** /profile (spec §2 "Profile and tokens"): account details, change password, API keys. */
import { App, Card, Skeleton, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChangePasswordForm } from '../auth/ChangePasswordForm';
import { useProfile } from './api';
import { ApiKeys } from './ApiKeys';
import { ProfileForm } from './ProfileForm';

/** The profile page. */
export default function ProfilePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const profile = useProfile();
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Card title={t('profile.title')}>
        {profile.data ? <ProfileForm profile={profile.data} /> : <Skeleton active loading={profile.isLoading} />}
        {profile.isError && t('errors.loadFailed')}
      </Card>
      <Card title={t('profile.changePassword')}>
        <ChangePasswordForm onDone={() => void message.success(t('auth.setPwdDone'))} />
      </Card>
      <Card title={t('profile.keys.title')}>
        <ApiKeys />
      </Card>
    </Space>
  );
}
