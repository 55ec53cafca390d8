/**
 * QR login across replicas on PostgreSQL: a confirmation made through a second server process wakes the stream the
 * first holds (NOTIFY crosses processes), and a confirmation whose notification was lost while the listening
 * connection was down is delivered as soon as it listens again, not at the safety re-check. The first server reaches
 * PostgreSQL through a TCP proxy of this test's own (test/pg-proxy.ts). PGlite has one process and no connection to
 * lose: skipped there.
 */
import { qrLoginPaths, type TQrSessionEvent } from '@tessera/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount, type TBuiltAccount } from '../../../test/factories.js';
import { openScratchPostgres, startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { startPgProxy, type TPgProxy } from '../../../test/pg-proxy.js';
import { spawnServer, type TSpawnedServer } from '../../../test/spawn-server.js';
import { QR_LOGIN_CHANNEL } from './qr-login.js';
import { openQrStream } from './qr-login.fixtures.js';
import { QR_RECHECK_MS } from './qr-login-waiters.js';

const ADMIN_URL = process.env.DATABASE_URL ?? '';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(TEST_DB_KIND !== 'postgres')('QR login across replicas (postgres)', () => {
  let proxy: TPgProxy;
  let database: Awaited<ReturnType<typeof openScratchPostgres>>;
  let directUrl: string;
  let server: TTestServer;
  let other: TSpawnedServer | undefined;
  let phone: TBuiltAccount;

  beforeAll(async () => {
    const admin = new URL(ADMIN_URL);
    proxy = await startPgProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
    database = await openScratchPostgres(ADMIN_URL, 5, 'tessera_qr', { via: (url) => proxy.urlFor(url), timeouts: { connectMs: 1_000 } });
    admin.pathname = `/${database.name}`;
    directUrl = admin.toString();
    server = await startTestServer({}, database);
    phone = await buildAccount(server, { level: 'user' });
  });
  afterAll(async () => {
    other?.child.kill('SIGKILL');
    await other?.exited;
    await server?.stop();
    await database?.close();
    await proxy?.close();
  });

  it('wakes a stream held by this process when another server process takes the confirmation', { timeout: 120_000 }, async () => {
    other = await spawnServer('node', ['--import', 'tsx', 'apps/server/src/main.ts'], { DATABASE_URL: directUrl });
    const stream = await openQrStream(server.httpUrl);
    const session = (await stream.next())?.data as TQrSessionEvent;
    const res = await fetch(`http://127.0.0.1:${other.httpPort}${qrLoginPaths.confirm}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${phone.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ session_id: session.session_id }),
    });
    expect(res.status).toBe(204);
    const confirmedAt = Date.now();
    expect((await stream.next())?.event).toBe('tokens');
    expect(Date.now() - confirmedAt).toBeLessThan(1_000);
  });

  it('listens again after its connection was lost and delivers the confirmation it missed meanwhile', { timeout: 60_000 }, async () => {
    const stream = await openQrStream(server.httpUrl, { from: '127.0.0.2' });
    const session = (await stream.next())?.data as TQrSessionEvent;
    const openedAt = Date.now();
    // The database goes away for this server: every connection dropped, new ones refused.
    proxy.refuse(true);
    proxy.dropAll();
    const direct = new pg.Client({ connectionString: directUrl });
    await direct.connect();
    try {
      // Confirmed elsewhere while this server cannot listen: its notification is lost.
      await direct.query(
        `with confirmed as (
           update qr_login_sessions set confirmed_account_id = $1, confirmed_at = $2 where id = $3 returning id)
         select pg_notify($4, id) from confirmed`,
        [phone.accountId, Date.now(), session.session_id, QR_LOGIN_CHANNEL],
      );
    } finally {
      await direct.end();
    }
    await sleep(1_000);
    proxy.refuse(false);
    const answer = await stream.next();
    expect(answer?.event).toBe('tokens');
    // Delivered by the check after LISTEN, well before the safety re-check would have found it.
    expect(Date.now() - openedAt).toBeLessThan(QR_RECHECK_MS - 3_000);
  });
});
