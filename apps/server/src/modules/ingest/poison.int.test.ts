import { paths, topics, type THealth, type TTimeseriesResponse } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildVendor } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { until } from '../../../test/until.js';
import { connectMqtt, rejectedCount, telemetryCount } from './ingest-test-kit.js';

/** Fails with `what` when `promise` has not settled within `ms` (a stuck ingest never acknowledges). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not acknowledged within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A trigger that fails every telemetry insert with SQLSTATE 53100 (disk full): a failure a retry can outlive. */
const FAIL_WRITES = [
  `create function test_fail_writes() returns trigger language plpgsql as $$
     begin raise exception 'could not extend file: No space left on device' using errcode = '53100'; end $$`,
  'create trigger test_fail_writes before insert on telemetry for each row execute function test_fail_writes()',
];
const HEAL_WRITES = ['drop trigger test_fail_writes on telemetry', 'drop function test_fail_writes()'];

describe(`ingest with data the database refuses, and a database that fails (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let devices: TBuiltDevice[];
  let vendorToken: string;
  const clients = new Map<number, MqttClient>();
  const exec = async (statements: string[]) => {
    for (const s of statements) await server.ctx.db.execute(sql.raw(s));
  };
  const client = async (d: TBuiltDevice) => {
    let c = clients.get(d.id);
    if (!c) {
      c = await connectMqtt(server.mqttUrl, d.tangramId, d.secret);
      clients.set(d.id, c);
    }
    return c;
  };
  const publish = async (d: TBuiltDevice, points: { key: string; ts: number; vs: number[] }[]) =>
    (await client(d)).publishAsync(topics.telemetry(d.tangramId), JSON.stringify(points), { qos: 1 });
  const health = () => server.api<THealth>('GET', '/healthz');
  /** Innocent traffic: `n` messages of 20 points from each device, interleaved with whatever else is published. */
  const innocent = (base: number, n: number) =>
    devices.flatMap((d) =>
      Array.from({ length: n }, (_, m) =>
        publish(
          d,
          Array.from({ length: 20 }, (_, i) => ({ key: 'temperature', ts: base + m * 20 + i, vs: [20 + i] })),
        ),
      ),
    );

  beforeAll(async () => {
    server = await startTestServer({ ingestStallMs: 1_000, ingestFlushMs: 50 });
    const vendor = await buildVendor(server);
    vendorToken = vendor.token;
    devices = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 4 })).devices;
  });
  afterAll(async () => {
    for (const c of clients.values()) await c.endAsync(true).catch(() => undefined);
    await server.stop();
  });

  it('stores pairs of 1.7e308 of one key among innocent points from several devices, acknowledging every publish', async () => {
    const base = Date.now() - 3_600_000;
    const [a, b] = devices;
    const poison = [a, b].flatMap((d) => [0, 1].map((k) => publish(d, [{ key: 'current', ts: base + 100_000 + k, vs: [1.7e308] }])));
    await within(Promise.all([...innocent(base, 5), ...poison]), 15_000, 'a batch holding two points of 1.7e308');
    for (const d of devices) expect(await telemetryCount(server.ctx.db, d.id, 'temperature')).toBe(100);
    expect(await telemetryCount(server.ctx.db, a.id, 'current')).toBe(2);
    const sum = await server.api<TTimeseriesResponse>(
      'GET',
      `${paths.tsTimeseriesV2}?tangramId=${a.tangramId}&key=current&startTs=${base}&endTs=${base + 3_600_000}&width=10&fn=avg`,
      { token: vendorToken },
    );
    expect([sum.status, sum.body.points?.map((p) => p.vs[0])]).toEqual([200, [1.7e308]]);
  });

  it('isolates the messages the database refuses: the innocent commit, the refused are acknowledged and counted', async () => {
    await exec(['alter table telemetry add constraint test_poison check (v1 <> 666)']);
    try {
      const base = Date.now() - 2 * 3_600_000;
      const [a, , c] = devices;
      const poisonA = publish(a, [{ key: 'current', ts: base, vs: [666] }]);
      const poisonC = publish(c, [
        { key: 'current', ts: base + 1, vs: [1] },
        { key: 'current', ts: base + 2, vs: [666] },
      ]);
      await within(Promise.all([...innocent(base, 10), poisonA, poisonC]), 15_000, 'a batch holding refused data');
      for (const d of devices) expect(await telemetryCount(server.ctx.db, d.id, 'temperature')).toBe(300);
      expect([await rejectedCount(server.ctx.db, a.id, 'unstorable'), await rejectedCount(server.ctx.db, c.id, 'unstorable')]).toEqual([
        1, 2,
      ]);
      expect(await rejectedCount(server.ctx.db, devices[1].id, 'unstorable')).toBe(0);
      // A message is refused whole: the good point beside the refused one is not stored either.
      expect(await telemetryCount(server.ctx.db, c.id, 'current')).toBe(0);
      await within(publish(devices[3], [{ key: 'humidity', ts: base, vs: [40] }]), 5_000, 'the next publish');
      expect((await health()).body.ingest).toBe('ok');
    } finally {
      await exec(['alter table telemetry drop constraint test_poison']);
    }
  });

  it('reports a stalled ingest on /healthz while every write fails, refuses nothing, and stores it all once writes succeed', async () => {
    const d = devices[1];
    const base = Date.now() - 3 * 3_600_000;
    await exec(FAIL_WRITES);
    let acked = false;
    const sent = publish(d, [{ key: 'humidity', ts: base, vs: [41] }]).then(() => {
      acked = true;
    });
    try {
      const stalled = await until(async () => {
        const res = await health();
        return res.body.ingest === 'stalled' ? res : undefined;
      });
      expect([stalled.status, stalled.body.status, stalled.body.db]).toEqual([503, 'degraded', 'ok']);
      expect(acked).toBe(false);
    } finally {
      await exec(HEAL_WRITES);
    }
    await within(sent, 10_000, 'a publish held through failing writes');
    expect(await telemetryCount(server.ctx.db, d.id, 'humidity')).toBe(1);
    expect(await rejectedCount(server.ctx.db, d.id, 'unstorable')).toBe(0);
    expect(await until(async () => ((await health()).status === 200 ? true : undefined))).toBe(true);
  });
});
