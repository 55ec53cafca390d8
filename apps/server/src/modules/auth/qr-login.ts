/**
 * Login by QR code (spec §4 "QR login", §7 `GET login/session?platform=aiot` (event stream), `POST login/qrcode`,
 * §8 UAE0009; docs/decisions/auth.md "QR login"). The waiting browser opens a session (128 random bits, valid
 * QR_LOGIN_TTL_S) and holds an event stream; a logged-in device reads where the session was opened, then confirms it
 * once; the stream's holder — on whichever replica — sees the confirmation in the database, claims it once and
 * receives a token pair of the confirming account. Expired sessions answer UAE0009 and are swept.
 */
import { randomBytes } from 'node:crypto';
import { ErrorCode, QR_LOGIN_TTL_S, type TQrSessionInfo, type TTokenResponse } from '@tessera/contracts';
import { and, eq, gt, isNotNull, isNull, lt } from 'drizzle-orm';
import { AppError, conflict } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { TokenService } from '../../core/tokens.js';
import type { Db } from '../../db/client.js';
import { accounts, qrLoginSessions } from '../../db/schema.js';
import { issueTokenPair } from './sessions.js';

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
 * POST login/qrcode: `principal` confirms session `id`: the waiting browser will be logged in as it. Once only.
 * @throws AppError 400 UAE0009 when the session is unknown or expired; 409 CONFLICT when it was confirmed already.
 */
export async function confirmQrSession(db: Db, principal: TPrincipal, id: string, nowMs: number): Promise<void> {
  const [done] = await db
    .update(qrLoginSessions)
    .set({ confirmedAccountId: principal.accountId, confirmedAt: nowMs })
    .where(and(eq(qrLoginSessions.id, id), isNull(qrLoginSessions.confirmedAccountId), gt(qrLoginSessions.expiresAt, nowMs)))
    .returning({ id: qrLoginSessions.id });
  if (done) return;
  await qrSessionInfo(db, id, nowMs);
  throw conflict('this QR code was used already');
}

/**
 * The waiting browser's side, called on each poll: the token pair when session `id` was confirmed (claimed here once:
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
