import { eq, sql } from 'drizzle-orm';
import {
  ErrorCode,
  paths,
  qrLoginPaths,
  type TProfile,
  type TQrSessionEvent,
  type TQrSessionInfo,
  type TTokenResponse,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.js';
import { qrLoginSessions } from '../../db/schema.js';
import { buildAccount, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { until } from '../../../test/until.js';
import { QR_LOGIN_CHANNEL } from './qr-login.js';
import { countQrQueries, openQrStream, type TQrStream } from './qr-login.fixtures.js';
import { QR_STREAMS_RETRY_AFTER_S } from './qr-login-waiters.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Transactions committed in the test's database so far (PostgreSQL's statistics; flushed about once a second). */
async function commits(server: TTestServer): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await server.ctx.db.execute(sql`select xact_commit::int as n from pg_stat_database where datname = current_database()`),
  );
  return row.n;
}

async function sessionOf(stream: TQrStream): Promise<TQrSessionEvent> {
  const first = await stream.next();
  expect(first?.event).toBe('session');
  return first?.data as TQrSessionEvent;
}

describe(`QR login (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  /** A second server on the same database (another replica), with small caps. */
  let second: TTestServer;
  let phone: TBuiltAccount;
  beforeAll(async () => {
    server = await startTestServer();
    second = await startTestServer({ qrLoginMaxStreams: 3, qrLoginMaxStreamsPerIp: 2 }, server.database);
    phone = await buildAccount(server, { level: 'user' });
  });
  afterAll(async () => {
    await second?.stop();
    await server?.stop();
  });

  const confirm = (sessionId: string) => server.api('POST', qrLoginPaths.confirm, { token: phone.token, body: { session_id: sessionId } });

  it('streams the session, then the confirming account’s tokens once and at once; the used code is refused', async () => {
    const stream = await openQrStream(server.httpUrl);
    expect(stream.status).toBe(200);
    expect(stream.type).toContain('text/event-stream');
    const session = await sessionOf(stream);
    expect(session.path).toBe(`/login?session_id=${session.session_id}`);
    expect(session.expires_at - Date.now()).toBeGreaterThan(100_000);

    const info = await server.api<TQrSessionInfo>('GET', `${qrLoginPaths.confirm}?session_id=${session.session_id}`, {
      token: phone.token,
    });
    expect(info.status).toBe(200);
    expect(info.body.user_agent).toBe('QR test screen');
    expect((await confirm(session.session_id)).status).toBe(204);
    const confirmedAt = Date.now();

    const answer = await stream.next();
    expect(answer?.event).toBe('tokens');
    expect(Date.now() - confirmedAt).toBeLessThan(1_000);
    const pair = answer?.data as TTokenResponse;
    const profile = await server.api<TProfile>('GET', paths.profile, { token: pair.token });
    expect(profile.body.email).toBe(phone.email);
    expect(await stream.next()).toBeNull();

    const again = await confirm(session.session_id);
    expect(again.status).toBe(409);
  });

  it('ends an unconfirmed session with expired (UAE0009) when woken after its expiry; confirming it then answers UAE0009', async () => {
    const stream = await openQrStream(server.httpUrl);
    const session = await sessionOf(stream);
    await server.ctx.db
      .update(qrLoginSessions)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(qrLoginSessions.id, session.session_id));
    // Any wake-up makes the stream's holder read its session again.
    await server.ctx.db.execute(sql`select pg_notify(${QR_LOGIN_CHANNEL}, ${session.session_id})`);
    expect(await stream.next()).toEqual({ event: 'expired', data: { code: 'UAE0009', message: 'the QR code has expired' } });
    const late = await server.api<{ code: string }>('POST', qrLoginPaths.confirm, {
      token: phone.token,
      body: { session_id: session.session_id },
    });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('UAE0009');
  });

  it('costs no query while 50 streams wait; the confirmed one is woken at once', async () => {
    const idleMs = 3_000;
    const baselineFrom = TEST_DB_KIND === 'postgres' ? await commits(server) : 0;
    await sleep(idleMs);
    const baseline = TEST_DB_KIND === 'postgres' ? (await commits(server)) - baselineFrom : 0;

    const streams = await Promise.all(
      Array.from({ length: 50 }, (_, i) => openQrStream(server.httpUrl, { from: `127.0.10.${1 + (i % 5)}` })),
    );
    expect(streams.map((s) => s.status)).toEqual(streams.map(() => 200));
    const sessions = await Promise.all(streams.map(sessionOf));
    // Backends report their commits to the statistics about once a second: let opening's commits (insert, sweep) land.
    if (TEST_DB_KIND === 'postgres') await sleep(1_500);
    const counted = countQrQueries(server.database);
    const commitsFrom = TEST_DB_KIND === 'postgres' ? await commits(server) : 0;
    await sleep(idleMs);
    const waitingCommits = TEST_DB_KIND === 'postgres' ? (await commits(server)) - commitsFrom : 0;
    // At most the one re-check of every waiting stream together may fall in the window; polling made 600 here.
    expect(counted.stop()).toBeLessThanOrEqual(1);
    // The other workers (outbox polls) commit as much with streams as without; polling added about 570.
    expect(waitingCommits - baseline).toBeLessThan(100);

    expect((await confirm(sessions[17].session_id)).status).toBe(204);
    const confirmedAt = Date.now();
    expect((await streams[17].next())?.event).toBe('tokens');
    expect(Date.now() - confirmedAt).toBeLessThan(1_000);
    for (const s of streams) s.close();
  });

  it('wakes a stream held by another server on the same database when the confirmation is made on this one', async () => {
    const stream = await openQrStream(second.httpUrl, { from: '127.0.20.9' });
    const session = await sessionOf(stream);
    expect((await confirm(session.session_id)).status).toBe(204);
    const confirmedAt = Date.now();
    expect((await stream.next())?.event).toBe('tokens');
    expect(Date.now() - confirmedAt).toBeLessThan(1_000);
  });

  it('caps waiting streams per address (429) and in all (503) before writing anything; a closed stream frees its slot', async () => {
    const [{ n: rowsBefore }] = rowsOf<{ n: number }>(await server.ctx.db.execute(sql`select count(*)::int as n from qr_login_sessions`));
    const a = [await openQrStream(second.httpUrl, { from: '127.0.20.1' }), await openQrStream(second.httpUrl, { from: '127.0.20.1' })];
    expect(a.map((s) => s.status)).toEqual([200, 200]);
    const third = await openQrStream(second.httpUrl, { from: '127.0.20.1' });
    expect(third.status).toBe(429);
    expect(third.body?.code).toBe(ErrorCode.QrLoginTooManyStreams);
    expect(third.headers['retry-after']).toBe(String(QR_STREAMS_RETRY_AFTER_S));
    const b = await openQrStream(second.httpUrl, { from: '127.0.20.2' });
    expect(b.status).toBe(200);
    const busy = await openQrStream(second.httpUrl, { from: '127.0.20.3' });
    expect(busy.status).toBe(503);
    expect(busy.body?.code).toBe(ErrorCode.QrLoginBusy);
    expect(busy.headers['retry-after']).toBe(String(QR_STREAMS_RETRY_AFTER_S));
    const [{ n: rowsAfter }] = rowsOf<{ n: number }>(await server.ctx.db.execute(sql`select count(*)::int as n from qr_login_sessions`));
    expect(rowsAfter - rowsBefore).toBe(3);

    a[0].close();
    const freed = await until(async () => {
      const s = await openQrStream(second.httpUrl, { from: '127.0.20.3' });
      if (s.status === 200) return s;
      await sleep(200);
      return undefined;
    });
    for (const s of [a[1], b, freed]) s.close();
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
    // An API key may not confirm: that would open a session, and a session may mint keys.
    const key = await server.api<{ key: string }>('POST', paths.apiKeys, {
      token: phone.token,
      body: { name: 'script', expires_at: null },
    });
    const stream = await openQrStream(server.httpUrl);
    const { session_id } = await sessionOf(stream);
    const byKey = await server.api<{ code: string }>('POST', qrLoginPaths.confirm, { token: key.body.key, body: { session_id } });
    stream.close();
    expect(byKey.status).toBe(403);
    expect(byKey.body.code).toBe(ErrorCode.SessionRequired);
  });
});
