/**
 * /line-notify/group (spec §2 "line-notify: redirects to group"): for a vendor the official account, the push groups
 * and their own LINE link; for a user only their LINE link (groups are the vendor's to manage).
 */
import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/useSession';
import { GroupsCard } from '../components/GroupsCard';
import { MyLinkCard } from '../components/MyLinkCard';
import { OfficialAccountCard } from '../components/OfficialAccountCard';

/** The group list page. */
export default function GroupListPage() {
  const { t } = useTranslation();
  const isVendor = useSession().level !== 'user';
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        {t('line.title')}
      </Typography.Title>
      {isVendor && <GroupsCard />}
      <MyLinkCard />
      {isVendor && <OfficialAccountCard />}
    </Space>
  );
}
