/**
 * Steady device load for the fault tests and bench/faults: real MQTT.js clients, one per device, each publishing a
 * telemetry array at QoS 1 on a fixed period, every point with its own timestamp, and remembering which points the
 * server acknowledged — so a test can check that every acknowledged point was stored. The clients behave as
 * well-made devices: they reconnect after a lost connection and after a refused CONNACK.
 */
import { topics } from '@tessera/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../src/db/client.js';
import type { TBuiltDevice } from './device-factory.js';

/** The telemetry key the load publishes (one of the factory's sensors). */
export const LOAD_KEY = 'temperature';

/** A running load. */
export interface TDeviceLoad {
  /** Points published so far. */
  published(): number;
  /** Points acknowledged so far (PUBACK received). */
  acked(): number;
  /** When (epoch ms) the first acknowledgement at or after `sinceMs` arrived, or null if none has yet. */
  firstAckSince(sinceMs: number): number | null;
  /** Stops publishing; waits at most `graceMs` for acknowledgements in flight, then disconnects. */
  stop(graceMs?: number): Promise<void>;
  /** How many acknowledged points are missing from the telemetry table (must be 0). */
  lostPoints(db: Db): Promise<number>;
}

/**
 * Connects `devices` to `mqttUrl` and publishes `pointsPerMessage` points every `periodMs` per device.
 * @throws when a device cannot connect at first.
 */
export async function startDeviceLoad(opts: {
  mqttUrl: string;
  devices: readonly TBuiltDevice[];
  periodMs: number;
  pointsPerMessage: number;
}): Promise<TDeviceLoad> {
  // Timestamps an hour in the past, one millisecond apart per device: unique, and inside any device-time window.
  const base = Date.now() - 3_600_000;
  const ackedTs = new Map<number, number[]>();
  let published = 0;
  let acked = 0;
  // One entry per acknowledged message, in arrival order.
  const ackTimes: number[] = [];
  const clients: MqttClient[] = [];
  const timers: NodeJS.Timeout[] = [];
  for (const device of opts.devices) {
    const client = await mqtt.connectAsync(opts.mqttUrl, {
      username: device.tangramId,
      password: device.secret,
      clientId: device.tangramId,
      reconnectPeriod: 300,
      reconnectOnConnackError: true,
      connectTimeout: 5_000,
    });
    client.on('error', () => undefined);
    clients.push(client);
    const mine: number[] = [];
    ackedTs.set(device.id, mine);
    let next = base;
    timers.push(
      setInterval(() => {
        const ts = Array.from({ length: opts.pointsPerMessage }, () => next++);
        const payload = JSON.stringify(ts.map((t) => ({ key: LOAD_KEY, ts: t, vs: [t % 100] })));
        published += ts.length;
        client.publish(topics.telemetry(device.tangramId), payload, { qos: 1 }, (err) => {
          if (err) return;
          acked += ts.length;
          ackTimes.push(Date.now());
          mine.push(...ts);
        });
      }, opts.periodMs),
    );
  }
  return {
    published: () => published,
    acked: () => acked,
    firstAckSince: (sinceMs) => ackTimes.find((t) => t >= sinceMs) ?? null,
    async stop(graceMs = 5_000) {
      for (const t of timers) clearInterval(t);
      const until = Date.now() + graceMs;
      while (clients.some((c) => Object.keys(c.outgoing).length > 0) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      await Promise.all(clients.map((c) => c.endAsync(true)));
    },
    async lostPoints(db) {
      let lost = 0;
      for (const [deviceId, tss] of ackedTs) {
        const stored = new Set(
          rowsOf<{ ts: number | string }>(
            await db.execute(
              sql`select ts from telemetry join telemetry_keys k on k.id = key_id where device_id = ${deviceId} and k.key = ${LOAD_KEY}`,
            ),
          ).map((r) => Number(r.ts)),
        );
        lost += tss.filter((ts) => !stored.has(ts)).length;
      }
      return lost;
    },
  };
}
