/**
 * The server against a PostgreSQL that goes away (docs/deployment.md "When the database fails"): connections
 * terminated mid-transaction under load, a database that refuses connections, one that is frozen (a partition).
 * The server sits behind a TCP proxy of the test's own (test/pg-proxy.ts); only the scratch database this file
 * created is ever terminated. PGlite has no connections to lose: skipped there.
 */
import { startSimulator } from '@tessera/device-sim';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../src/db/unavailable.js';
import { connectMqtt } from '../src/modules/ingest/ingest-test-kit.js';
import { buildDeviceProject, type TBuiltProject } from './device-factory.js';
import { startDeviceLoad } from './device-load.js';
import { buildVendor } from './factories.js';
import { openScratchPostgres, startTestServer, TEST_DB_KIND, type TTestServer } from './helpers.js';
import { startPgProxy, type TPgProxy } from './pg-proxy.js';
import { until } from './until.js';

const ADMIN_URL = process.env.DATABASE_URL ?? '';
/** Short timeouts, so a frozen database fails a query in about 1 s + the 2 s margin (db/pg-pool.ts). */
const TIMEOUTS = { connectMs: 1_000, statementMs: 1_000 };
const POOL_SIZE = 5;

async function health(server: TTestServer): Promise<{ status: number; ms: number; body: { db: string; status: string } }> {
  const started = performance.now();
  const res = await fetch(`${server.httpUrl}/healthz`);
  return { status: res.status, ms: performance.now() - started, body: (await res.json()) as { db: string; status: string } };
}

describe.skipIf(TEST_DB_KIND !== 'postgres')('database faults (postgres)', () => {
  let proxy: TPgProxy;
  let database: Awaited<ReturnType<typeof openScratchPostgres>>;
  let server: TTestServer;
  let project: TBuiltProject;
  const crashes: unknown[] = [];
  const onCrash = (err: unknown) => crashes.push(err);

  const terminateBackends = async () => {
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    try {
      // Only this file's scratch database: the shared server's other databases are never touched.
      const res = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [database.name],
      );
      return res.rowCount ?? 0;
    } finally {
      await admin.end();
    }
  };

  beforeAll(async () => {
    process.on('uncaughtException', onCrash);
    proxy = await startPgProxy({ host: new URL(ADMIN_URL).hostname, port: Number(new URL(ADMIN_URL).port || 5432) });
    database = await openScratchPostgres(ADMIN_URL, POOL_SIZE, 'tessera_fault', { via: (url) => proxy.urlFor(url), timeouts: TIMEOUTS });
    server = await startTestServer({}, database);
    project = await buildDeviceProject(server.ctx.db, { count: 8 });
  });
  afterAll(async () => {
    process.off('uncaughtException', onCrash);
    proxy?.thaw();
    proxy?.refuse(false);
    await server?.stop();
    await database?.close();
    await proxy?.close();
  });

  it('survives connections terminated mid-transaction under load, reports the outage, resumes, and loses no acknowledged point', async () => {
    const load = await startDeviceLoad({
      mqttUrl: server.mqttUrl,
      devices: project.devices.slice(0, 6),
      periodMs: 20,
      pointsPerMessage: 10,
    });
    await until(async () => (load.acked() > 2_000 ? true : undefined));
    // Writers are mid-transaction at any moment of this load: terminate them, several times.
    for (let round = 0; round < 3; round += 1) {
      expect(await terminateBackends()).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 300));
    }
    // Then the database goes away for a while (a restart): every connection dropped, new ones refused.
    proxy.refuse(true);
    proxy.dropAll();
    const down = await until(async () => {
      const h = await health(server);
      return h.status === 503 ? h : undefined;
    });
    expect(down.body).toMatchObject({ status: 'degraded', db: 'down' });
    const ackedDuringOutage = load.acked();
    proxy.refuse(false);
    const up = await until(async () => {
      const h = await health(server);
      return h.status === 200 ? h : undefined;
    }, 15_000);
    expect(up.body).toMatchObject({ status: 'ok', db: 'ok' });
    // Ingest resumes by itself: new points are acknowledged again.
    await until(async () => (load.acked() > ackedDuringOutage + 1_000 ? true : undefined), 20_000);
    await load.stop();

    expect(crashes).toEqual([]);
    expect(load.acked()).toBeGreaterThan(3_000);
    expect(await load.lostPoints(server.ctx.db)).toBe(0);
    // Every connection the terminations hit went back to nobody: once idle, the pool holds only idle ones.
    const pool = database.pool as pg.Pool;
    await until(async () => (pool.totalCount === pool.idleCount ? true : undefined));
  });

  it('answers CONNACK 3 while the database is down, 5 for wrong credentials once it is up; the simulator waits it out', async () => {
    const [fresh, other] = project.devices.slice(6);
    proxy.refuse(true);
    proxy.dropAll();
    // A device never seen before: its credentials cannot be checked now.
    const refused = await connectMqtt(server.mqttUrl, fresh.tangramId, fresh.secret).catch((err: { code?: number }) => err);
    expect((refused as { code?: number }).code).toBe(3);
    const sim = startSimulator({
      url: server.mqttUrl,
      devices: [{ tangramId: other.tangramId, secret: other.secret, keys: ['temperature'] }],
      rateHz: 5,
    });
    await new Promise((r) => setTimeout(r, 1_500));
    proxy.refuse(false);
    const running = await sim;
    expect(running.stats().refusals).toBeGreaterThan(0);
    await until(async () => (running.stats().acked > 0 ? true : undefined), 15_000);
    await running.stop();

    const wrong = await connectMqtt(server.mqttUrl, fresh.tangramId, 'not-the-secret').catch((err: { code?: number }) => err);
    expect((wrong as { code?: number }).code).toBe(5);
    expect(crashes).toEqual([]);
  });

  it('answers /healthz within a second while the database is frozen, and fails queries with a timeout instead of hanging', async () => {
    const vendor = await buildVendor(server);
    proxy.freeze();
    try {
      const frozen = await health(server);
      expect(frozen.ms).toBeLessThan(1_000);
      expect(frozen.status).toBe(503);
      expect(frozen.body.db).toBe('down');

      const started = performance.now();
      const res = await fetch(`${server.httpUrl}/frontstage/v1/devices`, { headers: { authorization: `Bearer ${vendor.token}` } });
      // statement 1 s + margin 2 s on the client side; generous for a loaded machine, far from "forever".
      expect(performance.now() - started).toBeLessThan(8_000);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(((await res.json()) as { code: string }).code).toBe('DB_UNAVAILABLE');
      const err = await server.ctx.db.execute(sql`select 1`).catch((e: unknown) => e);
      expect(isDatabaseUnavailable(err)).toBe(true);
    } finally {
      proxy.thaw();
    }
    await until(async () => ((await health(server)).status === 200 ? true : undefined), 15_000);
    const after = await fetch(`${server.httpUrl}/frontstage/v1/devices`, { headers: { authorization: `Bearer ${vendor.token}` } });
    expect(after.status).toBe(200);
    expect(crashes).toEqual([]);
  });

  it('keeps every slot of the pool when connections die inside transactions, at BEGIN or after it', { timeout: 45_000 }, async () => {
    const pool = database.pool as pg.Pool;
    const db = server.ctx.db;
    type TTx = Parameters<Parameters<typeof db.transaction>[0]>[0];
    const select = (t: TTx) => t.execute(sql`select 1`);
    const all = (run: () => Promise<unknown>) => Promise.allSettled(Array.from({ length: POOL_SIZE }, run));
    const healthyRound = async () => {
      const started = performance.now();
      const round = await all(() => db.transaction((t) => t.execute(sql`select pg_sleep(0.05)`)));
      expect(round.filter((r) => r.status === 'rejected')).toEqual([]);
      expect(performance.now() - started).toBeLessThan(2_000);
    };
    await healthyRound();

    // At BEGIN: every open connection of the pool stops answering as a transaction starts on it.
    proxy.freeze();
    expect((await all(() => db.transaction(select))).every((r) => r.status === 'rejected')).toBe(true);
    // The network heals for new connections; the ones that timed out stay dead (their peer is gone).
    proxy.strandFrozen();
    await healthyRound();

    // After BEGIN: the connection stops answering in the middle of a transaction.
    const midway = await db
      .transaction(async (t) => {
        await select(t);
        proxy.freeze();
        await select(t);
      })
      .catch((e: unknown) => e);
    expect(isDatabaseUnavailable(midway)).toBe(true);
    proxy.strandFrozen();
    // The pool's idle connections froze too: each fails its next transaction once and is then replaced.
    await all(() => db.transaction(select));
    await healthyRound();

    await until(async () => (pool.totalCount === pool.idleCount ? true : undefined));
    proxy.thaw();
    expect(crashes).toEqual([]);
  });
});
