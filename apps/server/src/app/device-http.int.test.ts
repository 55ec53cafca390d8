/**
 * The device HTTP port (DEVICE_HTTP_PORT, app/device-http.ts) as an operator meets it: what it serves and what it does
 * not, a port already taken, a thread that ends unexpectedly (started again on the same port, health and metrics
 * saying so meanwhile), and the stop — a request answered before the listener goes, none accepted after. Every
 * webhook case on this port is in modules/lorawan/lorawan-webhook.int.test.ts.
 */
import { createServer, type Server } from 'node:net';
import { LORAWAN_SECRET_HEADER, type TLorawanIntegrationWithSecret } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject } from '../../test/device-factory.js';
import { buildLorawanWebhook, buildVendor } from '../../test/factories.js';
import { openTestDatabase, startTestServer, TEST_DB_KIND, type TTestServer } from '../../test/helpers.js';
import type { Database } from '../db/client.js';
import { telemetryCount, waitUntil } from '../modules/ingest/ingest-test-kit.js';
import { prometheusTools, promtoolCheckMetrics, sampleValue, scrape } from '../modules/metrics/metrics-test-kit.js';
import { PortInUseError } from './server.js';

const DEV_EUI = '70B3D57ED0000001';

/** A ChirpStack `up` event of DevEUI {@link DEV_EUI} with a decoded temperature, received `secondsAgo` (a point each). */
const uplink = (temperature: number, secondsAgo = 0) =>
  JSON.stringify({
    deduplicationId: `dedup-${temperature}`,
    time: new Date(Date.now() - secondsAgo * 1000).toISOString(),
    deviceInfo: { deviceName: 'field sensor', devEui: DEV_EUI.toLowerCase() },
    fPort: 1,
    data: 'AOE=',
    object: { temperature },
  });

describe(`the device HTTP port (${TEST_DB_KIND})`, () => {
  let database: Database;
  let server: TTestServer;
  let deviceUrl: string;
  let integration: TLorawanIntegrationWithSecret;
  let tangramId: string;
  let deviceId: number;
  const post = (body: string) =>
    fetch(`${deviceUrl}${integration.webhook_path}?event=up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [LORAWAN_SECRET_HEADER]: integration.secret },
      body,
    });

  beforeAll(async () => {
    // The database outlives the server: the stop's test counts what was committed after it.
    database = await openTestDatabase();
    server = await startTestServer({ deviceHttpPort: 0 }, database);
    deviceUrl = `http://127.0.0.1:${server.deviceHttp?.port}`;
    const vendor = await buildVendor(server);
    const project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
    tangramId = project.devices[0].tangramId;
    deviceId = project.devices[0].id;
    integration = await buildLorawanWebhook(server, vendor.token, { projectId: project.projectId, tangramId, devEui: DEV_EUI });
  });
  afterAll(async () => {
    await server.stop();
    await database.close();
  });

  it('listens on a port of its own beside the main one, and serves the webhook only: no console, API or health check', async () => {
    expect(server.deviceHttp?.port).toBeGreaterThan(0);
    expect(server.deviceHttp?.port).not.toBe(server.httpPort);
    for (const path of ['/healthz', '/', '/authorization/v1/login', '/openapi.json', `/api/v1/some-token/telemetry`]) {
      const res = await fetch(`${deviceUrl}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    // The main port still takes the webhook, and the console's routes.
    expect((await fetch(`${server.httpUrl}/healthz`)).status).toBe(200);
  });

  it('answers 200 once committed, with a request id it was given or made', async () => {
    const before = await telemetryCount(database.db, deviceId);
    const res = await fetch(`${deviceUrl}${integration.webhook_path}?event=up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [LORAWAN_SECRET_HEADER]: integration.secret, 'x-request-id': 'ns-request-7' },
      body: uplink(21.5),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ stored: 1 });
    expect(res.headers.get('x-request-id')).toBe('ns-request-7');
    expect(await telemetryCount(database.db, deviceId)).toBe(before + 1);
  });

  it('refuses to start when DEVICE_HTTP_PORT is taken, naming the variable', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const failed = await startTestServer({ deviceHttpPort: port }).then(
        () => null,
        (err: unknown) => err,
      );
      expect(failed).toBeInstanceOf(PortInUseError);
      expect((failed as Error).message).toContain('DEVICE_HTTP_PORT');
    } finally {
      taken.close();
    }
  });

  it('starts its thread again on the same port when it ends unexpectedly; health and metrics say so meanwhile', async () => {
    const token = 'metrics-token-device-http';
    const other = await startTestServer({ deviceHttpPort: 0, metricsToken: token }, database);
    try {
      const thread = other.deviceHttp;
      if (!thread) throw new Error('no device HTTP thread');
      const url = `http://127.0.0.1:${thread.port}${integration.webhook_path}?event=up`;
      const send = () =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [LORAWAN_SECRET_HEADER]: integration.secret, connection: 'close' },
          body: uplink(30.5),
        });
      const health = async () => (await (await fetch(`${other.httpUrl}/healthz`)).json()) as { status: string; device_http?: string };
      const metric = async (name: string) => sampleValue((await scrape(`${other.httpUrl}/metrics`, token)).text, name);
      expect((await send()).status).toBe(200);
      expect(await health()).toMatchObject({ status: 'ok', device_http: 'ok' });
      expect(await metric('tessera_device_http_up')).toBe(1);
      expect(await metric('tessera_device_http_restarts_total')).toBe(0);

      await thread.terminateThread();
      expect(thread.isUp()).toBe(false);
      // The console and MQTT still serve: the health check says which part is down without failing.
      expect(await health()).toMatchObject({ status: 'ok', device_http: 'down' });
      expect(await metric('tessera_device_http_up')).toBe(0);
      expect(
        await send().then(
          (r) => r.status,
          (err: Error) => err.name,
        ),
      ).toBe('TypeError');

      await waitUntil(() => thread.isUp(), 10_000);
      expect((await send()).status).toBe(200);
      expect(await health()).toMatchObject({ device_http: 'ok' });
      expect(await metric('tessera_device_http_restarts_total')).toBe(1);
    } finally {
      await other.stop();
    }
  });

  it('observes its requests in a latency histogram of its own, which the scrape reads from the thread', async () => {
    const token = 'metrics-token-device-http-latency';
    const other = await startTestServer({ deviceHttpPort: 0, metricsToken: token }, database);
    try {
      const thread = other.deviceHttp;
      if (!thread) throw new Error('no device HTTP thread');
      const base = `http://127.0.0.1:${thread.port}`;
      const send = (secret: string) =>
        fetch(`${base}${integration.webhook_path}?event=up`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [LORAWAN_SECRET_HEADER]: secret },
          body: uplink(31.5),
        });
      expect((await send(integration.secret)).status).toBe(200);
      expect((await send(integration.secret)).status).toBe(200);
      expect((await send('not-the-secret')).status).toBe(401);
      expect((await fetch(`${base}/healthz`)).status).toBe(404);

      const { status, text } = await scrape(`${other.httpUrl}/metrics`, token);
      expect(status).toBe(200);
      const route = '/lorawan/v1/:integrationId/:networkServer';
      const count = (name: string, labels: Record<string, string>) => sampleValue(text, `${name}_count`, labels);
      expect(count('tessera_device_http_request_duration_seconds', { method: 'POST', route, status: '200' })).toBe(2);
      expect(count('tessera_device_http_request_duration_seconds', { method: 'POST', route, status: '401' })).toBe(1);
      expect(count('tessera_device_http_request_duration_seconds', { route: 'unmatched', status: '404' })).toBe(1);
      // The main port served none of them: the same route there is its own series.
      expect(count('tessera_http_request_duration_seconds', { route })).toBeUndefined();
      const tools = prometheusTools();
      if (tools) expect(await promtoolCheckMetrics(tools.promtool, text)).toMatchObject({ code: 0 });

      // A thread started again begins its histogram from zero (a counter reset to Prometheus); a down one is left out.
      await thread.terminateThread();
      const whileDown = (await scrape(`${other.httpUrl}/metrics`, token)).text;
      expect(sampleValue(whileDown, 'tessera_device_http_up')).toBe(0);
      expect(whileDown).not.toContain('tessera_device_http_request_duration_seconds');
      await waitUntil(() => thread.isUp(), 10_000);
      expect((await send(integration.secret)).status).toBe(200);
      const after = (await scrape(`${other.httpUrl}/metrics`, token)).text;
      expect(sampleValue(after, 'tessera_device_http_request_duration_seconds_count', { route, status: '200' })).toBe(1);
    } finally {
      await other.stop();
    }
  });

  it('keeps no latency histogram without METRICS_TOKEN', async () => {
    const other = await startTestServer({ deviceHttpPort: 0 }, database);
    try {
      expect(await other.deviceHttp?.metricsText(1_000)).toBeNull();
    } finally {
      await other.stop();
    }
  });

  it('keeps trying when its port is taken after the thread ended, and listens again once it is free', async () => {
    const other = await startTestServer({ deviceHttpPort: 0 }, database);
    const squatter: Server = createServer();
    try {
      const thread = other.deviceHttp;
      if (!thread) throw new Error('no device HTTP thread');
      await thread.terminateThread();
      // Another process takes the port before the first restart (0.5 s later): that start fails, and the next ones wait.
      await new Promise<void>((resolve, reject) => {
        squatter.once('error', reject);
        squatter.listen(thread.port, '127.0.0.1', resolve);
      });
      await new Promise((r) => setTimeout(r, 1_200));
      expect(thread.isUp()).toBe(false);
      expect(thread.restarts()).toBe(0);
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
      await waitUntil(() => thread.isUp(), 10_000);
      expect(thread.restarts()).toBe(1);
      const res = await fetch(`http://127.0.0.1:${thread.port}${integration.webhook_path}?event=up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [LORAWAN_SECRET_HEADER]: integration.secret, connection: 'close' },
        body: uplink(31.5),
      });
      expect(res.status).toBe(200);
    } finally {
      if (squatter.listening) squatter.close();
      await other.stop();
    }
  });

  it('on stop answers what it took, loses none of what it acknowledged, then refuses connections', async () => {
    const before = await telemetryCount(database.db, deviceId);
    const answers = Array.from({ length: 20 }, (_, i) => post(uplink(30 + i, 1 + i)));
    // The first answer says the port is serving; the rest may still be on their way through ingest when the stop begins.
    const first = await Promise.race(answers);
    expect(first.status).toBe(200);
    // Every step of the stop ends in time: no keep-alive connection of the network server holds the port open.
    expect(await server.close()).toMatchObject({ withinDeadline: true, late: [] });
    // A request taken is answered: 200 once stored, or 503 (the stop began first: send again). One not yet taken finds
    // its connection closed, as on any HTTP server that stops; the network server sends it again.
    const outcomes = await Promise.all(answers.map((a) => a.then((r) => r.status).catch(() => 'connection closed')));
    expect(outcomes.filter((o) => o !== 200 && o !== 503 && o !== 'connection closed')).toEqual([]);
    const stored = outcomes.filter((o) => o === 200).length;
    expect(stored).toBeGreaterThan(0);
    await expect(post(uplink(99))).rejects.toThrow();
    expect(await telemetryCount(database.db, deviceId)).toBe(before + stored);
  });
});
