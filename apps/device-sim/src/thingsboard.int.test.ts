/**
 * The simulator speaking ThingsBoard's MQTT API against a real Aedes: it logs in with the access token as username and
 * no password, reports its client attributes on `v1/devices/me/attributes` and publishes `[{ts, values}]` on
 * `v1/devices/me/telemetry` (the server's side, RPC included: apps/server ingest/thingsboard-mqtt.int.test.ts,
 * device-apis/rpc.int.test.ts).
 */
import { createServer, type AddressInfo, type Server } from 'node:net';
import { Aedes } from 'aedes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from './index.js';

const TOKEN = 'sim-access-token-0123456789';

// No database involved: the PostgreSQL run of the integration suite skips it.
describe.skipIf(process.env.TEST_DB === 'postgres')('simulator --protocol thingsboard', () => {
  let aedes: Aedes;
  let tcp: Server;
  let url: string;
  const logins: { username?: string; password?: string }[] = [];
  const published: { topic: string; payload: string }[] = [];

  beforeAll(async () => {
    aedes = await Aedes.createBroker({
      authenticate: (_client, username, password, done) => {
        logins.push({ username, password: password?.toString() });
        done(null, username === TOKEN);
      },
      authorizePublish: (client, packet, done) => {
        if (client) published.push({ topic: packet.topic, payload: packet.payload.toString() });
        done(null);
      },
    });
    tcp = createServer((socket) => aedes.handle(socket));
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', () => resolve()));
    url = `mqtt://127.0.0.1:${(tcp.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => aedes.close(() => resolve()));
    await new Promise<void>((resolve) => tcp.close(() => resolve()));
  });

  it('logs in with the token, reports its client attributes and publishes timestamped telemetry on ThingsBoard topics only', async () => {
    const sim = await startSimulator({
      url,
      devices: [
        { tangramId: '5400010100002A1A2B0000000000FF', secret: TOKEN, keys: ['temperature', 'vibration'], protocol: 'thingsboard' },
      ],
      rateHz: 20,
    });
    const until = Date.now() + 10_000;
    while (sim.stats().acked < 4 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await sim.stop();
    expect(logins[0]).toEqual({ username: TOKEN, password: undefined });
    expect(new Set(published.map((p) => p.topic))).toEqual(new Set(['v1/devices/me/telemetry', 'v1/devices/me/attributes']));
    expect(JSON.parse(published[0].payload)).toEqual({
      firmware: 'tessera-sim/1.0.0',
      sensors: 'temperature,vibration',
      seed: expect.any(Number),
    });
    const telemetry = published.filter((p) => p.topic === 'v1/devices/me/telemetry');
    const [first] = JSON.parse(telemetry[0].payload) as { ts: number; values: Record<string, number> }[];
    expect(first.ts).toBeGreaterThan(Date.now() - 60_000);
    expect(Object.keys(first.values).sort()).toEqual(['temperature', 'vibration']);
    expect(Object.values(first.values).every((v) => typeof v === 'number')).toBe(true);
  });
});
