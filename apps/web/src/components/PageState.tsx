/**
 * The console's one way for a page to say "you may not open this" (403) and "this does not exist" (404)
 * (docs/decisions/console.md "Pages a role may not open"): an antd `Result` with a back button, shown in place of
 * the page — never a dialog, since the person did nothing but open the page. The back button goes to `back` when the
 * session may open it, else to the session's default page; never to the page it is on, so it cannot loop.
 */
import { defaultPage, guardRoute } from '@tessera/contracts';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { HttpError } from '../lib/http';
import { useSession } from '../lib/useSession';

/** Props of the page states: `back` is where the back button should go (a list page), when the session may open it. */
export interface TPageStateProps {
  back?: string;
}

/** Where the back button leads: `back` when allowed and elsewhere, else the default page, else `/`. */
function useBackTarget(back: string | undefined): string {
  const session = useSession();
  const { pathname } = useLocation();
  if (back && back !== pathname && guardRoute(back, session).kind === 'allow') return back;
  return defaultPage(session) ?? '/';
}

function BackButton({ back }: TPageStateProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const to = useBackTarget(back);
  return (
    <Button type="primary" onClick={() => navigate(to)} data-testid="page-state-back">
      {t('pageState.back')}
    </Button>
  );
}

/** "You may not open this": the server refused the page's record to this account (HTTP 403). */
export function Forbidden({ back }: TPageStateProps) {
  const { t } = useTranslation();
  return (
    <Result
      status="403"
      title={t('pageState.forbiddenTitle')}
      subTitle={t('pageState.forbidden')}
      extra={<BackButton back={back} />}
      data-testid="page-forbidden"
    />
  );
}

/** "This does not exist": no such record, or one of another tenant (HTTP 404). */
export function NotFound({ back }: TPageStateProps) {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title={t('pageState.notFoundTitle')}
      subTitle={t('pageState.notFound')}
      extra={<BackButton back={back} />}
      data-testid="page-not-found"
    />
  );
}

/** The state for a page whose record could not be loaded: 403 → {@link Forbidden}, 404 (or 400, a malformed id in the address) → {@link NotFound}, else a "could not load" result. */
export function PageError({ error, back }: TPageStateProps & { error: unknown }) {
  const { t } = useTranslation();
  const status = error instanceof HttpError ? error.status : 0;
  if (status === 403) return <Forbidden back={back} />;
  if (status === 404 || status === 400) return <NotFound back={back} />;
  return (
    <Result
      status="warning"
      title={t('pageState.loadFailedTitle')}
      subTitle={t('errors.loadFailed')}
      extra={<BackButton back={back} />}
      data-testid="page-load-failed"
    />
  );
}
