/**
 * QR login routes under `/authorization/v1` (spec §7 `GET login/session?platform=aiot` as an event stream,
 * `POST login/qrcode {session_id}`; docs/decisions/auth.md "QR login"). The stream is Server-Sent Events (the
 * WHATWG HTML "server-sent events" format: `event:` and `data:` lines): `session` at once, then `tokens` or `expired`,
 * then it ends; a comment line every 15 s keeps proxies from closing it. While it waits it costs no query: the
 * confirmation wakes it (qr-login-waiters.ts), and the number of waiting streams is capped (429/503). `GET
 * login/qrcode` (beyond the spec) lets the confirming device show where the code was opened before it confirms.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { z } from 'zod';
import {
  ErrorCode,
  QR_LOGIN_TTL_S,
  qrLoginPath,
  ZQrConfirmRequest,
  ZQrSessionId,
  ZQrSessionInfo,
  ZQrSessionQuery,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireAuth } from '../../core/principal.js';
import { confirmQrSession, openQrSession, qrSessionInfo } from './qr-login.js';
import { QrLoginWaiters } from './qr-login-waiters.js';
import { requireSession } from './session-guard.js';
import { RATE_LIMITS } from './rate-limits.js';

const tags = ['auth'];
/** A comment line this often keeps idle proxies from closing the stream, in milliseconds. */
const HEARTBEAT_MS = 15_000;

function sendEvent(raw: ServerResponse, event: string, data: unknown): void {
  raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** Registers the QR login routes (prefix `/authorization/v1`). */
export async function qrLoginRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db, tokens, log, config } = ctx;
  const waiters = new QrLoginWaiters({
    database: ctx.database,
    db,
    tokens,
    log,
    limits: { maxStreams: config.qrLoginMaxStreams, maxStreamsPerIp: config.qrLoginMaxStreamsPerIp },
  });
  const open = new Set<ServerResponse>();
  app.addHook('onClose', async () => {
    for (const raw of open) raw.end();
    await waiters.close();
  });

  app.get(
    '/login/session',
    {
      config: { rateLimit: RATE_LIMITS.loginPerIp },
      schema: {
        tags,
        security: [],
        querystring: ZQrSessionQuery,
        response: {
          200: {
            description: 'the event stream',
            content: {
              'text/event-stream': {
                schema: z
                  .string()
                  .describe(
                    `Server-Sent Events: session {session_id, expires_at, path}, then tokens {token, refresh_token} or expired {code: UAE0009}; a session lasts ${QR_LOGIN_TTL_S} s.`,
                  ),
              },
            },
          },
        },
      },
    },
    async (req, reply) => {
      const release = waiters.reserve(req.ip);
      let session: { id: string; expiresAt: number };
      try {
        await waiters.ready();
        session = await openQrSession(db, req.ip, req.headers['user-agent'] ?? '', Date.now());
      } catch (err) {
        release();
        throw err;
      }
      reply.hijack();
      const raw = reply.raw;
      // A hijacked reply sends only what is written here: the headers set so far (security headers, request id) too.
      raw.writeHead(200, {
        ...(reply.getHeaders() as OutgoingHttpHeaders),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      open.add(raw);
      sendEvent(raw, 'session', { session_id: session.id, expires_at: session.expiresAt, path: qrLoginPath(session.id) });
      const heartbeat = setInterval(() => raw.write(': waiting\n\n'), HEARTBEAT_MS);
      const finish = () => {
        stopWaiting();
        release();
        open.delete(raw);
        clearInterval(heartbeat);
        if (!raw.writableEnded) raw.end();
      };
      const stopWaiting = waiters.watch(session.id, session.expiresAt, (outcome) => {
        if (outcome === 'expired') sendEvent(raw, 'expired', { code: ErrorCode.QrExpired, message: 'the QR code has expired' });
        else sendEvent(raw, 'tokens', outcome);
        finish();
      });
      raw.on('close', finish);
    },
  );

  app.get(
    '/login/qrcode',
    { preHandler: requireAuth, schema: { tags, querystring: z.object({ session_id: ZQrSessionId }), response: { 200: ZQrSessionInfo } } },
    (req) => qrSessionInfo(db, req.query.session_id, Date.now()),
  );
  app.post(
    '/login/qrcode',
    // Confirming opens a full session for the caller: a person's, never an API key's (session-guard.ts).
    { preHandler: requireSession, schema: { tags, body: ZQrConfirmRequest, response: { 204: z.null().describe('no content') } } },
    async (req, reply) => {
      await confirmQrSession(db, principalOf(req), req.body.session_id, Date.now());
      return reply.status(204).send(null);
    },
  );
}
