/**
 * External-broker mode (MQTT_URL) on a broker of its own: many QoS 1 messages in flight on the ingest connections are
 * all stored, and a message taken while the database refuses its batch is not acknowledged — the server stops with it
 * unstored, and the same replica (same client id) receives it again from its kept session and stores it once
 * (acking-consumer.ts: PUBACK only after the commit).
 */
import { topics } from '@tessera/contracts';
import { and, eq, sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { telemetry } from '../../db/schema.js';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildVendor } from '../../../test/factories.js';
import { openTestDatabase, startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { startMosquitto, type TMosquitto } from '../../../test/mosquitto.js';
import { until } from '../../../test/until.js';

describe(`external broker mode: acknowledged after the commit (${TEST_DB_KIND})`, () => {
  let broker: TMosquitto;
  let database: Database;
  let server: TTestServer;
  let dev: TBuiltDevice;
  let device: MqttClient;
  const shareGroup = 'tessera-redelivery';
  const start = (port?: number) =>
    startTestServer({ mqttUrl: broker.url, mqttShareGroup: shareGroup, shutdownTimeoutMs: 4000, ...(port ? { port } : {}) }, database);
  const pointsAt = async (ts: number) =>
    (
      await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(telemetry)
        .where(and(eq(telemetry.deviceId, dev.id), eq(telemetry.ts, ts)))
    )[0]?.n ?? 0;
  const pointsOf = async () =>
    (await database.db.select({ n: sql<number>`count(*)::int` }).from(telemetry).where(eq(telemetry.deviceId, dev.id)))[0]?.n ?? 0;

  beforeAll(async () => {
    broker = await startMosquitto();
    database = await openTestDatabase();
    server = await start();
    const vendor = await buildVendor(server);
    [dev] = (await buildDeviceProject(database.db, { tenantId: vendor.tenantId })).devices;
    device = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0 });
  });
  afterAll(async () => {
    await device?.endAsync();
    await server?.stop();
    await database?.close();
    await broker?.stop();
  });

  it('stores every one of 300 QoS 1 messages published at once', async () => {
    const t0 = Date.now() - 60_000;
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        device.publishAsync(topics.telemetry(dev.tangramId), JSON.stringify([{ key: 'temperature', ts: t0 + i, vs: [i] }]), { qos: 1 }),
      ),
    );
    await until(async () => ((await pointsOf()) === 300 ? true : undefined));
  });

  it('a message whose batch the database refuses is not acknowledged: the restarted replica receives it and stores it once', async () => {
    await database.db.execute(
      sql.raw(`create function test_refuse() returns trigger language plpgsql as $$
        begin
          if new.device_id = ${dev.id} then raise exception 'could not extend file' using errcode = '53100'; end if;
          return new;
        end $$`),
    );
    await database.db.execute(sql.raw('create trigger test_refuse before insert on telemetry for each row execute function test_refuse()'));
    const ts = Date.now() - 200;
    await device.publishAsync(topics.telemetry(dev.tangramId), JSON.stringify([{ key: 'temperature', ts, vs: [24.5] }]), { qos: 1 });
    // Taken by ingest, retried, not committed: no PUBACK.
    await until(async () => (server.ctx.bus.ingestBacklog().queuedPoints > 0 ? true : undefined));
    const port = server.httpPort;
    await server.stop();
    expect(await pointsAt(ts)).toBe(0);

    await database.db.execute(sql.raw('drop trigger test_refuse on telemetry'));
    await database.db.execute(sql.raw('drop function test_refuse()'));
    // The same replica (host and port: the same client ids) resumes its sessions and the broker sends it again.
    server = await start(port);
    await until(async () => ((await pointsAt(ts)) === 1 ? true : undefined));
    await new Promise((r) => setTimeout(r, 500));
    expect(await pointsAt(ts)).toBe(1);
  });
});
