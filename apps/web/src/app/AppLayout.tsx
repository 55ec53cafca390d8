/**
 * The logged-in layout: side menu of the sections this session may open (visibleMenu from contracts, labels
 * `menu.<key>`), header with the language switch, the user's email, profile and logout. When what the account may
 * see changes (an authorisation allowed or revoked, `live/accounts/{id}/access`), every cached read is refetched.
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
  SafetyCertificateOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { defaultPage, findPage, hasFeature, visibleMenu } from '@tessera/contracts';
import { Layout, Menu, Space, Spin, Typography } from 'antd';
import { type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { useLiveAccess } from '../lib/live';
import { queryClient } from '../lib/query';
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
  lineNotify: <MessageOutlined />,
  platformRule: <ApartmentOutlined />,
  platformTelemetry: <FunctionOutlined />,
};

/** The shell around every logged-in page. */
export default function AppLayout() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  useLiveAccess(() => void queryClient.invalidateQueries());
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
    const page = section?.pages.find((p) => hasFeature(session.fea, p.code));
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
            <LanguageSwitch />
            <Typography.Text data-testid="header-email">{session.email}</Typography.Text>
            <Link to="/profile" data-testid="header-profile">
              <UserOutlined /> {t('common.profile')}
            </Link>
            <Link to="/logout" data-testid="header-logout">
              <LogoutOutlined /> {t('common.logout')}
            </Link>
          </Space>
        </Layout.Header>
        <Layout.Content style={{ margin: 24 }}>
          <Suspense fallback={<Spin />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
