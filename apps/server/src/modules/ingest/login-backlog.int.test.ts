/**
 * A device that resends its backlog the moment it logs in is not thrown off (broker-guard.ts "limitPacketSize"):
 * a QoS 1 message of 48 KB — over the before-login limit, within the after-login one — sent in the same TCP write
 * as its CONNECT, and one sent right after the CONNACK, are both acknowledged and stored, 50 times over.
 */
import { connect, type Socket } from 'node:net';
import { MQTT_MAX_PACKET_BYTES, MQTT_MAX_PACKET_BYTES_BEFORE_LOGIN, topics } from '@tessera/contracts';
import mqttPacket from 'mqtt-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { telemetryCount } from './ingest-test-kit.js';

const ROUNDS = 50;
const POINTS_PER_MESSAGE = 400;

/** Device-clock spacing of the points, in ms: under the per-device rate limit (contracts DEVICE_RATE_POINTS_PER_S). */
const POINT_SPACING_MS = 2;

/** A telemetry message of POINTS_PER_MESSAGE points from `t0`, about 48 KB of JSON. */
function backlog(t0: number): string {
  return JSON.stringify(
    Array.from({ length: POINTS_PER_MESSAGE }, (_, i) => ({
      key: 'temperature',
      ts: t0 + i * POINT_SPACING_MS,
      vs: [20 + i / 1000, 1.5, -3.25],
    })),
  );
}

/** Packets a raw MQTT 3.1.1 client reads and writes, through mqtt-packet (the parser MQTT.js and Aedes use). */
function rawClient(port: number): Promise<{ socket: Socket; next: (cmd: string) => Promise<mqttPacket.Packet> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve({ socket, next }));
    socket.once('error', reject);
    const parser = mqttPacket.parser({ protocolVersion: 4 });
    const received: mqttPacket.Packet[] = [];
    const waiting: { cmd: string; resolve: (p: mqttPacket.Packet) => void }[] = [];
    parser.on('packet', (p) => {
      const i = waiting.findIndex((w) => w.cmd === p.cmd);
      if (i >= 0) waiting.splice(i, 1)[0].resolve(p);
      else received.push(p);
    });
    socket.on('data', (d) => parser.parse(d));
    const closed = new Promise<never>((_, rej) => socket.once('close', () => rej(new Error('connection closed by the server'))));
    closed.catch(() => undefined);
    function next(cmd: string): Promise<mqttPacket.Packet> {
      const i = received.findIndex((p) => p.cmd === cmd);
      if (i >= 0) return Promise.resolve(received.splice(i, 1)[0]);
      return Promise.race([new Promise<mqttPacket.Packet>((res) => waiting.push({ cmd, resolve: res })), closed]);
    }
  });
}

describe(`a device's backlog at login (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let device: TBuiltDevice;

  beforeAll(async () => {
    server = await startTestServer();
    [device] = (await buildDeviceProject(server.ctx.db, { count: 1 })).devices;
  });
  afterAll(() => server?.stop());

  it(`acknowledges a 48 KB QoS 1 message in the CONNECT's TCP write and one right after CONNACK, ${ROUNDS} times`, async () => {
    const sample = Buffer.byteLength(backlog(0));
    expect(sample).toBeGreaterThan(MQTT_MAX_PACKET_BYTES_BEFORE_LOGIN);
    expect(sample).toBeLessThan(MQTT_MAX_PACKET_BYTES);
    const connectPacket = mqttPacket.generate({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 4,
      clean: true,
      keepalive: 30,
      clientId: device.tangramId,
      username: device.tangramId,
      password: Buffer.from(device.secret),
    });
    const publish = (messageId: number, t0: number) =>
      mqttPacket.generate({
        cmd: 'publish',
        topic: topics.telemetry(device.tangramId),
        payload: backlog(t0),
        qos: 1,
        messageId,
        retain: false,
        dup: false,
      });
    const span = POINTS_PER_MESSAGE * POINT_SPACING_MS;
    const t0 = Date.now() - 2 * ROUNDS * span - 60_000;
    let acked = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const { socket, next } = await rawClient(server.mqttPort as number);
      const base = t0 + round * 2 * span;
      socket.write(Buffer.concat([connectPacket, publish(1, base)]));
      expect(((await next('connack')) as mqttPacket.IConnackPacket).returnCode).toBe(0);
      socket.write(publish(2, base + span));
      const acks = [await next('puback'), await next('puback')].map((p) => p.messageId).sort();
      expect(acks).toEqual([1, 2]);
      acked += 2;
      socket.end(mqttPacket.generate({ cmd: 'disconnect' }));
    }
    expect(acked).toBe(2 * ROUNDS);
    expect(await telemetryCount(server.ctx.db, device.id)).toBe(2 * ROUNDS * POINTS_PER_MESSAGE);
    expect(server.messaging.brokerRefusals().packet_too_large).toBe(0);
  });
});
