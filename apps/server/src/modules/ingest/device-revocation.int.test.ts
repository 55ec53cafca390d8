/**
 * Revoking a device's sessions on the embedded broker (device-revocation.ts): its open connection closes at once,
 * its old secret is refused at the next login although the directory had it cached, and a second replica on the
 * same database (PostgreSQL) closes its connection of the device too, through NOTIFY. When the revoking replica's own
 * notification comes back, it closes only the logins begun before the revocation, so a device that logs in with its
 * new credentials at once stays connected. A replica whose listening connection was cut while a device's secret
 * changed without it hearing so closes that device's session once it listens again, and keeps the others.
 */
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { LISTEN_DEADLINE_MS, listenerApplicationName } from '../../core/database-listener.js';
import { startPgProxy } from '../../../test/pg-proxy.js';
import { rowsOf } from '../../db/client.js';
import { sha256 } from '../../core/crypto.js';
import { deviceAccessTokens } from '../../db/schema.js';
import mqtt from 'mqtt';
import { openScratchPostgres, startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { DEVICE_REVOKED_CHANNEL, OWN_NOTIFICATION_WAIT_MS, OwnRevocations, startDeviceRevocation } from './device-revocation.js';
import { connectMqtt, loginCode, replaceDeviceSecret, waitUntil } from './ingest-test-kit.js';

describe(`device revocation on the embedded broker (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let project: TBuiltProject;
  beforeAll(async () => {
    server = await startTestServer();
    project = await buildDeviceProject(server.ctx.db, { count: 2 });
  });
  afterAll(() => server.stop());

  it('closes the device at once and refuses its old secret, though it was cached', async () => {
    const [d] = project.devices;
    const dev = await connectMqtt(server.mqttUrl, d.tangramId, d.secret);
    const closed = new Promise<void>((resolve) => dev.once('close', () => resolve()));
    const newSecret = await replaceDeviceSecret(server.ctx.db, d.id);
    // Without revocation the cached row would let the old secret in for up to 10 s.
    expect(await loginCode(server.mqttUrl, d.tangramId, d.secret)).toBe(0);
    const t0 = Date.now();
    await server.ctx.bus.revokeDevice(d.tangramId);
    await closed;
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(await loginCode(server.mqttUrl, d.tangramId, d.secret)).toBe(5);
    expect(await loginCode(server.mqttUrl, d.tangramId, newSecret)).toBe(0);
    dev.end(true);
  });

  it("when its own notification comes back, closes only the logins begun before it revoked; another replica's, all begun before it came", async () => {
    const calls: { tangramId: string; loginsBeforeMs: number }[] = [];
    const revocation = startDeviceRevocation({
      database: server.ctx.database,
      db: server.ctx.db,
      log: pino({ level: 'silent' }),
      revokeLocally: (tangramId, loginsBeforeMs) => calls.push({ tangramId, loginsBeforeMs }),
      forgetAll: () => undefined,
      recheckSessions: async () => undefined,
    });
    try {
      // Listening once a notice of its own comes back (a replica not yet listening misses notes).
      await waitUntil(async () => {
        await server.ctx.db.execute(sql`select pg_notify(${DEVICE_REVOKED_CHANNEL}, 'PROBE')`);
        await new Promise((r) => setTimeout(r, 50));
        return calls.some((c) => c.tangramId === 'PROBE');
      }, 5_000);
      const own = () => calls.filter((c) => c.tangramId === 'T-OWN');
      await revocation.revoke('T-OWN');
      // Acted at once, then again when its notification came back (on PGlite, before revoke resolved).
      await waitUntil(() => own().length === 2, 5_000);
      // The echo closes what began before the revocation acted, not what began since.
      expect(own()[1]).toEqual(own()[0]);
      const before = performance.now();
      await server.ctx.db.execute(sql`select pg_notify(${DEVICE_REVOKED_CHANNEL}, 'T-OWN')`);
      await waitUntil(() => own().length === 3, 5_000);
      expect(own()[2]?.loginsBeforeMs).toBeGreaterThan(before);
    } finally {
      await revocation.close();
    }
  });

  it('checks the sessions when it listens, and again after a check the database failed', async () => {
    const checks: number[] = [];
    const revocation = startDeviceRevocation({
      database: server.ctx.database,
      db: server.ctx.db,
      log: pino({ level: 'silent' }),
      revokeLocally: () => undefined,
      forgetAll: () => undefined,
      recheckSessions: async (loginsBeforeMs) => {
        checks.push(loginsBeforeMs);
        if (checks.length === 1) throw new Error('connection terminated');
      },
      sessionRecheckRetryMs: 50,
    });
    try {
      await waitUntil(() => checks.length === 2, 5_000);
      // The retry checks the same sessions: those begun before the listener was in place.
      expect(checks[1]).toBe(checks[0]);
      // A check that succeeded is not repeated.
      await new Promise((r) => setTimeout(r, 200));
      expect(checks).toHaveLength(2);
    } finally {
      await revocation.close();
    }
  });

  it.skipIf(TEST_DB_KIND !== 'postgres')(
    'checks its sessions again after its listening connection was cut: those whose secret or token changed unheard are closed',
    async () => {
      const [changed, kept, tokenDevice] = (await buildDeviceProject(server.ctx.db, { count: 3 })).devices;
      const changedDev = await connectMqtt(server.mqttUrl, changed.tangramId, changed.secret);
      const keptDev = await connectMqtt(server.mqttUrl, kept.tangramId, kept.secret);
      const token = `token-${tokenDevice.tangramId}`;
      await server.ctx.db
        .insert(deviceAccessTokens)
        .values({ deviceId: tokenDevice.id, tokenHash: sha256(token), tokenLast4: token.slice(-4), issuedAt: Date.now() });
      const tokenDev = await mqtt.connectAsync(server.mqttUrl, { username: token, reconnectPeriod: 0, connectTimeout: 5_000 });
      const tokenClosed = new Promise<void>((resolve) => tokenDev.once('close', () => resolve()));
      let keptClosed = false;
      keptDev.once('close', () => {
        keptClosed = true;
      });
      const closed = new Promise<void>((resolve) => changedDev.once('close', () => resolve()));
      try {
        // The secret changes with no notification at all, as when one is sent while this replica is not listening.
        await replaceDeviceSecret(server.ctx.db, changed.id);
        await server.ctx.db
          .update(deviceAccessTokens)
          .set({ tokenHash: sha256(`${token}-rotated`) })
          .where(eq(deviceAccessTokens.deviceId, tokenDevice.id));
        await new Promise((r) => setTimeout(r, 300));
        expect(changedDev.connected).toBe(true);
        expect(tokenDev.connected).toBe(true);
        const cut = rowsOf<{ ok: boolean }>(
          await server.ctx.db.execute(
            sql`select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = ${listenerApplicationName(DEVICE_REVOKED_CHANNEL)}`,
          ),
        );
        expect(cut.length).toBeGreaterThan(0);
        await closed;
        await tokenClosed;
        await new Promise((r) => setTimeout(r, 300));
        expect(keptClosed).toBe(false);
        expect(await loginCode(server.mqttUrl, changed.tangramId, changed.secret)).toBe(5);
      } finally {
        changedDev.end(true);
        keptDev.end(true);
        tokenDev.end(true);
      }
    },
    20_000,
  );

  it.skipIf(TEST_DB_KIND !== 'postgres')(
    'finds a listening connection that died without closing (a partition), listens again and checks the sessions',
    async () => {
      const admin = new URL(process.env.DATABASE_URL ?? '');
      const proxy = await startPgProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
      const database = await openScratchPostgres(process.env.DATABASE_URL ?? '', 2, 'tessera_revoke_probe', {
        via: (url) => proxy.urlFor(url),
        timeouts: { connectMs: 1_000 },
      });
      const checks: number[] = [];
      const revocation = startDeviceRevocation({
        database,
        db: database.db,
        log: pino({ level: 'silent' }),
        revokeLocally: () => undefined,
        forgetAll: () => undefined,
        recheckSessions: async (loginsBeforeMs) => {
          checks.push(loginsBeforeMs);
        },
        listenerProbeMs: 500,
      });
      try {
        await waitUntil(() => checks.length === 1, 5_000);
        // Every connection open now stops forwarding for good, and nothing closes: the listener hears nothing.
        proxy.freeze();
        proxy.strandFrozen();
        const strandedAt = performance.now();
        // The probe's `select 1` is not answered within LISTEN_DEADLINE_MS: the connection is dropped and reopened.
        await waitUntil(() => checks.length === 2, LISTEN_DEADLINE_MS + 5_000);
        expect(checks[1]).toBeGreaterThan(strandedAt);
      } finally {
        await revocation.close();
        await database.close();
        await proxy.close();
      }
    },
    30_000,
  );

  it.skipIf(TEST_DB_KIND !== 'postgres')('reaches the device on another replica through NOTIFY', async () => {
    const database = await openScratchPostgres(process.env.DATABASE_URL ?? '', 4, 'tessera_revoke');
    const a = await startTestServer({}, database);
    const b = await startTestServer({}, database);
    try {
      const [d] = (await buildDeviceProject(a.ctx.db, { count: 1 })).devices;
      const dev = await connectMqtt(b.mqttUrl, d.tangramId, d.secret);
      let closed = false;
      dev.once('close', () => {
        closed = true;
      });
      await a.ctx.bus.revokeDevice(d.tangramId);
      await waitUntil(() => closed, 3_000);
      dev.end(true);
    } finally {
      await a.stop();
      await b.stop();
      await database.close();
    }
  });
});

describe('OwnRevocations', () => {
  it('takes its echoes oldest first, and forgets one that did not come back in time', () => {
    const sent = new OwnRevocations();
    sent.add('A', 100);
    sent.add('A', 200);
    expect(sent.takeEcho('B', 250)).toBeUndefined();
    expect(sent.takeEcho('A', 250)).toBe(100);
    expect(sent.takeEcho('A', 260)).toBe(200);
    expect(sent.takeEcho('A', 270)).toBeUndefined();
    sent.add('A', 300);
    expect(sent.takeEcho('A', 300 + OWN_NOTIFICATION_WAIT_MS + 1)).toBeUndefined();
    sent.add('A', 400);
    sent.forget('A', 400);
    expect(sent.takeEcho('A', 410)).toBeUndefined();
    sent.add('A', 500);
    sent.clear();
    expect(sent.takeEcho('A', 510)).toBeUndefined();
  });
});
