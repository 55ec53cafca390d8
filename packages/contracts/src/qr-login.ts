/**
 * Login by QR code (spec §2 login, §4 "QR login: a session opens through an event stream; the code expires with a
 * countdown", §7 `GET login/session?platform=aiot` (event stream), `POST login/qrcode {session_id}`, §8 UAE0009;
 * docs/decisions/auth.md "QR login"). The waiting browser holds the event stream: first a `session` event with the
 * session id and its expiry (the QR code is the console link `/login?session_id=…`); when a logged-in device
 * confirms, a `tokens` event with a token pair for that account; or an `expired` event. One session confirms once.
 */
import { z } from 'zod';
import { API } from './api-paths.js';

/** A QR code is valid this many seconds (the countdown on the login page). */
export const QR_LOGIN_TTL_S = 120;

/** Paths of QR login. */
export const qrLoginPaths = {
  /** GET (Server-Sent Events): opens a session and waits for its confirmation. */
  session: `${API.auth}/login/session?platform=aiot`,
  /** POST {session_id}: a logged-in device confirms the session (logs the waiting browser in as itself). */
  confirm: `${API.auth}/login/qrcode`,
} as const;

/** A session id: 128 random bits, base64url. */
export const ZQrSessionId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{22}$/, 'a QR login session id')
  .meta({ examples: ['c2Vzc2lvbklkRXhhbXBsZT'] });

/** `?platform=aiot` of the event stream (the spec's only platform). */
export const ZQrSessionQuery = z.object({ platform: z.literal('aiot') });

/** POST login/qrcode. */
export const ZQrConfirmRequest = z.object({ session_id: ZQrSessionId });
export type TQrConfirmRequest = z.infer<typeof ZQrConfirmRequest>;

/** The `session` event: the id, when it expires (epoch ms), and the console path its QR code carries. */
export const ZQrSessionEvent = z.object({ session_id: ZQrSessionId, expires_at: z.number().int(), path: z.string() });
export type TQrSessionEvent = z.infer<typeof ZQrSessionEvent>;

/** The `expired` event: the error code of spec §8 (UAE0009). */
export const ZQrExpiredEvent = z.object({ code: z.string(), message: z.string() });

/** The console path a session's QR code opens on the confirming device. */
export function qrLoginPath(sessionId: string): string {
  return `/login?session_id=${sessionId}`;
}

/** GET login/qrcode?session_id=: what the confirming device shows before it confirms (where the code was opened). */
export const ZQrSessionInfo = z.object({ request_ip: z.string(), user_agent: z.string(), expires_at: z.number().int() });
export type TQrSessionInfo = z.infer<typeof ZQrSessionInfo>;
