import { topics } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import type { MqttClient, Packet } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { connectMqtt, telemetryCount, waitUntil } from './ingest-test-kit.js';

/** Two points per batch, so eight 1-point publishes span four batches. */
const BATCH_MAX = 2;
/** The value that makes the database refuse a row (transiently) while the trigger below exists. */
const HELD_VALUE = -1;

describe(`PUBACK order across batches (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let device: TBuiltDevice;
  let client: MqttClient;

  beforeAll(async () => {
    server = await startTestServer({ ingestBatchMax: BATCH_MAX });
    [device] = (await buildDeviceProject(server.ctx.db, { count: 1 })).devices;
    client = await connectMqtt(server.mqttUrl, device.tangramId, device.secret);
  });
  afterAll(async () => {
    await client.endAsync(true).catch(() => undefined);
    await server.stop();
  });

  /**
   * Until {@link commitHeldRow}, the database refuses a row whose v1 is HELD_VALUE with SQLSTATE 53100 (out of
   * resources, a transient failure): its batch is retried with backoff, nothing acknowledged, while later batches
   * take the other writers and commit before it.
   */
  async function holdRowsOfHeldValue(): Promise<void> {
    await server.ctx.db.execute(
      sql.raw(`create function test_hold() returns trigger language plpgsql as $$
        begin
          if new.v1 = ${HELD_VALUE} then raise exception 'could not extend file' using errcode = '53100'; end if;
          return new;
        end $$`),
    );
    await server.ctx.db.execute(sql.raw('create trigger test_hold before insert on telemetry for each row execute function test_hold()'));
  }
  async function commitHeldRow(): Promise<void> {
    await server.ctx.db.execute(sql.raw('drop trigger test_hold on telemetry'));
    await server.ctx.db.execute(sql.raw('drop function test_hold()'));
  }

  it("acknowledges a device's publishes in PUBLISH order when a later batch of them commits before an earlier one", async () => {
    const sentIds: number[] = [];
    const ackedIds: number[] = [];
    client.on('packetsend', (p: Packet) => {
      if (p.cmd === 'publish' && p.messageId !== undefined) sentIds.push(p.messageId);
    });
    client.on('packetreceive', (p: Packet) => {
      if (p.cmd === 'puback' && p.messageId !== undefined) ackedIds.push(p.messageId);
    });
    const topic = topics.telemetry(device.tangramId);
    const base = Date.now() - 60_000;
    const publish = (i: number, v: number) =>
      client.publishAsync(topic, JSON.stringify({ key: 'temperature', ts: base + i, vs: [v] }), { qos: 1 });

    await holdRowsOfHeldValue();
    const first = publish(0, HELD_VALUE);
    await waitUntil(() => server.messaging.ingestCounters().writeFailures > 0);
    const batchesBefore = server.messaging.ingestCounters().batches;
    const later = Array.from({ length: 8 }, (_, i) => publish(i + 1, i));

    // The later publishes are stored, in several batches, while the first one is not: they committed out of order,
    // and none of them was acknowledged ahead of it.
    await waitUntil(async () => (await telemetryCount(server.ctx.db, device.id)) === 8);
    expect(server.messaging.ingestCounters().batches - batchesBefore).toBeGreaterThanOrEqual(2);
    expect(sentIds).toHaveLength(9);
    expect(ackedIds).toEqual([]);

    await commitHeldRow();
    await Promise.all([first, ...later]);
    expect(await telemetryCount(server.ctx.db, device.id)).toBe(9);
    expect(ackedIds).toEqual(sentIds);
  });
});
