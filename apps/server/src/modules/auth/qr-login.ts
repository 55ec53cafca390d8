/**
 * Login by QR code (spec §4 "QR login", §7 `GET login/session?platform=aiot` (event stream), `POST login/qrcode`,
 * §8 UAE0009; docs/decisions/auth.md "QR login"). The waiting browser opens a session (128 random bits, valid
 * QR_LOGIN_TTL_S) and holds an event stream; a logged-in device reads where the session was opened, then confirms it
 * once, which notifies {@link QR_LOGIN_CHANNEL} in the same statement; the stream's holder — on whichever replica —
 * is woken by that notification (qr-login-waiters.ts), claims the confirmation once and receives a token pair of the
 * confirming account. Expired sessions answer UAE0009 and are swept.
 */
import { randomBytes } from 'node:crypto';
import { ErrorCode, QR_LOGIN_TTL_S, type TQrSessionInfo, type TTokenResponse } from '@tessera/contracts';
import { and, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { AppError, conflict } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { TokenService } from '../../core/tokens.js';
import { type Db, rowsOf } from '../../db/client.js';
import { accounts, qrLoginSessions } from '../../db/schema.js';
import { issueTokenPair } from './sessions.js';

/**
 * The LISTEN/NOTIFY channel of confirmations: its payload is the confirmed session's id. Every replica listens; the
 * one holding that session's stream claims it.
 */
export const QR_LOGIN_CHANNEL = 'tessera_qr_login';

/** Expired sessions are deleted this long after their expiry (kept a while for support questions). */
const SWEEP_AFTER_MS = 24 * 3_600_000;
/** At most this many characters of the waiting browser's User-Agent are kept. */
const USER_AGENT_MAX = 200;

const expired = () => new AppError(400, ErrorCode.QrExpired, 'the QR code has expired; show a new one');

/** A new session opened from `requestIp` with `userAgent`, valid until `expiresAt` (epoch ms). Sweeps old ones. */
export async function openQrSession(
  db: Db,
  requestIp: string,
  userAgent: string,
  nowMs: number,
): Promise<{ id: string; expiresAt: number }> {
  await db.delete(qrLoginSessions).where(lt(qrLoginSessions.expiresAt, nowMs - SWEEP_AFTER_MS));
  const id = randomBytes(16).toString('base64url');
  const expiresAt = nowMs + QR_LOGIN_TTL_S * 1000;
  await db.insert(qrLoginSessions).values({ id, expiresAt, requestIp, userAgent: userAgent.slice(0, USER_AGENT_MAX), createdAt: nowMs });
  return { id, expiresAt };
}

/**
 * GET login/qrcode: where session `id` was opened, for the confirming device to show before it confirms.
 * @throws AppError 400 UAE0009 when the session is unknown or expired; 409 when it was confirmed already.
 */
export async function qrSessionInfo(db: Db, id: string, nowMs: number): Promise<TQrSessionInfo> {
  const [row] = await db.select().from(qrLoginSessions).where(eq(qrLoginSessions.id, id));
  if (!row || row.expiresAt <= nowMs) throw expired();
  if (row.confirmedAccountId !== null) throw conflict('this QR code was used already');
  return { request_ip: row.requestIp, user_agent: row.userAgent, expires_at: row.expiresAt };
}

/**
 * POST login/qrcode: `principal` confirms session `id`: the waiting browser will be logged in as it. Once only. The
 * update and the notification on {@link QR_LOGIN_CHANNEL} are one statement: the notification is delivered when, and
 * only if, the confirmation commits.
 * @throws AppError 400 UAE0009 when the session is unknown or expired; 409 CONFLICT when it was confirmed already.
 */
export async function confirmQrSession(db: Db, principal: TPrincipal, id: string, nowMs: number): Promise<void> {
  const done = rowsOf<{ id: string }>(
    await db.execute(sql`
      with confirmed as (
        update ${qrLoginSessions} set confirmed_account_id = ${principal.accountId}, confirmed_at = ${nowMs}
        where id = ${id} and confirmed_account_id is null and expires_at > ${nowMs}
        returning id)
      select id, pg_notify(${QR_LOGIN_CHANNEL}, id) from confirmed`),
  );
  if (done.length > 0) return;
  await qrSessionInfo(db, id, nowMs);
  throw conflict('this QR code was used already');
}

/**
 * The waiting browser's side, called when its stream is woken (a notification, the expiry, a re-check): the token pair when session `id` was confirmed (claimed here once:
 * a second claim answers null), `'expired'` once it expired unconfirmed, else null (still waiting).
 */
export async function claimQrSession(db: Db, tokens: TokenService, id: string, nowMs: number): Promise<TTokenResponse | 'expired' | null> {
  const [claimed] = await db
    .update(qrLoginSessions)
    .set({ deliveredAt: nowMs })
    .where(and(eq(qrLoginSessions.id, id), isNotNull(qrLoginSessions.confirmedAccountId), isNull(qrLoginSessions.deliveredAt)))
    .returning({ accountId: qrLoginSessions.confirmedAccountId });
  if (claimed?.accountId) {
    const [account] = await db.select().from(accounts).where(eq(accounts.id, claimed.accountId));
    return account ? issueTokenPair(db, tokens, account) : 'expired';
  }
  const [row] = await db.select({ expiresAt: qrLoginSessions.expiresAt }).from(qrLoginSessions).where(eq(qrLoginSessions.id, id));
  return !row || row.expiresAt <= nowMs ? 'expired' : null;
}

/**
 * Of the sessions `ids`, those whose streams must look now: confirmed and not yet delivered, or expired at `nowMs`
 * (the safety re-check of qr-login-waiters.ts, one query for every waiting stream of the replica).
 */
export async function qrSessionsToCheck(db: Db, ids: readonly string[], nowMs: number): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: qrLoginSessions.id })
    .from(qrLoginSessions)
    .where(
      and(
        inArray(qrLoginSessions.id, [...ids]),
        or(and(isNotNull(qrLoginSessions.confirmedAccountId), isNull(qrLoginSessions.deliveredAt)), lte(qrLoginSessions.expiresAt, nowMs)),
      ),
    );
  return rows.map((r) => r.id);
}
