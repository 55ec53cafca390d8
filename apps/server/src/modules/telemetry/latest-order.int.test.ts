/**
 * "Latest" when a device's clock runs ahead (docs/decisions/telemetry.md "Latest and a device clock ahead",
 * docs/protocol.md "Limits and bad payloads"): a far-future point is refused, a point a few minutes fast is stored
 * and is latest, and neither hides the real points after it from latest or the status word.
 */
import { DEVICE_TS_MAX_AHEAD_MS, paths, topics, type TDeviceTwin, type TLatestValue, type TTelemetryRow } from '@tessera/contracts';
import { and, eq, sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { rowsOf } from '../../db/client.js';
import { deviceIngestStats } from '../../db/schema.js';
import { writeIngestBatch } from './write.js';

const HOUR_MS = 3_600_000;
const empty = { telemetry: [], status: [], rejected: [] };

describe(`latest with a device clock ahead (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
  });
  afterAll(async () => {
    for (const c of clients) await c.endAsync(true).catch(() => undefined);
    await server.stop();
  });

  const newDevice = async (): Promise<TBuiltDevice> =>
    (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId })).devices[0] as TBuiltDevice;
  const connect = async (d: TBuiltDevice): Promise<MqttClient> => {
    const c = await mqtt.connectAsync(server.mqttUrl, {
      username: d.tangramId,
      password: d.secret,
      clientId: d.tangramId,
      reconnectPeriod: 0,
    });
    clients.push(c);
    return c;
  };
  /** Publishes at QoS 1: resolves once the server has stored (or refused) the message. */
  const publish = (c: MqttClient, d: TBuiltDevice, kind: 'telemetry' | 'status', body: unknown) =>
    c.publishAsync(kind === 'telemetry' ? topics.telemetry(d.tangramId) : topics.status(d.tangramId), JSON.stringify(body), { qos: 1 });
  const latest = async (d: TBuiltDevice) =>
    (await server.api<TLatestValue[]>('GET', `${paths.tsLatest}?tangramId=${d.tangramId}`, { token: vendor.token })).body.map((l) => ({
      key: l.key,
      ts: l.ts,
      v: l.vs[0],
    }));
  const statusWord = async (d: TBuiltDevice) => {
    const res = await server.api<TDeviceTwin[]>('GET', `${paths.tsDeviceTwins}?tangramIds=${d.tangramId}`, { token: vendor.token });
    const status = res.body[0]?.status;
    return status ? { ts: status.ts, value: status.value } : null;
  };
  const refusedOutOfRange = async (deviceId: number) => {
    const [row] = await server.ctx.db
      .select({ count: deviceIngestStats.count })
      .from(deviceIngestStats)
      .where(and(eq(deviceIngestStats.deviceId, deviceId), eq(deviceIngestStats.reason, 'ts_out_of_range')));
    return Number(row?.count ?? 0);
  };
  /** Lets the clock pass the last arrival, so a point stamped "now" is really after it. */
  const tick = () => new Promise((r) => setTimeout(r, 5));

  it('refuses a far-future point and counts it; the real point after it is latest, for telemetry and the status word', async () => {
    const d = await newDevice();
    const c = await connect(d);
    await publish(c, d, 'telemetry', { key: 'temperature', ts: Date.now() + 23 * HOUR_MS, vs: [99] });
    await publish(c, d, 'status', { ts: Date.now() + 23 * HOUR_MS, value: 7 });
    await tick();
    const real = Date.now();
    await publish(c, d, 'telemetry', { key: 'temperature', ts: real, vs: [21] });
    await publish(c, d, 'status', { ts: real, value: 1 });

    expect(await latest(d)).toEqual([{ key: 'temperature', ts: real, v: 21 }]);
    expect(await statusWord(d)).toEqual({ ts: real, value: 1 });
    expect(await refusedOutOfRange(d.id)).toBe(2);
  });

  it('stores a point a few minutes fast as latest; the real point after it replaces it, and history keeps both ts', async () => {
    expect(DEVICE_TS_MAX_AHEAD_MS).toBeGreaterThanOrEqual(5 * 60_000);
    const d = await newDevice();
    const c = await connect(d);
    const fast = Date.now() + 5 * 60_000;
    await publish(c, d, 'telemetry', { key: 'temperature', ts: fast, vs: [30] });
    await publish(c, d, 'status', { ts: fast, value: 4 });
    expect(await latest(d)).toEqual([{ key: 'temperature', ts: fast, v: 30 }]);
    expect(await statusWord(d)).toEqual({ ts: fast, value: 4 });

    await tick();
    const real = Date.now();
    await publish(c, d, 'telemetry', { key: 'temperature', ts: real, vs: [22] });
    await publish(c, d, 'status', { ts: real, value: 2 });
    expect(await latest(d)).toEqual([{ key: 'temperature', ts: real, v: 22 }]);
    expect(await statusWord(d)).toEqual({ ts: real, value: 2 });

    const history = await server.api<TTelemetryRow[]>('GET', `${paths.tsLatestN}?tangramId=${d.tangramId}&key=temperature&n=5`, {
      token: vendor.token,
    });
    expect(history.body.map((r) => r.ts)).toEqual([fast, real]);
    expect(await refusedOutOfRange(d.id)).toBe(0);
  });

  it('follows arrival for a clock that is always ahead, and a backlog read late never replaces latest', async () => {
    const { id } = await newDevice();
    const T = Date.UTC(2026, 2, 1, 8);
    const at = (ts: number, recv: number, v: number) => ({
      deviceId: id,
      key: 'temperature',
      ts,
      svcRecvTs: recv,
      v1: v,
      v2: null,
      v3: null,
    });
    // Three minutes fast, arriving a second apart; then points from an hour before, read late.
    await writeIngestBatch(server.ctx.db, { ...empty, telemetry: [at(T + 180_000, T, 1)] });
    await writeIngestBatch(server.ctx.db, { ...empty, telemetry: [at(T + 181_000, T + 1000, 2)] });
    await writeIngestBatch(server.ctx.db, { ...empty, telemetry: [at(T - HOUR_MS, T + 2000, 3), at(T - HOUR_MS + 1, T + 2000, 4)] });
    const rows = rowsOf<{ ts: number; v1: number }>(
      await server.ctx.db.execute(sql`select ts, v1 from telemetry_latest where device_id = ${id} and key = 'temperature'`),
    );
    expect(rows.map((r) => [Number(r.ts), r.v1])).toEqual([[T + 181_000, 2]]);
  });

  it('in one batch, a point ahead of its arrival loses to a point received after that arrival', async () => {
    const { id } = await newDevice();
    const T = Date.UTC(2026, 2, 1, 9);
    await writeIngestBatch(server.ctx.db, {
      ...empty,
      telemetry: [
        { deviceId: id, key: 'temperature', ts: T + 9 * 60_000, svcRecvTs: T, v1: 9, v2: null, v3: null },
        { deviceId: id, key: 'temperature', ts: T + 10, svcRecvTs: T + 15, v1: 1, v2: null, v3: null },
      ],
      status: [
        { deviceId: id, ts: T + 9 * 60_000, svcRecvTs: T, value: 9 },
        { deviceId: id, ts: T + 10, svcRecvTs: T + 15, value: 1 },
      ],
    });
    const [row] = rowsOf<{ v1: number; status_value: number }>(
      await server.ctx.db.execute(sql`select l.v1, d.status_value from telemetry_latest l join devices d on d.id = l.device_id
        where l.device_id = ${id} and l.key = 'temperature'`),
    );
    expect([row?.v1, Number(row?.status_value)]).toEqual([1, 1]);
  });

  it('leaves the status word alone when a word is resent with the same ts', async () => {
    const { id } = await newDevice();
    const T = Date.UTC(2026, 2, 1, 10);
    await writeIngestBatch(server.ctx.db, { ...empty, status: [{ deviceId: id, ts: T + 60_000, svcRecvTs: T, value: 5 }] });
    await writeIngestBatch(server.ctx.db, { ...empty, status: [{ deviceId: id, ts: T + 60_000, svcRecvTs: T + 30_000, value: 6 }] });
    const [row] = rowsOf<{ status_value: number }>(await server.ctx.db.execute(sql`select status_value from devices where id = ${id}`));
    expect(Number(row?.status_value)).toBe(5);
  });
});
