/**
 * The logged-in layout. On a desktop: the section menu in a side bar, the header with the assistant and the account
 * controls side by side. Below 768 px (lib/useIsPhone): the menu opens in a drawer from a header button (and closes
 * when a page is chosen) and the account controls sit in one account menu (HeaderAccount.tsx), so the page keeps
 * the phone's full width. While an admin acts as another account, a banner says so with the way back. When an
 * authorisation request of the account is answered or revoked (`live/accounts/{id}/access`), every cached read is
 * refetched.
 */
import { MenuOutlined } from '@ant-design/icons';
import { Alert, Button, Layout, Spin, theme } from 'antd';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { AssistantButton } from '../features/assistant/components/AssistantButton';
import { useIsPhone, useIsWide } from '../lib/useIsPhone';
import { useLiveAccess } from '../lib/live';
import { queryClient } from '../lib/query';
import { adminReturn, returnToAdmin } from '../lib/session';
import { useSession } from '../lib/useSession';
import { AccountMenu, HeaderLinks } from './HeaderAccount';
import { Brand } from './Brand';

// The section menu and its icons load when first drawn, and at phone width antd's Drawer with them when the menu is
// first opened: a phone's first page downloads neither (docs/web-bundle.md).
const SideMenu = lazy(() => import('./SideMenu').then((m) => ({ default: m.SideMenu })));
const MenuDrawer = lazy(() => import('./MenuDrawer'));

/** Width of the side bar and of the phone's menu drawer, in px. */
const MENU_WIDTH_PX = 208;

/** The shell around every logged-in page. */
export default function AppLayout() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const isPhone = useIsPhone();
  // The side bar's menu waits for antd's measure (before it neither is true), so a phone does not load it at first.
  const isWide = useIsWide();
  const [menuOpen, setMenuOpen] = useState(false);
  // Mounted from the first opening on, so the drawer's own closing runs as before.
  const drawerWanted = useRef(false);
  if (menuOpen) drawerWanted.current = true;
  const { token } = theme.useToken();
  useLiveAccess(() => void queryClient.invalidateQueries());
  // A page chosen some other way (a link, the back button) closes the phone's menu too.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation
  useEffect(() => setMenuOpen(false), [pathname]);
  const back = session.token ? adminReturn() : null;
  const endActing = () => {
    returnToAdmin();
    queryClient.clear();
    navigate('/admin/accounts', { replace: true });
  };

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {!isPhone && (
        <Layout.Sider theme="light" width={MENU_WIDTH_PX}>
          <Brand />
          {isWide && (
            <Suspense fallback={null}>
              <SideMenu />
            </Suspense>
          )}
        </Layout.Sider>
      )}
      {isPhone && drawerWanted.current && (
        <Suspense fallback={null}>
          <MenuDrawer open={menuOpen} onClose={() => setMenuOpen(false)} widthPx={MENU_WIDTH_PX} />
        </Suspense>
      )}
      <Layout style={{ minWidth: 0 }}>
        <Layout.Header
          style={{
            background: token.colorBgContainer,
            display: 'flex',
            alignItems: 'center',
            gap: isPhone ? 8 : 24,
            paddingInline: isPhone ? 8 : 24,
          }}
        >
          {isPhone && (
            <>
              <Button
                type="text"
                icon={<MenuOutlined />}
                onClick={() => setMenuOpen(true)}
                aria-label={t('shell.openMenu')}
                data-testid="menu-open"
              />
              <Brand compact />
            </>
          )}
          <div style={{ flex: 1 }} />
          <AssistantButton iconOnly={isPhone} />
          {isPhone ? <AccountMenu /> : <HeaderLinks />}
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
        <Layout.Content style={{ margin: isPhone ? 12 : 24, minWidth: 0 }}>
          <Suspense fallback={<Spin />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
