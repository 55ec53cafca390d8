import { topics } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { until } from '../../../test/until.js';
import { buildAccount } from '../../../test/factories.js';
import { connectBrowser, connectMqtt, subscribeGranted, telemetryCount } from './ingest-test-kit.js';
import { INGEST_QUEUED_BATCHES, INGEST_READ_BATCHES } from './pipeline.js';
import { READ_AHEAD_PACKETS } from './read-ahead.js';

const BATCH_MAX = 100;
const POINTS_PER_MESSAGE = 50;

/** The highest value `read` answers over half a second, sampled every 50 ms. */
async function peakOver(read: () => number): Promise<number> {
  let peak = 0;
  for (let i = 0; i < 10; i += 1) {
    peak = Math.max(peak, read());
    await new Promise((r) => setTimeout(r, 50));
  }
  return peak;
}

describe(`ingest back-pressure (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let devices: TBuiltDevice[];
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    server = await startTestServer({ ingestBatchMax: BATCH_MAX });
    devices = (await buildDeviceProject(server.ctx.db, { count: 5 })).devices;
    for (const d of devices) clients.push(await connectMqtt(server.mqttUrl, d.tangramId, d.secret));
  });
  afterAll(async () => {
    for (const c of clients) await c.endAsync(true).catch(() => undefined);
    await server.stop();
  });

  /**
   * Telemetry writes fail (SQLSTATE 53100, a failure retries outlive) until {@link restoreWrites}: the database "cannot
   * keep up". The trigger is installed once, while nothing is writing; after that only its function is replaced, which
   * takes no lock on the partitioned table (dropping the trigger under load deadlocks with the writers' partitions).
   */
  let triggerInstalled = false;
  async function failWrites(): Promise<void> {
    await server.ctx.db.execute(
      sql.raw(`create or replace function test_slow() returns trigger language plpgsql as $$
        begin raise exception 'no space left on device' using errcode = '53100'; end $$`),
    );
    if (!triggerInstalled) {
      await server.ctx.db.execute(sql.raw('create trigger test_slow before insert on telemetry for each row execute function test_slow()'));
      triggerInstalled = true;
    }
  }
  async function restoreWrites(): Promise<void> {
    await server.ctx.db.execute(
      sql.raw(`create or replace function test_slow() returns trigger language plpgsql as $$ begin return new; end $$`),
    );
  }

  it('holds no more than its bound while the database cannot keep up, leaving the rest unread, and loses nothing', async () => {
    await failWrites();
    const base = Date.now() - 3_600_000;
    const sends = devices.flatMap((d, di) =>
      Array.from({ length: 40 }, (_, m) =>
        clients[di].publishAsync(
          topics.telemetry(d.tangramId),
          JSON.stringify(
            Array.from({ length: POINTS_PER_MESSAGE }, (_, i) => ({ key: 'current', ts: base + m * POINTS_PER_MESSAGE + i, vs: [i] })),
          ),
          { qos: 1 },
        ),
      ),
    );
    const bound = BATCH_MAX * INGEST_QUEUED_BATCHES;
    await until(async () => (server.ctx.bus.ingestBacklog().waitingPublishes > 0 ? true : undefined));
    const peak = await peakOver(() => server.ctx.bus.ingestBacklog().queuedPoints);
    // At most one message past the bound; 10,000 points were offered.
    expect(peak).toBeGreaterThanOrEqual(bound);
    expect(peak).toBeLessThanOrEqual(bound + POINTS_PER_MESSAGE);
    // The broker stopped reading those connections: part of what was sent has not even reached ingest.
    expect(server.ctx.bus.ingestBacklog().openPublishes).toBeLessThan(sends.length);

    await restoreWrites();
    await Promise.all(sends);
    for (const d of devices) expect(await telemetryCount(server.ctx.db, d.id)).toBe(40 * POINTS_PER_MESSAGE);
    expect(server.ctx.bus.ingestBacklog()).toMatchObject({ queuedPoints: 0, waitingPublishes: 0, openPublishes: 0, stalled: false });
  });

  it('reads a device connection no further ahead than READ_AHEAD_PACKETS and one socket chunk while its publishes wait, however many it sends', async () => {
    const [d] = devices;
    // after the first test's points: the device's clock moves forward, as a device's does
    const base = Date.now() - 1_800_000;
    const messages = 300;
    // Writes wait (they fail and are retried) while the device sends: its publishes stay open, so what the broker has
    // read of its connection shows — sampled over half a second, not raced against commits that can finish within
    // one event-loop turn on PGlite.
    await failWrites();
    // 300 messages in flight at once (750 KB).
    const sends = Array.from({ length: messages }, (_, m) =>
      clients[0].publishAsync(
        topics.telemetry(d.tangramId),
        JSON.stringify(
          Array.from({ length: POINTS_PER_MESSAGE }, (_, i) => ({ key: 'humidity', ts: base + m * POINTS_PER_MESSAGE + i, vs: [i] })),
        ),
        { qos: 1 },
      ),
    );
    await until(async () => (server.ctx.bus.ingestBacklog().openPublishes > 0 ? true : undefined));
    const peakOpen = await peakOver(() => server.ctx.bus.ingestBacklog().openPublishes);
    await restoreWrites();
    await Promise.all(sends);
    expect(await telemetryCount(server.ctx.db, d.id, 'humidity')).toBe(messages * POINTS_PER_MESSAGE);
    // READ_AHEAD_PACKETS pending plus the socket chunk read then (≤ ~80 KB, ~32 of these messages); never the window.
    expect(peakOpen).toBeGreaterThan(0);
    expect(peakOpen).toBeLessThanOrEqual(READ_AHEAD_PACKETS + 40);
  });

  it('stops reading every device connection once the open publishes of all of them reach the read bound; logins and browsers go on', async () => {
    const project = await buildDeviceProject(server.ctx.db, { count: 21 });
    const [late, ...many] = project.devices;
    const manyClients = await Promise.all(many.map((d) => connectMqtt(server.mqttUrl, d.tangramId, d.secret)));
    clients.push(...manyClients);
    const perDevice = 40;
    const base = Date.now() - 1_200_000;
    await failWrites();
    // 800 one-point messages from 20 connections, each connection's in one socket chunk.
    const sends = many.flatMap((d, di) =>
      Array.from({ length: perDevice }, (_, m) =>
        manyClients[di].publishAsync(topics.telemetry(d.tangramId), JSON.stringify({ key: 'current', ts: base + m, vs: [m] }), { qos: 1 }),
      ),
    );
    const bound = BATCH_MAX * INGEST_READ_BATCHES;
    await until(async () => (server.ctx.bus.ingestBacklog().openPublishes >= bound ? true : undefined));
    const peakOpen = await peakOver(() => server.ctx.bus.ingestBacklog().openPublishes);
    // While devices wait at the gate, a new device still logs in, and a browser logs in and subscribes (SUBACK).
    const lateClient = await connectMqtt(server.mqttUrl, late.tangramId, late.secret);
    clients.push(lateClient);
    const vendor = await buildAccount(server, { level: 'vendor', tenantId: project.tenantId });
    const browser = await connectBrowser(server.wsUrl, vendor.token);
    clients.push(browser);
    expect(await subscribeGranted(browser, [topics.live(late.tangramId)])).toEqual([1]);
    expect(server.ctx.bus.ingestBacklog().openPublishes).toBeGreaterThanOrEqual(bound);
    await restoreWrites();
    await Promise.all(sends);
    for (const d of many) expect(await telemetryCount(server.ctx.db, d.id, 'current')).toBe(perDevice);
    // The bound, plus at most the one chunk whose parsing crossed it; never all 800.
    expect(peakOpen).toBeGreaterThanOrEqual(bound);
    expect(peakOpen).toBeLessThanOrEqual(bound + perDevice);
  });
});
