/**
 * The machine section (menu section 9): tabs over the pages this session may open — "Machine" (configures, vendors)
 * and "Equipment" (machines, vendors and users) — and the page below.
 */
import { canOpenPage, MENU_SECTIONS } from '@tessera/contracts';
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useSession } from '../../lib/useSession';

const SECTION = MENU_SECTIONS.find((s) => s.key === 'machine');
/** The tab label of each page: the spec's menu translations "Machine" and "Equipment", and the roles page's title. */
const LABELS: Record<string, string> = {
  '/machine/configure': 'menu.machine',
  '/machine/equipment': 'menu.equipment',
  '/machine/roles': 'projectRoles.kinds.machine',
};

/** The section layout. */
export default function MachinesLayout() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const pages = SECTION ? SECTION.pages.filter((p) => canOpenPage(SECTION, p, session)) : [];
  const active = pages.find((p) => pathname.startsWith(p.path))?.path;
  return (
    <>
      <Tabs
        data-testid="machine-tabs"
        activeKey={active}
        onChange={(path) => navigate(path)}
        items={pages.map((p) => ({
          key: p.path,
          label: <span data-testid={`machine-tab-${p.path.split('/').pop()}`}>{t(LABELS[p.path] ?? 'menu.machine')}</span>,
        }))}
      />
      <Outlet />
    </>
  );
}
