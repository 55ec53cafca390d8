/**
 * The logged-in layout: side menu of the sections this session may open (visibleMenu from contracts, labels
 * `menu.<key>`), header with the language switch, the user's email, (admins) the accounts page, profile and logout.
 * While an admin acts as another account, a banner says so with the way back. When an authorisation request of the
 * account is answered or revoked (`live/accounts/{id}/access`), every cached read is refetched.
 */
import {
  ApartmentOutlined,
  AlertOutlined,
  AppstoreOutlined,
  ClusterOutlined,
  DashboardOutlined,
  DownloadOutlined,
  FunctionOutlined,
  LineChartOutlined,
  LogoutOutlined,
  MessageOutlined,
  ProjectOutlined,
  RobotOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { canOpenPage, defaultPage, findPage, visibleMenu } from '@tessera/contracts';
import { Alert, Button, Layout, Menu, Space, Spin, Typography } from 'antd';
import { type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { AssistantButton } from '../features/assistant/components/AssistantButton';
import { useLiveAccess } from '../lib/live';
import { queryClient } from '../lib/query';
import { adminReturn, returnToAdmin } from '../lib/session';
import { useSession } from '../lib/useSession';

const ICONS: Record<string, ReactNode> = {
  dashboard: <DashboardOutlined />,
  product: <AppstoreOutlined />,
  project: <ProjectOutlined />,
  device: <ClusterOutlined />,
  alerts: <AlertOutlined />,
  authorisation: <SafetyCertificateOutlined />,
  analytics: <LineChartOutlined />,
  download: <DownloadOutlined />,
  machine: <SettingOutlined />,
  lineNotify: <MessageOutlined />,
  platformRule: <ApartmentOutlined />,
  platformTelemetry: <FunctionOutlined />,
  aiModel: <RobotOutlined />,
};

/** The shell around every logged-in page. */
export default function AppLayout() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  useLiveAccess(() => void queryClient.invalidateQueries());
  const back = session.token ? adminReturn() : null;
  const endActing = () => {
    returnToAdmin();
    queryClient.clear();
    navigate('/admin/accounts', { replace: true });
  };
  const sections = visibleMenu(session);
  const selected =
    findPage(pathname)?.section.key ?? sections.find((s) => pathname === `/${s.key}` || pathname.startsWith(`/${s.key}/`))?.key;
  const items = sections.map((s) => ({
    key: s.key,
    icon: ICONS[s.key],
    label: <span data-testid={`menu-${s.key}`}>{t(`menu.${s.key}`)}</span>,
  }));
  const open = (key: string) => {
    const section = sections.find((s) => s.key === key);
    const page = section?.pages.find((p) => canOpenPage(section, p, session));
    navigate(page?.path ?? defaultPage(session) ?? '/');
  };

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider breakpoint="lg" collapsedWidth={0} theme="light" width={208}>
        <Link to="/" style={{ display: 'block', padding: '18px 24px', fontWeight: 600, fontSize: 18 }}>
          Tessera IoT
        </Link>
        <Menu mode="inline" selectedKeys={selected ? [selected] : []} items={items} onClick={(e) => open(e.key)} data-testid="side-menu" />
      </Layout.Sider>
      <Layout>
        <Layout.Header style={{ background: '#fff', display: 'flex', justifyContent: 'flex-end', alignItems: 'center', paddingInline: 24 }}>
          <Space size="large">
            <AssistantButton />
            <LanguageSwitch />
            <Typography.Text data-testid="header-email">{session.email}</Typography.Text>
            {session.level === 'admin' && (
              <Link to="/admin/accounts" data-testid="header-accounts">
                <TeamOutlined /> {t('admin.accounts')}
              </Link>
            )}
            <Link to="/profile" data-testid="header-profile">
              <UserOutlined /> {t('common.profile')}
            </Link>
            <Link to="/logout" data-testid="header-logout">
              <LogoutOutlined /> {t('common.logout')}
            </Link>
          </Space>
        </Layout.Header>
        {back && (
          <Alert
            type="warning"
            banner
            data-testid="acting-as"
            title={t('admin.actingAs', { email: session.email })}
            action={
              <Button size="small" onClick={endActing} data-testid="acting-as-back">
                {t('admin.back', { email: back.email })}
              </Button>
            }
          />
        )}
        <Layout.Content style={{ margin: 24 }}>
          <Suspense fallback={<Spin />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
