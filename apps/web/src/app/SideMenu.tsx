/**
 * The console's section menu (visibleMenu from contracts, labels `menu.<key>`), shown in the side bar on a desktop
 * and in the menu drawer at phone width; the section of the current page is selected. The layout loads this module
 * on its own (AppLayout.tsx): at phone width only once the drawer opens.
 */
import {
  AlertOutlined,
  ApartmentOutlined,
  AuditOutlined,
  AppstoreOutlined,
  ClusterOutlined,
  DashboardOutlined,
  DownloadOutlined,
  FunctionOutlined,
  LineChartOutlined,
  MessageOutlined,
  ProjectOutlined,
  RobotOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { canOpenPage, defaultPage, findPage, visibleMenu } from '@tessera/contracts';
import { Menu } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
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
  auditLog: <AuditOutlined />,
};

/** The menu; `onNavigate` runs after a section was chosen (the phone's drawer closes then). */
export function SideMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
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
    onNavigate?.();
  };
  return (
    <Menu mode="inline" selectedKeys={selected ? [selected] : []} items={items} onClick={(e) => open(e.key)} data-testid="side-menu" />
  );
}
