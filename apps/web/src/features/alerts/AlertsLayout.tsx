/**
 * The alerts section (spec §2 "alerts: dashboard, statistics, history"): tabs over the three pages this session may
 * open (feature codes 5:1, 5:2, 5:3), and the page below.
 */
import { hasFeature, MENU_SECTIONS } from '@tessera/contracts';
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useSession } from '../../lib/useSession';

const PAGES = MENU_SECTIONS.find((s) => s.key === 'alerts')?.pages ?? [];

/** The section layout. */
export default function AlertsLayout() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const pages = PAGES.filter((p) => hasFeature(session.fea, p.code));
  const active = pages.find((p) => pathname.startsWith(p.path))?.path;
  return (
    <>
      <Tabs
        data-testid="alerts-tabs"
        activeKey={active}
        onChange={(path) => navigate(path)}
        items={pages.map((p) => {
          const key = p.path.split('/').pop() ?? '';
          return { key: p.path, label: <span data-testid={`alerts-tab-${key}`}>{t(`alerts.tab.${key}`)}</span> };
        })}
      />
      <Outlet />
    </>
  );
}
