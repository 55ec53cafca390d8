/**
 * How logins are recorded (docs/decisions/audit-log.md "Logins"): a successful one as `login`, a refused one
 * (wrong account or password, locked, throttled) as `login_failed` with the refusal's code; the actor is the e-mail
 * typed and, when an account has it, that account and its tenant. A malformed body (400) is not a login attempt.
 */
import type { TAuditChanges } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { bodyChanges } from './changes.js';
import type { TAuditEntryInput } from './record.js';
import { accountByEmail } from './snapshots.js';

/** The password login route. */
export const LOGIN_ROUTE = 'POST /authorization/v1/login';

/** Statuses of a refused login that are recorded. */
const RECORDED_REFUSALS = new Set([401, 423, 429]);

/** The refusal's error code from a JSON error answer, else null. */
function errorCode(payload: unknown): string | null {
  if (typeof payload !== 'string' || !payload.startsWith('{')) return null;
  try {
    const code = (JSON.parse(payload) as { code?: unknown }).code;
    return typeof code === 'string' ? code : null;
  } catch {
    return null;
  }
}

/**
 * The entry of a login answered `status`, or null when it is not recorded.
 * @param request what the hook knows of the request: its body, address, route and id.
 */
export async function loginEntry(
  db: Db,
  request: { body: unknown; ip: string; route: string; requestId: string },
  status: number,
  payload: unknown,
): Promise<TAuditEntryInput | null> {
  const ok = status < 400;
  if (!ok && !RECORDED_REFUSALS.has(status)) return null;
  const body = (request.body ?? {}) as { email?: unknown; role?: unknown };
  const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : null;
  const account = email ? await accountByEmail(db, email) : null;
  const changes: TAuditChanges = bodyChanges({ role: body.role });
  if (!ok) changes.reason = { before: null, after: errorCode(payload) ?? String(status) };
  return {
    tenantId: account?.tenantId ?? null,
    actor: { accountId: account?.id ?? null, email, via: null },
    actingAdmin: null,
    ip: request.ip,
    entityType: 'session',
    entityId: account ? String(account.id) : null,
    action: ok ? 'login' : 'login_failed',
    changes,
    route: request.route,
    requestId: request.requestId,
  };
}
