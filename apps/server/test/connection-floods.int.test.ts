/**
 * One address cannot take what other addresses need (core/connection-limits.ts, core/http-connection-guard.ts,
 * modules/ingest/broker-guard.ts; docs/deployment.md "Connections and file descriptors"): 127.0.0.1 holds more
 * half-open MQTT connections than the whole pending pool and keeps re-opening them, and more slow HTTP connections
 * (a header line every second) than its share; meanwhile a device from 127.0.0.2 logs in every time, and /healthz
 * and login from 127.0.0.2 answer within a second. The slow-header connections are cut at HTTP_HEADERS_TIMEOUT_MS.
 * The device HTTP port (its own thread) keeps the same per-address share: a flood of it leaves a network server at
 * another address, and the main port, answered.
 */
import { connect } from 'node:net';
import { paths } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_HEADERS_TIMEOUT_MS } from '../src/core/http-connection-guard.js';
import { buildDeviceProject, type TBuiltDevice } from './device-factory.js';
import { dripHeaders, holdSockets, timedDeviceLogin, timedRequest } from './floods.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from './helpers.js';

const ATTACKER = '127.0.0.1';
const OTHER = '127.0.0.2';
const PENDING_POOL = 100;
const PENDING_PER_ADDRESS = 20;
const HTTP_PER_ADDRESS = 50;

describe(`one address cannot starve the others (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let device: TBuiltDevice;

  beforeAll(async () => {
    server = await startTestServer({
      mqttMaxPendingConnects: PENDING_POOL,
      mqttMaxPendingConnectsPerIp: PENDING_PER_ADDRESS,
      httpMaxConnectionsPerIp: HTTP_PER_ADDRESS,
      deviceHttpPort: 0,
    });
    [device] = (await buildDeviceProject(server.ctx.db, { count: 1 })).devices;
  });
  afterAll(() => server?.stop());

  it('a device from another address logs in 20 times in 20 while one address holds half-open MQTT sockets', async () => {
    const mqtt = { host: '127.0.0.1', port: server.mqttPort as number };
    const flood = holdSockets(mqtt, PENDING_POOL * 2, { localAddress: ATTACKER });
    try {
      await new Promise((r) => setTimeout(r, 500));
      let logins = 0;
      for (let i = 0; i < 20; i++) if ((await timedDeviceLogin(mqtt, device, OTHER)) !== null) logins += 1;
      expect(logins).toBe(20);
      expect(flood.closedByServer).toBeGreaterThanOrEqual(PENDING_POOL * 2 - PENDING_PER_ADDRESS);
      expect(server.messaging.brokerRefusals().too_many_pending_connects_from_address).toBeGreaterThan(0);
    } finally {
      flood.stop();
    }
  });

  it('/healthz and login answer another address within 1 s while one address holds slow HTTP connections; those are cut', async () => {
    const http = { host: '127.0.0.1', port: server.httpPort };
    const flood = holdSockets(http, HTTP_PER_ADDRESS * 6, { localAddress: ATTACKER, onOpen: dripHeaders(1_000) });
    try {
      await new Promise((r) => setTimeout(r, 1_000));
      expect(server.httpRefusals.too_many_connections_from_address).toBeGreaterThanOrEqual(HTTP_PER_ADDRESS * 5);
      for (let i = 0; i < 5; i++) {
        const health = await timedRequest(http, OTHER, 'GET', '/healthz');
        expect(health.status).toBe(200);
        expect(health.ms).toBeLessThan(1_000);
        const login = await timedRequest(http, OTHER, 'POST', paths.login, { email: 'nobody@example.com', password: 'wrong password 1' });
        expect(login.status).toBeGreaterThanOrEqual(400);
        expect(login.status).toBeLessThan(500);
        expect(login.ms).toBeLessThan(1_000);
      }
    } finally {
      flood.stop();
    }
  });

  it('the webhook on the device HTTP port and /healthz answer another address within 1 s while one address floods that port', async () => {
    const devicePort = { host: '127.0.0.1', port: server.deviceHttp?.port as number };
    const flood = holdSockets(devicePort, HTTP_PER_ADDRESS * 6, { localAddress: ATTACKER, onOpen: dripHeaders(1_000) });
    try {
      await new Promise((r) => setTimeout(r, 1_000));
      // The thread closes what is over the address's share as it comes; the flood opens them again.
      expect(flood.closedByServer).toBeGreaterThanOrEqual(HTTP_PER_ADDRESS * 5);
      for (let i = 0; i < 5; i++) {
        // No such integration: the thread reads the request, the main thread refuses it.
        const uplink = await timedRequest(devicePort, OTHER, 'POST', '/lorawan/v1/1/chirpstack?event=up', { deviceInfo: {} });
        expect(uplink.status).toBe(401);
        expect(uplink.ms).toBeLessThan(1_000);
        const health = await timedRequest({ host: '127.0.0.1', port: server.httpPort }, OTHER, 'GET', '/healthz');
        expect(health.status).toBe(200);
        expect(health.ms).toBeLessThan(1_000);
      }
    } finally {
      flood.stop();
    }
  });

  it('cuts a client that has not finished its request head within HTTP_HEADERS_TIMEOUT_MS', async () => {
    const s = connect({ port: server.httpPort, host: '127.0.0.1', localAddress: OTHER });
    s.on('error', () => undefined);
    const opened = Date.now();
    s.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const drip = setInterval(() => s.write('X-Slow: 1\r\n'), 1_000);
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      s.on('data', (d) => {
        text += d.toString();
      });
      s.once('close', () => resolve(text));
    });
    clearInterval(drip);
    const livedMs = Date.now() - opened;
    expect(livedMs).toBeGreaterThanOrEqual(HTTP_HEADERS_TIMEOUT_MS - 100);
    expect(livedMs).toBeLessThan(HTTP_HEADERS_TIMEOUT_MS + 3_000);
    expect(answer).toMatch(/^HTTP\/1.1 408/);
  }, 20_000);
});
