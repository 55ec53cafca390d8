/**
 * LoRaWAN integrations over ChirpStack's MQTT integration (docs/decisions/lorawan.md "ChirpStack's MQTT
 * integration"): a Mosquitto of the test's own plays ChirpStack's broker (password authentication), a real MQTT.js
 * publisher sends ChirpStack v4 `up` events (fixtures/chirpstack-up.json) where ChirpStack publishes them. The points
 * are stored through the same mapping and DevEUI look-up as the webhook; refusals are recorded and counted; an uplink
 * taken while the database refuses is not acknowledged, comes again to the restarted server and is stored once; the
 * broker password is never answered; the console routes keep their 401/403/404.
 */
import { readFile } from 'node:fs/promises';
import {
  lorawanPaths,
  paths,
  type TLatestValue,
  type TLorawanIntegration,
  type TLorawanIntegrationInput,
  type TLorawanIntegrationList,
  type TLorawanIntegrationWithSecret,
  type TLorawanUplinkLog,
  LORAWAN_SECRET_HEADER,
} from '@tessera/contracts';
import { and, eq, sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { lorawanIntegrations, telemetry } from '../../db/schema.js';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { openTestDatabase, startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { startMosquitto, type TMosquitto } from '../../../test/mosquitto.js';
import { until } from '../../../test/until.js';

const APP_ID = '17c82e96-be03-4f38-aef3-f83d48582d97';
const BROKER_USER = 'tessera';
const BROKER_PASSWORD = 'broker-pass-9f3K';
const EUI = '0101010101010101';
const FOREIGN_EUI = 'A8404187D187106E';

/** ChirpStack's uplink event (the documented fixture) for DevEUI `devEui`, received at `ts`, decoding `temperature`. */
async function upEvent(devEui: string, ts: number, temperature: number): Promise<string> {
  const body = JSON.parse(await readFile(new URL('./fixtures/chirpstack-up.json', import.meta.url), 'utf8')) as Record<string, unknown>;
  body.time = new Date(ts).toISOString();
  (body.deviceInfo as Record<string, unknown>).devEui = devEui.toLowerCase();
  body.object = { temperature };
  return JSON.stringify(body);
}

describe(`LoRaWAN over ChirpStack's MQTT integration (${TEST_DB_KIND})`, () => {
  let broker: TMosquitto;
  let database: Database;
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let project: TBuiltProject;
  let publisher: MqttClient;
  let integration: TLorawanIntegration;
  const topicOf = (devEui: string) => `application/${APP_ID}/device/${devEui.toLowerCase()}/event/up`;
  const input = (over: Partial<TLorawanIntegrationInput> = {}): TLorawanIntegrationInput => ({
    name: 'ChirpStack MQTT',
    network_server: 'chirpstack',
    mapping: [{ path: 'temperature', key: 'temperature' }],
    transport: 'mqtt',
    mqtt: { url: broker.url, username: BROKER_USER, password: BROKER_PASSWORD, application_id: APP_ID },
    ...over,
  });
  const list = async () =>
    (await server.api<TLorawanIntegrationList>('GET', lorawanPaths.list(project.projectId), { token: vendor.token })).body.data;
  const current = async (id: number) => (await list()).find((i) => i.id === id) as TLorawanIntegration;
  const uplinks = async (id: number) =>
    (await server.api<TLorawanUplinkLog>('GET', lorawanPaths.uplinks(project.projectId, id), { token: vendor.token })).body.data;
  const pointsAt = async (ts: number) =>
    (
      await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(telemetry)
        .where(and(eq(telemetry.deviceId, project.devices[0].id), eq(telemetry.ts, ts)))
    )[0]?.n ?? 0;

  beforeAll(async () => {
    broker = await startMosquitto({ users: { [BROKER_USER]: BROKER_PASSWORD, chirpstack: 'chirpstack-pass' } });
    database = await openTestDatabase();
    server = await startTestServer({ shutdownTimeoutMs: 4000 }, database);
    vendor = await buildVendor(server);
    project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 });
    const stranger = await buildVendor(server);
    const foreign = await buildDeviceProject(server.ctx.db, { tenantId: stranger.tenantId });
    const setEui = async (token: string, tangramId: string, devEui: string) =>
      expect((await server.api('PUT', lorawanPaths.device(tangramId), { token, body: { dev_eui: devEui } })).status).toBe(200);
    await setEui(vendor.token, project.devices[0].tangramId, EUI);
    await setEui(stranger.token, foreign.devices[0].tangramId, FOREIGN_EUI);
    publisher = await mqtt.connectAsync(broker.url, { username: 'chirpstack', password: 'chirpstack-pass', reconnectPeriod: 0 });
  });
  afterAll(async () => {
    await publisher?.endAsync();
    await server?.stop();
    await database?.close();
    await broker?.stop();
  });

  it('keeps the broker password sealed: answered masked, stored encrypted, refused without a token or to a user', async () => {
    const created = await server.api<TLorawanIntegrationWithSecret>('POST', lorawanPaths.list(project.projectId), {
      token: vendor.token,
      body: input(),
    });
    expect(created.status).toBe(201);
    integration = created.body;
    expect(integration.transport).toBe('mqtt');
    expect(integration.mqtt).toMatchObject({
      url: broker.url,
      username: BROKER_USER,
      password_masked: `••••${BROKER_PASSWORD.slice(-4)}`,
      application_id: APP_ID,
      topic: `application/${APP_ID}/device/+/event/up`,
    });
    expect(JSON.stringify(created.body)).not.toContain(BROKER_PASSWORD);
    expect(JSON.stringify(await list())).not.toContain(BROKER_PASSWORD);
    const [row] = await database.db.select().from(lorawanIntegrations).where(eq(lorawanIntegrations.id, integration.id));
    expect(row?.mqttPasswordSealed).toMatch(/^v1\./);
    expect(row?.mqttPasswordSealed).not.toContain(BROKER_PASSWORD);

    const user = await buildUser(server, vendor.tenantId);
    const stranger = await buildVendor(server);
    const url = lorawanPaths.one(project.projectId, integration.id);
    expect((await server.api('PUT', url, { body: input() })).status).toBe(401);
    expect((await server.api('PUT', url, { token: user.token, body: input() })).status).toBe(403);
    expect((await server.api('PUT', url, { token: stranger.token, body: input() })).status).toBe(404);
    // MQTT is ChirpStack's integration, needs a broker, and an mqtt(s) URL.
    const bad = [input({ network_server: 'tts' }), input({ mqtt: null }), input({ mqtt: { url: 'http://x', application_id: APP_ID } })];
    for (const body of bad)
      expect((await server.api('POST', lorawanPaths.list(project.projectId), { token: vendor.token, body })).status).toBe(400);
    // The webhook of an MQTT integration takes nothing, even with its secret.
    const hook = await fetch(`${server.httpUrl}${integration.webhook_path}?event=up`, {
      method: 'POST',
      headers: { [LORAWAN_SECRET_HEADER]: created.body.secret },
      body: await upEvent(EUI, Date.now(), 1),
    });
    expect(hook.status).toBe(404);
  });

  it('connects, subscribes, and stores a ChirpStack uplink through the mapping and the DevEUI', async () => {
    await until(async () => ((await current(integration.id)).mqtt?.state === 'connected' ? true : undefined));
    const ts = Date.now() - 1000;
    await publisher.publishAsync(topicOf(EUI), await upEvent(EUI, ts, 21.5), { qos: 1 });
    await until(async () => ((await pointsAt(ts)) === 1 ? true : undefined));
    const latest = (
      await server.api<TLatestValue[]>('GET', `${paths.tsLatest}?tangramId=${project.devices[0].tangramId}`, { token: vendor.token })
    ).body;
    expect(latest).toContainEqual(expect.objectContaining({ key: 'temperature', ts, vs: [21.5] }));
    await until(async () => ((await uplinks(integration.id))[0]?.outcome === 'stored' ? true : undefined));
    expect((await uplinks(integration.id))[0]).toMatchObject({
      event: 'up',
      dev_eui: EUI,
      tangram_id: project.devices[0].tangramId,
      points: 1,
    });
    expect((await current(integration.id)).uplinks_stored).toBe(1);
  });

  it('records and counts an unknown DevEUI, another tenant’s DevEUI and an unreadable body, and goes on storing', async () => {
    const ts = Date.now() - 500;
    await publisher.publishAsync(topicOf('00000000000000AA'), await upEvent('00000000000000AA', ts, 1), { qos: 1 });
    await publisher.publishAsync(topicOf(FOREIGN_EUI), await upEvent(FOREIGN_EUI, ts, 2), { qos: 1 });
    await publisher.publishAsync(topicOf(EUI), 'not json {', { qos: 1 });
    await publisher.publishAsync(topicOf(EUI), await upEvent(EUI, ts, 23), { qos: 1 });
    await until(async () => ((await pointsAt(ts)) === 1 ? true : undefined));
    await until(async () => ((await current(integration.id)).uplinks_refused === 3 ? true : undefined));
    const log = await uplinks(integration.id);
    const refused = log.filter((e) => e.outcome === 'refused');
    expect(refused.map((e) => [e.dev_eui, e.reason])).toEqual(
      expect.arrayContaining([
        ['00000000000000AA', 'unknown_device'],
        [FOREIGN_EUI, 'unknown_device'],
        [null, 'malformed'],
      ]),
    );
    // Another tenant's device is never matched: nothing was stored for it.
    expect(refused.find((e) => e.dev_eui === FOREIGN_EUI)?.tangram_id).toBeNull();
  });

  it('shows a refused login as disconnected with its reason', async () => {
    const wrong = await server.api<TLorawanIntegration>('POST', lorawanPaths.list(project.projectId), {
      token: vendor.token,
      body: input({ name: 'wrong password', mqtt: { url: broker.url, username: BROKER_USER, password: 'nope', application_id: 'other' } }),
    });
    expect(wrong.status).toBe(201);
    await until(async () => ((await current(wrong.body.id)).mqtt?.state === 'disconnected' ? true : undefined));
    expect((await current(wrong.body.id)).mqtt?.last_error).toMatch(/not authorized|bad user name or password/i);
    expect((await server.api('DELETE', lorawanPaths.one(project.projectId, wrong.body.id), { token: vendor.token })).status).toBe(204);
  });

  it('acknowledges only after the commit: an uplink taken while the database refuses comes again after a restart and is stored once', async () => {
    const deviceId = project.devices[0].id;
    await database.db.execute(
      sql.raw(`create function test_refuse() returns trigger language plpgsql as $$
        begin
          if new.device_id = ${deviceId} then raise exception 'could not extend file' using errcode = '53100'; end if;
          return new;
        end $$`),
    );
    await database.db.execute(sql.raw('create trigger test_refuse before insert on telemetry for each row execute function test_refuse()'));
    const ts = Date.now() - 200;
    await publisher.publishAsync(topicOf(EUI), await upEvent(EUI, ts, 24.5), { qos: 1 });
    // Taken by ingest, retried, not committed: no PUBACK.
    await until(async () => (server.ctx.bus.ingestBacklog().queuedPoints > 0 ? true : undefined));
    const port = server.httpPort;
    await server.stop();
    expect(await pointsAt(ts)).toBe(0);

    await database.db.execute(sql.raw('drop trigger test_refuse on telemetry'));
    await database.db.execute(sql.raw('drop function test_refuse()'));
    // The same replica (host and port: the same client id) resumes its session and the broker sends the uplink again.
    server = await startTestServer({ port, shutdownTimeoutMs: 4000 }, database);
    await until(async () => ((await pointsAt(ts)) === 1 ? true : undefined));
    await new Promise((r) => setTimeout(r, 500));
    expect(await pointsAt(ts)).toBe(1);
  });
});
