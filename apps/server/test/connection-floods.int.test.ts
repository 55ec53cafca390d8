/**
 * One address cannot take what other addresses need (core/connection-limits.ts, core/http-connection-guard.ts,
 * modules/ingest/broker-guard.ts; docs/deployment.md "Connections and file descriptors"): 127.0.0.1 holds more
 * half-open MQTT connections than the whole pending pool and keeps re-opening them, and more slow HTTP connections
 * (a header line every second) than its share; meanwhile a device from 127.0.0.2 logs in every time, and /healthz
 * and login from 127.0.0.2 answer within a second. The slow-header connections are cut at HTTP_HEADERS_TIMEOUT_MS.
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { deviceClientId, paths } from '@tessera/contracts';
import { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_HEADERS_TIMEOUT_MS } from '../src/core/http-connection-guard.js';
import { buildDeviceProject, type TBuiltDevice } from './device-factory.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from './helpers.js';

const ATTACKER = '127.0.0.1';
const OTHER = '127.0.0.2';
const PENDING_POOL = 100;
const PENDING_PER_ADDRESS = 20;
const HTTP_PER_ADDRESS = 50;

/** Keeps `count` raw sockets from `localAddress` open to `port`, re-opening each one the server closes, until stopped. */
function holdSockets(port: number, count: number, onOpen: (s: Socket) => void = () => undefined) {
  let stopped = false;
  let closedByServer = 0;
  const sockets = new Set<Socket>();
  const open = () => {
    if (stopped) return;
    const s = connect({ port, host: '127.0.0.1', localAddress: ATTACKER });
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('connect', () => onOpen(s));
    s.on('close', () => {
      sockets.delete(s);
      if (stopped) return;
      closedByServer += 1;
      setTimeout(open, 5);
    });
  };
  for (let i = 0; i < count; i++) open();
  return {
    get closedByServer() {
      return closedByServer;
    },
    stop() {
      stopped = true;
      for (const s of sockets) s.destroy();
    },
  };
}

/** Logs `device` in from `localAddress` and out again; resolves true on CONNACK 0 within `ms`. */
function loginFrom(mqttPort: number, device: TBuiltDevice, localAddress: string, ms = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const client = new MqttClient(() => connect({ port: mqttPort, host: '127.0.0.1', localAddress }), {
      username: device.tangramId,
      password: device.secret,
      clientId: deviceClientId(device.tangramId),
      reconnectPeriod: 0,
      connectTimeout: ms,
    });
    const timer = setTimeout(() => finish(false), ms);
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      client.end(true);
      resolve(ok);
    };
    client.once('connect', () => finish(true));
    client.once('error', () => finish(false));
  });
}

/** One HTTP request from `localAddress`; answers its status and how long it took, in ms (status 0: no answer in 5 s). */
function timedRequest(port: number, method: string, path: string, body?: unknown): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        localAddress: OTHER,
        timeout: 5_000,
        headers: body ? { 'content-type': 'application/json' } : {},
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

describe(`one address cannot starve the others (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let device: TBuiltDevice;

  beforeAll(async () => {
    server = await startTestServer({
      mqttMaxPendingConnects: PENDING_POOL,
      mqttMaxPendingConnectsPerIp: PENDING_PER_ADDRESS,
      httpMaxConnectionsPerIp: HTTP_PER_ADDRESS,
    });
    [device] = (await buildDeviceProject(server.ctx.db, { count: 1 })).devices;
  });
  afterAll(() => server?.stop());

  it('a device from another address logs in 20 times in 20 while one address holds half-open MQTT sockets', async () => {
    const flood = holdSockets(server.mqttPort as number, PENDING_POOL * 2);
    try {
      await new Promise((r) => setTimeout(r, 500));
      let logins = 0;
      for (let i = 0; i < 20; i++) if (await loginFrom(server.mqttPort as number, device, OTHER)) logins += 1;
      expect(logins).toBe(20);
      expect(flood.closedByServer).toBeGreaterThanOrEqual(PENDING_POOL * 2 - PENDING_PER_ADDRESS);
      expect(server.messaging.brokerRefusals().too_many_pending_connects_from_address).toBeGreaterThan(0);
    } finally {
      flood.stop();
    }
  });

  it('/healthz and login answer another address within 1 s while one address holds slow HTTP connections; those are cut', async () => {
    const port = server.httpPort;
    const flood = holdSockets(port, HTTP_PER_ADDRESS * 6, (s) => {
      s.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
      const drip = setInterval(() => s.write(`X-Slow-${Date.now()}: 1\r\n`), 1_000);
      s.once('close', () => clearInterval(drip));
    });
    try {
      await new Promise((r) => setTimeout(r, 1_000));
      expect(server.httpRefusals.too_many_connections_from_address).toBeGreaterThanOrEqual(HTTP_PER_ADDRESS * 5);
      for (let i = 0; i < 5; i++) {
        const health = await timedRequest(port, 'GET', '/healthz');
        expect(health.status).toBe(200);
        expect(health.ms).toBeLessThan(1_000);
        const login = await timedRequest(port, 'POST', paths.login, { email: 'nobody@example.com', password: 'wrong password 1' });
        expect(login.status).toBeGreaterThanOrEqual(400);
        expect(login.status).toBeLessThan(500);
        expect(login.ms).toBeLessThan(1_000);
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
