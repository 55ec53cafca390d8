/**
 * The root route: runs the guard of spec §2 (guardRoute from contracts) on every navigation with the current
 * session, and turns the HTTP client's events into the UI of spec §8 (logout, error dialog, connection note).
 */
import { guardRoute } from '@tessera/contracts';
import { App as AntApp } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { onHttpEvent } from '../lib/httpEvents';
import { queryClient } from '../lib/query';
import { useSession } from '../lib/useSession';

function useHttpEvents(): void {
  const { modal, message } = AntApp.useApp();
  const navigate = useNavigate();
  const { t } = useTranslation();
  useEffect(
    () =>
      onHttpEvent((e) => {
        if (e.type === 'logout') {
          queryClient.clear();
          navigate('/login?msg=token_out', { replace: true });
        } else if (e.type === 'offline') void message.warning({ content: t('errors.offline'), key: 'offline' });
        else {
          modal.error({
            title: `${e.status} ${e.statusText || t(e.status === 403 ? 'errors.forbidden' : 'errors.server')}`,
            content: e.message,
            okText: t('common.confirm'),
            okButtonProps: { 'data-testid': 'error-dialog-confirm' },
          });
        }
      }),
    [modal, message, navigate, t],
  );
}

/** Guards every route and hosts the HTTP event bridge. */
export default function Root() {
  const { pathname, search } = useLocation();
  const session = useSession();
  useHttpEvents();
  const verdict = guardRoute(pathname, session, search);
  if (verdict.kind === 'redirect' && verdict.to !== pathname + search) return <Navigate to={verdict.to} replace />;
  return <Outlet />;
}
