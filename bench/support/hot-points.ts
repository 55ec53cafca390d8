/**
 * Point → alert latency, shared by bench/rules and bench/flows: devices publish QoS 1 temperature points one at a
 * time, each hotter than the last (31, 32, …), and a PostgreSQL NOTIFY `device_id:value` per alert row change tells
 * when a point's value (or a later one) is stored in its alert.
 */
import { topics } from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import type pg from 'pg';

/** The value of the i-th point of a device. */
const pointValue = (i: number) => 31 + i;

/**
 * Each client publishes a point every `periodMs` for `seconds` (started at a random offset inside the first period),
 * awaiting each PUBACK; `sentAt` gets each point's publish time per device id. Answers the count and PUBACK times, ms.
 */
export async function publishHotPoints(
  clients: readonly MqttClient[],
  devices: readonly { id: number; tangramId: string }[],
  periodMs: number,
  seconds: number,
  sentAt: Map<number, number[]>,
): Promise<{ sent: number; ackLatencies: number[] }> {
  const ackLatencies: number[] = [];
  const stopAt = performance.now() + seconds * 1000;
  let sent = 0;
  await Promise.all(
    clients.map(async (client, di) => {
      const d = devices[di] as { id: number; tangramId: string };
      const times = sentAt.get(d.id) ?? [];
      sentAt.set(d.id, times);
      await new Promise((r) => setTimeout(r, Math.random() * periodMs));
      for (let i = 0; performance.now() < stopAt; i++) {
        const next = performance.now() + periodMs;
        const t0 = performance.now();
        times.push(t0);
        sent += 1;
        await client.publishAsync(
          topics.telemetry(d.tangramId),
          JSON.stringify({ key: 'temperature', ts: Date.now(), vs: [pointValue(i)] }),
          {
            qos: 1,
          },
        );
        ackLatencies.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
      }
    }),
  );
  return { sent, ackLatencies };
}

/**
 * Listens on `channel` (payload `device_id:value`) and pushes, for every point now stored in its device's alert, the
 * time from its publish to the notification, ms.
 */
export async function collectAlertLatencies(listener: pg.Client, channel: string, sentAt: Map<number, number[]>): Promise<number[]> {
  const latencies: number[] = [];
  const stored = new Map<number, number>(); // device id → highest point index stored
  await listener.query(`listen ${channel}`);
  listener.on('notification', (msg) => {
    if (msg.channel !== channel) return;
    const now = performance.now();
    const [id, value] = (msg.payload ?? '').split(':').map(Number) as [number, number];
    const upTo = value - pointValue(0);
    const times = sentAt.get(id) ?? [];
    for (let i = (stored.get(id) ?? -1) + 1; i <= upTo && i < times.length; i++) latencies.push(now - (times[i] as number));
    stored.set(id, Math.max(stored.get(id) ?? -1, upTo));
  });
  return latencies;
}
