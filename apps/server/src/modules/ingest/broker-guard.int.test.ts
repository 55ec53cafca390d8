/**
 * The embedded broker refuses what would cost it memory before anyone has logged in (broker-guard.ts;
 * docs/decisions/ingest.md "Broker limits"): a CONNECT announcing 200 MB, streamed on 10 sockets, is cut off at its
 * fixed header; after login a PUBLISH over MQTT_MAX_PACKET_BYTES likewise, while a full 1000-point message passes;
 * sockets over the per-address and pending-CONNECT limits are closed at once; WebSocket messages are capped. Devices
 * already connected keep working throughout.
 */
import { connect, type Socket } from 'node:net';
import { deviceClientId, MAX_POINTS_PER_MESSAGE, MQTT_MAX_PACKET_BYTES, TELEMETRY_KEY_MAX, topics } from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { projectSensors } from '../../db/schema.js';
import { connectMqtt, telemetryCount, waitUntil } from './ingest-test-kit.js';

/** An MQTT fixed header: packet type byte and the remaining length as MQTT's variable byte integer (§2.2.3). */
function fixedHeader(typeByte: number, remainingLength: number): Buffer {
  const bytes = [typeByte];
  let n = remainingLength;
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    bytes.push(b);
  } while (n > 0);
  return Buffer.from(bytes);
}

/** Opens a raw TCP socket to `port`; resolves once connected. */
function rawSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', () => undefined);
    s.once('error', reject);
  });
}

/** Resolves with true when `s` closes within `ms`, false otherwise. */
function closesWithin(s: Socket | MqttClient, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    s.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Streams zeros into `s` every 10 ms until it closes (an attacker who keeps sending). */
function stream(s: Socket): void {
  const chunk = Buffer.alloc(64 * 1024);
  const timer = setInterval(() => {
    if (s.destroyed) clearInterval(timer);
    else s.write(chunk);
  }, 10);
  s.once('close', () => clearInterval(timer));
}

describe(`embedded broker limits (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let devices: TBuiltDevice[];
  let projectId: number;
  const port = () => server.mqttPort as number;

  beforeAll(async () => {
    server = await startTestServer({ mqttMaxConnectionsPerIp: 40, mqttMaxPendingConnects: 20 });
    const project = await buildDeviceProject(server.ctx.db, { count: 3 });
    devices = project.devices;
    projectId = project.projectId;
    await server.ctx.db
      .insert(projectSensors)
      .values({ projectId, key: 'k'.repeat(TELEMETRY_KEY_MAX), name: 'long key', unit: '', valueCount: 3, enabled: true });
  });
  afterAll(() => server?.stop());

  it('cuts off a CONNECT announcing 200 MB on 10 sockets at its header, while a device logs in and publishes', async () => {
    const device = await connectMqtt(server.mqttUrl, devices[0].tangramId, devices[0].secret);
    const sockets = await Promise.all(Array.from({ length: 10 }, () => rawSocket(port())));
    const closed = sockets.map((s) => closesWithin(s, 2_000));
    for (const s of sockets) {
      s.write(fixedHeader(0x10, 200 * 1024 * 1024));
      stream(s);
    }
    expect(await Promise.all(closed)).toEqual(Array(10).fill(true));
    expect(server.messaging.brokerRefusals().packet_too_large).toBeGreaterThanOrEqual(10);
    await device.publishAsync(topics.telemetry(devices[0].tangramId), JSON.stringify({ key: 'temperature', ts: Date.now(), vs: [21] }), {
      qos: 1,
    });
    expect(await telemetryCount(server.ctx.db, devices[0].id)).toBe(1);
    await device.endAsync();
  });

  it('after login, closes a device that announces a packet over the limit; a full 1000-point message passes', async () => {
    const key = 'k'.repeat(TELEMETRY_KEY_MAX);
    const t0 = Date.now() - 60_000;
    const full = JSON.stringify(
      Array.from({ length: MAX_POINTS_PER_MESSAGE }, (_, i) => ({
        key,
        ts: t0 + i,
        vs: [-1.2345678901234568e-300, Number.MAX_VALUE, -Number.MIN_VALUE],
      })),
    );
    expect(Buffer.byteLength(full)).toBeLessThan(MQTT_MAX_PACKET_BYTES);
    const honest = await connectMqtt(server.mqttUrl, devices[1].tangramId, devices[1].secret);
    await honest.publishAsync(topics.telemetry(devices[1].tangramId), full, { qos: 1 });
    expect(await telemetryCount(server.ctx.db, devices[1].id, key)).toBe(MAX_POINTS_PER_MESSAGE);

    const greedy = await connectMqtt(server.mqttUrl, devices[2].tangramId, devices[2].secret);
    const gone = closesWithin(greedy, 2_000);
    const before = server.messaging.brokerRefusals().packet_too_large;
    greedy.stream.write(fixedHeader(0x32, 10 * 1024 * 1024));
    greedy.stream.write(Buffer.alloc(256 * 1024));
    expect(await gone).toBe(true);
    expect(server.messaging.brokerRefusals().packet_too_large).toBe(before + 1);
    await greedy.endAsync(true);
    // The honest device was not affected.
    await honest.publishAsync(topics.telemetry(devices[1].tangramId), JSON.stringify({ key: 'temperature', ts: Date.now(), vs: [1] }), {
      qos: 1,
    });
    expect(await telemetryCount(server.ctx.db, devices[1].id, 'temperature')).toBe(1);
    await honest.endAsync();
  });

  it('closes sockets over the pending-CONNECT limit at once, and takes logins again when they are gone', async () => {
    const device = await connectMqtt(server.mqttUrl, devices[0].tangramId, devices[0].secret);
    const idle = await Promise.all(Array.from({ length: 20 }, () => rawSocket(port())));
    const extra = await rawSocket(port());
    expect(await closesWithin(extra, 1_000)).toBe(true);
    expect(server.messaging.brokerRefusals().too_many_pending_connects).toBeGreaterThanOrEqual(1);
    expect(device.connected).toBe(true);
    for (const s of idle) s.destroy();
    // A refused socket closes without a CONNACK, which MQTT.js never settles: give each try 2 s.
    await waitUntil(async () => {
      const attempt = connectMqtt(server.mqttUrl, devices[1].tangramId, devices[1].secret, { connectTimeout: 2_000 });
      const c = await Promise.race([attempt.catch(() => null), new Promise<null>((r) => setTimeout(() => r(null), 2_000))]);
      if (c) await c.endAsync();
      else
        attempt.then(
          (late) => late.end(true),
          () => undefined,
        );
      return c !== null;
    });
    await device.endAsync();
  });

  it('closes sockets over the per-address limit at once; connections already open stay', async () => {
    const logged: MqttClient[] = [];
    for (let i = 0; i < 20; i++)
      logged.push(
        await connectMqtt(server.mqttUrl, devices[i % 3].tangramId, devices[i % 3].secret, {
          clientId: deviceClientId(devices[i % 3].tangramId, `c${i}`),
        }),
      );
    const idle = await Promise.all(Array.from({ length: 20 }, () => rawSocket(port())));
    const over = await rawSocket(port());
    expect(await closesWithin(over, 1_000)).toBe(true);
    expect(server.messaging.brokerRefusals().too_many_connections_from_address).toBeGreaterThanOrEqual(1);
    expect(logged.every((c) => c.connected)).toBe(true);
    for (const s of idle) s.destroy();
    await Promise.all(logged.map((c) => c.endAsync()));
  });

  it('caps a WebSocket message at the largest MQTT packet', async () => {
    const ws = new WebSocket(server.wsUrl, 'mqtt');
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send(Buffer.alloc(MQTT_MAX_PACKET_BYTES * 2));
    expect(await closed).toBe(1009);
  });
});
