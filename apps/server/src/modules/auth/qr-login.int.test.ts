import { eq } from 'drizzle-orm';
import { paths, qrLoginPaths, type TProfile, type TQrSessionEvent, type TQrSessionInfo, type TTokenResponse } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qrLoginSessions } from '../../db/schema.js';
import { buildAccount, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';

type TEvent = { event: string; data: unknown };

/** Opens the real event stream over HTTP and yields its events as they arrive (WHATWG SSE: blank-line separated). */
async function openStream(url: string): Promise<{ next: () => Promise<TEvent | null>; close: () => void; status: number; type: string }> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal, headers: { 'user-agent': 'QR test screen' } });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const next = async (): Promise<TEvent | null> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const lines = block.split('\n').filter((l) => !l.startsWith(':'));
        if (lines.length === 0) continue;
        const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
        const data = lines.find((l) => l.startsWith('data: '))?.slice(6) ?? 'null';
        return { event, data: JSON.parse(data) };
      }
      const { value, done } = await reader.read();
      if (done) return null;
      buffer += decoder.decode(value, { stream: true });
    }
  };
  return { next, close: () => controller.abort(), status: res.status, type: res.headers.get('content-type') ?? '' };
}

describe(`QR login (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let phone: TBuiltAccount;
  beforeAll(async () => {
    server = await startTestServer();
    phone = await buildAccount(server, { level: 'user' });
  });
  afterAll(() => server.stop());

  it('streams the session, then the confirming account’s tokens once; the used code is refused', async () => {
    const stream = await openStream(`${server.httpUrl}${qrLoginPaths.session}`);
    expect(stream.status).toBe(200);
    expect(stream.type).toContain('text/event-stream');
    const first = await stream.next();
    expect(first?.event).toBe('session');
    const session = first?.data as TQrSessionEvent;
    expect(session.path).toBe(`/login?session_id=${session.session_id}`);
    expect(session.expires_at - Date.now()).toBeGreaterThan(100_000);

    const info = await server.api<TQrSessionInfo>('GET', `${qrLoginPaths.confirm}?session_id=${session.session_id}`, {
      token: phone.token,
    });
    expect(info.status).toBe(200);
    expect(info.body.user_agent).toBe('QR test screen');
    expect((await server.api('POST', qrLoginPaths.confirm, { token: phone.token, body: { session_id: session.session_id } })).status).toBe(
      204,
    );

    const second = await stream.next();
    expect(second?.event).toBe('tokens');
    const pair = second?.data as TTokenResponse;
    const profile = await server.api<TProfile>('GET', paths.profile, { token: pair.token });
    expect(profile.body.email).toBe(phone.email);
    expect(await stream.next()).toBeNull();

    const again = await server.api<{ code: string }>('POST', qrLoginPaths.confirm, {
      token: phone.token,
      body: { session_id: session.session_id },
    });
    expect(again.status).toBe(409);
  });

  it('ends an unconfirmed session with expired (UAE0009); confirming it then answers UAE0009', async () => {
    const stream = await openStream(`${server.httpUrl}${qrLoginPaths.session}`);
    const session = (await stream.next())?.data as TQrSessionEvent;
    await server.ctx.db
      .update(qrLoginSessions)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(qrLoginSessions.id, session.session_id));
    const ended = await stream.next();
    expect(ended).toEqual({ event: 'expired', data: { code: 'UAE0009', message: 'the QR code has expired' } });
    const late = await server.api<{ code: string }>('POST', qrLoginPaths.confirm, {
      token: phone.token,
      body: { session_id: session.session_id },
    });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('UAE0009');
  });

  it('refuses: no token (401), a malformed or unknown session id (400), another platform (400)', async () => {
    expect((await server.api('POST', qrLoginPaths.confirm, { body: { session_id: 'A'.repeat(22) } })).status).toBe(401);
    expect((await server.api('GET', `${qrLoginPaths.confirm}?session_id=${'A'.repeat(22)}`)).status).toBe(401);
    expect((await server.api('POST', qrLoginPaths.confirm, { token: phone.token, body: { session_id: 'short' } })).status).toBe(400);
    const unknown = await server.api<{ code: string }>('POST', qrLoginPaths.confirm, {
      token: phone.token,
      body: { session_id: 'A'.repeat(22) },
    });
    expect(unknown.body.code).toBe('UAE0009');
    expect((await server.api('GET', '/authorization/v1/login/session?platform=other')).status).toBe(400);
  });
});
