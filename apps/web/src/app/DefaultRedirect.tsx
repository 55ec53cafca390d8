/** `/` goes to the default page of the guard (docs/decisions/console.md), or to login with role_deny. */
import { defaultPage } from '@tessera/contracts';
import { Navigate } from 'react-router';
import { useSession } from '../lib/useSession';

/** Redirects to the session's default page. */
export default function DefaultRedirect() {
  const session = useSession();
  return <Navigate to={defaultPage(session) ?? '/login?msg=role_deny'} replace />;
}
