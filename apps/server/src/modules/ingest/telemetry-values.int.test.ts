/**
 * Telemetry of keys whose values are not numbers (docs/decisions/telemetry.md "Values that are not numbers"), end to
 * end with real clients: the native topic (MQTT.js), ThingsBoard's flat form (mosquitto_pub) and its HTTP API (fetch)
 * store strings, booleans and JSON beside numbers, answer them as the latest value and on the live channel, absorb a
 * resend, and refuse a value of the wrong type or over its bounds (counted, nothing stored); retention and clean-data
 * remove them.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import {
  DAY_MS,
  LORAWAN_SECRET_HEADER,
  paths,
  TELEMETRY_JSON_MAX_DEPTH,
  storagePaths,
  TELEMETRY_STRING_MAX_CHARS,
  topics,
  ZLiveMessage,
  type TDeviceCredentials,
  type TLatestValue,
  type TLiveMessage,
  type TProjectStorage,
  type TTelemetryRow,
} from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice, type TFactorySensor } from '../../../test/device-factory.js';
import { buildLorawanWebhook, buildVendor } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { parse } from 'csv-parse/sync';
import { rowsOf } from '../../db/client.js';
import { countExportRows, exportChunks } from '../downloads/export-rows.js';
import { projectRetention } from '../../db/schema.js';
import { deleteRawPoints } from '../telemetry-store/delete-points.js';
import { platformStorageUsage } from '../telemetry-store/sizes.js';
import { runTelemetryStorage } from '../telemetry-store/storage-job.js';
import { connectBrowser, connectMqtt, rejectedCount, telemetryCount, waitUntil } from './ingest-test-kit.js';

const run = promisify(execFile);

const SENSORS: readonly TFactorySensor[] = [
  { key: 'temperature' },
  { key: 'state', valueType: 'string' },
  { key: 'door', valueType: 'boolean' },
  { key: 'config', valueType: 'json' },
];

describe(`telemetry values that are not numbers (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendorToken = '';
  let vendorTenantId = 0;
  let dev: TBuiltDevice;
  let tb: TBuiltDevice;
  let token = '';
  const clients: MqttClient[] = [];

  const stored = async (deviceId: number, key: string) =>
    rowsOf<{ ts: string | number; value: unknown }>(
      await server.ctx.db.execute(sql`select ts, value from telemetry_values where device_id = ${deviceId} and key = ${key} order by ts`),
    ).map((r) => ({ ts: Number(r.ts), value: r.value }));
  const latest = async (tangramId: string) =>
    (await server.api<TLatestValue[]>('GET', `${paths.tsLatest}?tangramId=${tangramId}`, { token: vendorToken })).body;

  beforeAll(async () => {
    server = await startTestServer();
    const vendor = await buildVendor(server);
    vendorToken = vendor.token;
    vendorTenantId = vendor.tenantId;
    [dev, tb] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2, sensors: SENSORS })).devices;
    token = (await server.api<TDeviceCredentials>('POST', paths.deviceCredentials(tb.tangramId), { token: vendorToken })).body
      .access_token as string;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await server.stop();
  });

  it('native MQTT: strings, booleans and JSON beside numbers, stored by the PUBACK, latest and live; a resend is absorbed', async () => {
    const browser = await connectBrowser(server.wsUrl, vendorToken);
    clients.push(browser);
    const live: TLiveMessage[] = [];
    browser.on('message', (_t, payload) => live.push(ZLiveMessage.parse(JSON.parse(payload.toString()))));
    await browser.subscribeAsync(topics.live(dev.tangramId), { qos: 0 });
    const device = await connectMqtt(server.mqttUrl, dev.tangramId, dev.secret);
    clients.push(device);
    const ts = Date.now() - 1_000;
    const message = [
      { key: 'temperature', ts, vs: [21.5] },
      { key: 'state', ts, vs: ['running'] },
      { key: 'door', ts, vs: [true] },
      { key: 'config', ts, vs: [{ mode: 'eco', levels: [1, 2] }] },
    ];
    await device.publishAsync(topics.telemetry(dev.tangramId), JSON.stringify(message), { qos: 1 });
    // Acknowledged after the commit: every point is stored now.
    expect(await stored(dev.id, 'state')).toEqual([{ ts, value: 'running' }]);
    expect(await stored(dev.id, 'door')).toEqual([{ ts, value: true }]);
    expect(await stored(dev.id, 'config')).toEqual([{ ts, value: { mode: 'eco', levels: [1, 2] } }]);
    expect(await telemetryCount(server.ctx.db, dev.id, 'temperature')).toBe(1);
    expect(await latest(dev.tangramId)).toEqual([
      { key: 'config', ts, svc_recv_ts: expect.any(Number), vs: [], value: { mode: 'eco', levels: [1, 2] } },
      { key: 'door', ts, svc_recv_ts: expect.any(Number), vs: [], value: true },
      { key: 'state', ts, svc_recv_ts: expect.any(Number), vs: [], value: 'running' },
      { key: 'temperature', ts, svc_recv_ts: expect.any(Number), vs: [21.5] },
    ]);
    await waitUntil(() => live.length > 0);
    expect(live[0].list).toEqual([
      { key: 'temperature', ts, vs: [21.5] },
      { key: 'state', ts, vs: [], value: 'running' },
      { key: 'door', ts, vs: [], value: true },
      { key: 'config', ts, vs: [], value: { mode: 'eco', levels: [1, 2] } },
    ]);

    // A resend changes nothing; a newer point moves latest forward.
    await device.publishAsync(topics.telemetry(dev.tangramId), JSON.stringify(message), { qos: 1 });
    await device.publishAsync(topics.telemetry(dev.tangramId), JSON.stringify({ key: 'door', ts: ts + 1, vs: [false] }), { qos: 1 });
    expect(await stored(dev.id, 'state')).toHaveLength(1);
    expect(await stored(dev.id, 'door')).toEqual([
      { ts, value: true },
      { ts: ts + 1, value: false },
    ]);
    expect((await latest(dev.tangramId)).find((l) => l.key === 'door')).toMatchObject({ ts: ts + 1, value: false });
  });

  it('refuses a value of the wrong type, an oversized string and too deep JSON: counted, nothing stored', async () => {
    const device = await connectMqtt(server.mqttUrl, dev.tangramId, dev.secret);
    clients.push(device);
    const ts = Date.now();
    const publish = (m: unknown) => device.publishAsync(topics.telemetry(dev.tangramId), JSON.stringify(m), { qos: 1 });
    let deep: unknown = 1;
    for (let i = 0; i <= TELEMETRY_JSON_MAX_DEPTH; i += 1) deep = { d: deep };
    const before = await rejectedCount(server.ctx.db, dev.id, 'malformed');
    await publish({ key: 'state', ts, vs: [42] }); // a number for a string key (the numeric fast path reads it)
    await publish({ key: 'temperature', ts, vs: ['hot'] }); // a string for a numeric key
    await publish([
      { key: 'door', ts, vs: ['yes'] }, // a string for a boolean key, refusing the whole message
      { key: 'temperature', ts, vs: [20] },
    ]);
    await publish({ key: 'config', ts, vs: ['{"a":1}'] }); // JSON as a string is a string
    await publish({ key: 'state', ts, vs: ['a', 'b'] }); // one value only
    expect(await rejectedCount(server.ctx.db, dev.id, 'malformed')).toBe(before + 6);
    await publish({ key: 'state', ts, vs: ['x'.repeat(TELEMETRY_STRING_MAX_CHARS + 1)] });
    await publish({ key: 'config', ts, vs: [deep] });
    expect(await rejectedCount(server.ctx.db, dev.id, 'value_too_large')).toBe(2);
    expect((await stored(dev.id, 'state')).map((r) => r.ts)).not.toContain(ts);
    expect((await stored(dev.id, 'config')).map((r) => r.ts)).not.toContain(ts);
    expect(await telemetryCount(server.ctx.db, dev.id, 'temperature')).toBe(1);
    // At the bound itself a string is taken.
    await publish({ key: 'state', ts, vs: ['x'.repeat(TELEMETRY_STRING_MAX_CHARS)] });
    expect((await stored(dev.id, 'state')).map((r) => r.ts)).toContain(ts);
  });

  it('ThingsBoard flat form with mosquitto_pub, and its HTTP API with the refusal answered 400', async () => {
    const port = new URL(server.mqttUrl).port;
    const flat = JSON.stringify({ state: 'idle', door: false, temperature: 19, config: { a: [true] } });
    await run(
      '/usr/bin/mosquitto_pub',
      ['-h', '127.0.0.1', '-p', port, '-q', '1', '-t', 'v1/devices/me/telemetry', '-u', token, '-m', flat],
      {
        timeout: 10_000,
      },
    );
    const [idle] = await stored(tb.id, 'state');
    expect(idle?.value).toBe('idle');
    expect((await stored(tb.id, 'state')).map((r) => r.value)).toEqual(['idle']);
    expect((await stored(tb.id, 'door')).map((r) => r.value)).toEqual([false]);
    expect((await stored(tb.id, 'config')).map((r) => r.value)).toEqual([{ a: [true] }]);
    expect(await telemetryCount(server.ctx.db, tb.id, 'temperature')).toBe(1);

    const post = (body: unknown) =>
      fetch(`${server.httpUrl}/api/v1/${token}/telemetry`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    // The flat form took the receive time; a point a millisecond later comes after it whatever the machine's speed.
    const ok = await post({ ts: (idle?.ts ?? 0) + 1, values: { state: 'busy' } });
    expect(ok.status).toBe(200);
    expect((await stored(tb.id, 'state')).map((r) => r.value)).toEqual(['idle', 'busy']);
    const wrong = await post({ door: 'open' });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { message: string }).message).toContain('door: takes a boolean');
    const big = await post({ state: 'x'.repeat(TELEMETRY_STRING_MAX_CHARS + 1) });
    expect(big.status).toBe(400);
    expect(((await big.json()) as { message: string }).message).toContain('value_too_large');
    expect(await stored(tb.id, 'door')).toHaveLength(1);
  });

  it('LoRaWAN: a ChirpStack uplink stores a decoded string and boolean under keys declared so', async () => {
    const [project] = rowsOf<{ project_id: number }>(await server.ctx.db.execute(sql`select project_id from devices where id = ${tb.id}`));
    const created = await buildLorawanWebhook(server, vendorToken, {
      projectId: project.project_id,
      tangramId: tb.tangramId,
      devEui: '0202020202020202',
      integration: {
        mapping: [
          { path: 'status', key: 'state' },
          { path: 'open', key: 'door' },
        ],
      },
    });
    const body = JSON.parse(await readFile(new URL('../lorawan/fixtures/chirpstack-up.json', import.meta.url), 'utf8'));
    body.time = new Date().toISOString();
    body.deviceInfo.devEui = '0202020202020202';
    body.object = { ...body.object, open: true };
    const res = await fetch(`${server.httpUrl}${created.webhook_path}?event=up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [LORAWAN_SECRET_HEADER]: created.secret },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    expect((await stored(tb.id, 'state')).map((r) => r.value)).toContain('OK');
    expect((await stored(tb.id, 'door')).map((r) => r.value)).toEqual([false, true]);
  });

  it('raw history, the CSV download and the download centre carry the values; a bucketed query answers 400', async () => {
    const at = Date.now() - 5_000;
    const res = await fetch(`${server.httpUrl}/api/v1/${token}/telemetry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ts: at, values: { state: 'a, "b"', config: { k: [1] } } }),
    });
    expect(res.status).toBe(200);
    const range = `startTs=${at - 1}&endTs=${at + 1}`;
    const raw = await server.api<TTelemetryRow[]>('GET', `${paths.tsRawValues}?tangramId=${tb.tangramId}&key=state&${range}`, {
      token: vendorToken,
    });
    expect(raw.body).toEqual([{ ts: at, svc_recv_ts: expect.any(Number), key: 'state', v1: null, v2: null, v3: null, value: 'a, "b"' }]);
    const bucketed = await server.api<{ message: string }>('GET', `${paths.tsTimeseriesV2}?tangramId=${tb.tangramId}&key=state&${range}`, {
      token: vendorToken,
    });
    expect(bucketed.status).toBe(400);
    expect(bucketed.body.message).toContain('no rollups');

    const csv = await server.api<string>('GET', `${paths.tsDownload}?tangramId=${tb.tangramId}&keys=state,config&${range}`, {
      token: vendorToken,
    });
    expect(csv.status).toBe(200);
    expect(parse(csv.body, { columns: true })).toMatchObject([
      { key: 'state', v1: '', value: 'a, "b"' },
      { key: 'config', v1: '', value: '{"k":[1]}' },
    ]);

    const spec = { tangram_ids: [tb.tangramId], keys: ['state'], start_ts: at - 1, end_ts: at + 1, mode: 'raw' as const };
    const device = { id: tb.id, tangramId: tb.tangramId };
    const spec2 = { ...spec, fn: 'avg' as const, bucket_ms: 3_600_000, format: 'csv' as const };
    expect(await countExportRows(server.ctx.db, spec2, device, ['state', 'temperature'])).toBe(1);
    let text = '';
    for await (const chunk of exportChunks(server.ctx.db, spec2, device, ['temperature', 'state'], { pool: server.ctx.database.pool }))
      text += chunk.text.toString();
    expect(parse(text)).toEqual([
      [tb.tangramId, 'state', new Date(at).toISOString(), String(at), expect.any(String), '', '', '', 'a, "b"'],
    ]);
  });

  it('the mosquitto_pub example of docs/protocol.md "Values that are not numbers" works as documented', async () => {
    const doc = await readFile(new URL('../../../../../docs/protocol.md', import.meta.url), 'utf8');
    const line = doc.split('\n').find((l) => l.startsWith('mosquitto_pub ') && l.includes('"vs":["running"]'));
    expect(line).toBeDefined();
    const ts = String(Date.now() - 60_000);
    const args = [...(line as string).matchAll(/'([^']*)'|(\S+)/g)]
      .map((m) => m[1] ?? m[2])
      .slice(1)
      .map((w) =>
        w.replace('localhost', '127.0.0.1').replaceAll('<TangramID>', dev.tangramId).replace('<secret>', dev.secret).replaceAll('<ts>', ts),
      );
    args[args.indexOf('-p') + 1] = new URL(server.mqttUrl).port;
    await run('/usr/bin/mosquitto_pub', args, { timeout: 10_000 });
    // mosquitto_pub exits after its PUBACK, which comes after the commit.
    expect(await stored(dev.id, 'state')).toContainEqual({ ts: Number(ts), value: 'running' });
    expect(await stored(dev.id, 'door')).toContainEqual({ ts: Number(ts), value: true });
  });

  it('retention expires old points by their ts and clean-data deletes them', async () => {
    const [project] = rowsOf<{ project_id: number }>(await server.ctx.db.execute(sql`select project_id from devices where id = ${dev.id}`));
    const old = Date.now() - 10 * DAY_MS;
    await server.ctx.db.execute(
      sql`insert into telemetry_values (device_id, key, ts, svc_recv_ts, value) values (${dev.id}, 'state', ${old}, ${old}, '"old"'::jsonb)`,
    );
    await server.ctx.db
      .insert(projectRetention)
      .values({ projectId: project.project_id, rawDays: 7, rollup1mDays: null, rollup1hDays: null });
    const before = (await stored(dev.id, 'state')).length;
    const result = await runTelemetryStorage(server.database, { hotWindowMs: DAY_MS });
    expect(result).toMatchObject({ skipped: false, expired: { rawPoints: 1 } });
    expect((await stored(dev.id, 'state')).map((r) => r.value)).not.toContain('old');
    expect(await stored(dev.id, 'state')).toHaveLength(before - 1);

    // clean-data's delete of every raw point of the device takes these too (and counts them).
    const numeric = await telemetryCount(server.ctx.db, dev.id);
    const left = (await stored(dev.id, 'state')).length + (await stored(dev.id, 'door')).length + (await stored(dev.id, 'config')).length;
    const otherDevice = await stored(tb.id, 'door');
    const deleted = await server.ctx.db.transaction((tx) => deleteRawPoints(tx, dev.id));
    expect(deleted).toBe(left + numeric);
    expect(await stored(dev.id, 'door')).toEqual([]);
    expect(await stored(tb.id, 'door')).toEqual(otherDevice);
    expect(otherDevice.length).toBeGreaterThan(0);
  });

  it("the admin storage page's platform size counts them as hot raw points", async () => {
    const measured = async () => {
      await server.ctx.db.execute(sql`analyze telemetry_values`);
      return platformStorageUsage(server.ctx.db);
    };
    const before = await measured();
    const from = Date.now() - 3_600_000;
    await server.ctx.db.execute(sql`insert into telemetry_values (device_id, key, ts, svc_recv_ts, value)
      select ${tb.id}, 'config', ${from}::bigint + i, ${from}::bigint + i, jsonb_build_object('i', i) from generate_series(1, 2000) as i`);
    const after = await measured();
    expect(after.points - before.points).toBeGreaterThanOrEqual(1_900);
    expect(after.bytes.raw_hot).toBeGreaterThan(before.bytes.raw_hot);
  });

  it("the project's storage size on the system tab counts them too, and another project's does not", async () => {
    const [project] = rowsOf<{ project_id: number }>(await server.ctx.db.execute(sql`select project_id from devices where id = ${tb.id}`));
    const usage = async (projectId: number) =>
      (await server.api<TProjectStorage>('GET', storagePaths.projectStorage(projectId), { token: vendorToken })).body.usage;
    const other = await buildDeviceProject(server.ctx.db, { tenantId: vendorTenantId, sensors: SENSORS });
    const before = await usage(project.project_id);
    const from = Date.now() - 7_200_000;
    await server.ctx.db.execute(sql`insert into telemetry_values (device_id, key, ts, svc_recv_ts, value)
      select ${tb.id}, 'state', ${from}::bigint + i, ${from}::bigint + i, to_jsonb('s' || i) from generate_series(1, 500) as i`);
    const after = await usage(project.project_id);
    expect(after.points - before.points).toBe(500);
    expect(after.bytes.raw_hot).toBeGreaterThan(before.bytes.raw_hot);
    expect(after.bytes.total).toBeGreaterThan(before.bytes.total);
    expect((await usage(other.projectId)).points).toBe(0);
  });
});
