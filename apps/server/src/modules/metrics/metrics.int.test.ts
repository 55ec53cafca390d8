import { readFileSync } from 'node:fs';
import { topics } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { openTestDatabase, startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import type { Database } from '../../db/client.js';
import { connectMqtt, waitUntil } from '../ingest/ingest-test-kit.js';
import { exposedNames, prometheusTools, promtoolCheckMetrics, sampleValue, scrape } from './metrics-test-kit.js';

const TOKEN = 'metrics-test-token-0123456789';
const tools = prometheusTools();

describe(`GET /metrics (${TEST_DB_KIND})`, () => {
  let database: Database;
  let server: TTestServer;
  let bare: TTestServer;
  beforeAll(async () => {
    database = await openTestDatabase();
    server = await startTestServer({ metricsToken: TOKEN, deviceHttpPort: 0 }, database);
    bare = await startTestServer({}, database);
  });
  afterAll(async () => {
    await bare?.stop();
    await server?.stop();
    await database?.close();
  });

  it('answers 401 without the token, with a wrong one, and to everyone when no token is configured', async () => {
    const url = `${server.httpUrl}/metrics`;
    for (const token of [undefined, 'wrong-token-0123456789', `${TOKEN}x`, TOKEN.slice(0, -1)]) {
      const res = await scrape(url, token);
      expect(res.status).toBe(401);
      expect(JSON.parse(res.text)).toMatchObject({ code: 'AUTH_REQUIRED' });
    }
    expect((await scrape(`${bare.httpUrl}/metrics`, TOKEN)).status).toBe(401);
    const ok = await scrape(url, TOKEN);
    expect(ok.status).toBe(200);
    expect(ok.type).toContain('text/plain');
    expect(ok.text).toContain('process_resident_memory_bytes');
    expect(ok.text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('counts what a device publishes over MQTT, by way in, with its batch and connection', async () => {
    const [dev] = (await buildDeviceProject(server.ctx.db)).devices;
    const before = (await scrape(`${server.httpUrl}/metrics`, TOKEN)).text;
    const device = await connectMqtt(server.mqttUrl, dev.tangramId, dev.secret);
    try {
      const now = Date.now();
      const points = Array.from({ length: 5 }, (_, i) => ({ key: 'temperature', ts: now - i, vs: [i] }));
      await device.publishAsync(topics.telemetry(dev.tangramId), JSON.stringify(points), { qos: 1 });
      await device.publishAsync(topics.telemetry(dev.tangramId), 'not json', { qos: 1 });
      const after = (await scrape(`${server.httpUrl}/metrics`, TOKEN)).text;
      const delta = (name: string, labels: Record<string, string> = {}) =>
        (sampleValue(after, name, labels) ?? 0) - (sampleValue(before, name, labels) ?? 0);
      expect(delta('tessera_ingest_messages_total', { way: 'mqtt' })).toBe(2);
      expect(delta('tessera_ingest_points_total', { way: 'mqtt' })).toBe(5);
      expect(delta('tessera_ingest_points_stored_total')).toBe(5);
      expect(delta('tessera_ingest_points_rejected_total', { reason: 'malformed' })).toBe(1);
      expect(delta('tessera_ingest_batch_points_count')).toBeGreaterThanOrEqual(1);
      expect(delta('tessera_ingest_commit_seconds_count')).toBeGreaterThanOrEqual(1);
      expect(sampleValue(after, 'tessera_mqtt_connected_clients', { kind: 'device' })).toBe(1);
    } finally {
      await device.endAsync(true);
    }
    await waitUntil(
      async () =>
        sampleValue((await scrape(`${server.httpUrl}/metrics`, TOKEN)).text, 'tessera_mqtt_connected_clients', { kind: 'device' }) === 0,
    );
  });

  it('labels HTTP latency with route templates, never raw URLs', async () => {
    await server.api('GET', '/frontstage/v1/devices/NOSUCHDEVICE0000000000000000000');
    await server.api('GET', '/no/such/route/12345');
    const { text } = await scrape(`${server.httpUrl}/metrics`, TOKEN);
    const routes = new Set([...text.matchAll(/^tessera_http_request_duration_seconds_count\{[^}]*route="([^"]*)"/gm)].map((m) => m[1]));
    expect(routes).toContain('unmatched');
    expect([...routes].filter((r) => /NOSUCHDEVICE|12345/.test(r))).toEqual([]);
    expect(sampleValue(text, 'tessera_outbox_pending', { channel: 'mail' })).toBe(0);
    expect(sampleValue(text, 'tessera_download_jobs', { state: 'packaging' })).toBe(0);
  });

  it.skipIf(!tools && !process.env.CI)('passes promtool check metrics', async () => {
    if (!tools) throw new Error('promtool not installed (Debian package prometheus); CI installs it');
    const { text } = await scrape(`${server.httpUrl}/metrics`, TOKEN);
    const { code, output } = await promtoolCheckMetrics(tools.promtool, text);
    expect(output).toBe('');
    expect(code).toBe(0);
  });

  it('has every metric the Grafana dashboard queries', async () => {
    const dashboard = readFileSync(new URL('../../../../../docs/deploy/grafana-dashboard.json', import.meta.url), 'utf8');
    const exprs = [...dashboard.matchAll(/"expr":\s*"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
    expect(exprs.length).toBeGreaterThan(10);
    const queried = new Set(exprs.flatMap((e) => [...e.matchAll(/\b((?:tessera|process|nodejs)_\w+)/g)].map((m) => m[1])));
    const exposed = exposedNames((await scrape(`${server.httpUrl}/metrics`, TOKEN)).text);
    expect([...queried].filter((name) => !exposed.has(name))).toEqual([]);
  });
});

describe(`METRICS_PORT (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  beforeAll(async () => {
    server = await startTestServer({ metricsToken: TOKEN, metricsPort: 0 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves /metrics only on its own loopback listener, with the same token', async () => {
    expect(server.metricsPort).toBeGreaterThan(0);
    const own = `http://127.0.0.1:${server.metricsPort}/metrics`;
    expect((await scrape(own)).status).toBe(401);
    expect((await scrape(own, TOKEN)).status).toBe(200);
    expect((await scrape(`http://127.0.0.1:${server.metricsPort}/healthz`, TOKEN)).status).toBe(404);
    expect((await scrape(`${server.httpUrl}/metrics`, TOKEN)).status).toBe(404);
  });
});
