/**
 * The sensor sync loop end to end: the API changes a key's upload period, POST sync publishes
 * the retained config, the simulator applies it, and the key's arrival rate in the database drops.
 */
import { sensorPaths, type TSensorList, type TSyncResult } from '@tessera/contracts';
import { startSimulator, type TSimulator } from '@tessera/device-sim';
import { and, count, eq, gte, lt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { telemetry, telemetryKeys } from '../../db/schema.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(50);
  }
}

describe(`sensor sync → simulator → publish rate (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let built: TBuiltProject;
  let sim: TSimulator | null = null;
  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 1 });
  });
  afterAll(async () => {
    await sim?.stop();
    await server.stop();
  });

  /** Points of `key` the device sent with a device timestamp in [from, to). */
  const countPoints = async (key: string, from: number, to: number) => {
    const [{ n }] = await server.ctx.db
      .select({ n: count() })
      .from(telemetry)
      .innerJoin(telemetryKeys, eq(telemetryKeys.id, telemetry.keyId))
      .where(and(eq(telemetry.deviceId, built.devices[0].id), eq(telemetryKeys.key, key), gte(telemetry.ts, from), lt(telemetry.ts, to)));
    return n;
  };
  /** Counts `key` and `other` over a `windowMs` window starting now, after ingest has flushed. */
  const measure = async (windowMs: number) => {
    const from = Date.now();
    await sleep(windowMs + 800);
    return {
      temperature: await countPoints('temperature', from, from + windowMs),
      humidity: await countPoints('humidity', from, from + windowMs),
    };
  };

  it('synced upload periods set each key’s publish rate on the device', async () => {
    const device = built.devices[0];
    sim = await startSimulator({
      url: server.mqttUrl,
      devices: [{ ...device, keys: ['temperature', 'humidity'] }],
      rateHz: 10,
      statusPeriodMs: 60_000,
    });
    await sleep(500);
    const before = await measure(2000);
    expect(before.temperature).toBeGreaterThanOrEqual(12); // ~20 at 10 Hz, slack for a loaded machine
    expect(before.humidity).toBeGreaterThanOrEqual(12);

    const list = await server.api<TSensorList>('GET', sensorPaths.list(built.projectId), { token: vendor.token });
    const temp = list.body.data.find((s) => s.key === 'temperature');
    expect(temp).toBeDefined();
    const put = await server.api('PUT', sensorPaths.one(temp?.id ?? 0), { token: vendor.token, body: { upload_period: 3000 } });
    expect(put.status).toBe(200);
    const sync = await server.api<TSyncResult>('POST', sensorPaths.sync, { token: vendor.token, body: { project_id: built.projectId } });
    expect(sync.status).toBe(200);
    expect(sync.body.devices).toBe(1);
    const running = sim;
    await until(() => running.stats().configsApplied >= 1);

    // Synced: temperature every 3 s; humidity keeps its stored period (1000 ms, the floor), so both slow from 10 Hz.
    const after = await measure(6000);
    expect(after.temperature).toBeGreaterThanOrEqual(1); // ~2
    expect(after.temperature).toBeLessThanOrEqual(3);
    expect(after.humidity).toBeGreaterThanOrEqual(5); // ~6
    expect(after.humidity).toBeLessThanOrEqual(8);
  });

  it('the config is retained: a device connecting later applies it at once', async () => {
    await sim?.stop();
    const device = built.devices[0];
    sim = await startSimulator({
      url: server.mqttUrl,
      devices: [{ ...device, keys: ['temperature'] }],
      rateHz: 10,
      statusPeriodMs: 60_000,
    });
    const running = sim;
    await until(() => running.stats().configsApplied >= 1);
    const after = await measure(3000);
    expect(after.temperature).toBeLessThanOrEqual(2); // 3 s period, not 10 Hz
  });

  it('answers 0 devices for a project without devices, 400 for a bad body', async () => {
    const empty = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 0 });
    const res = await server.api<TSyncResult>('POST', sensorPaths.sync, { token: vendor.token, body: { project_id: empty.projectId } });
    expect(res.body.devices).toBe(0);
    expect((await server.api('POST', sensorPaths.sync, { token: vendor.token, body: { project_id: 'x' } })).status).toBe(400);
  });
});
