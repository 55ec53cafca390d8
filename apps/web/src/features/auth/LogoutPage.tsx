/** /logout (spec §2, §4): revokes the refresh token, clears the login storage and cached data, goes to /login. */
import { paths } from '@tessera/contracts';
import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query';
import { clearSession, getSession } from '../../lib/session';

/** Logs out at once; the server call is best effort. */
export default function LogoutPage() {
  useEffect(() => {
    const { token, refreshToken } = getSession();
    if (token) void http.post(paths.logout, { refresh_token: refreshToken ?? undefined }, { quiet: true }).catch(() => undefined);
    clearSession();
    queryClient.clear();
  }, []);
  return <Navigate to="/login" replace />;
}
