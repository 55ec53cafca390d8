/**
 * Point → alert latency, shared by bench/rules and bench/flows: devices publish QoS 1 temperature points, each hotter
 * than the last (31, 32, …), and a PostgreSQL NOTIFY `device_id:value` per alert row change tells when a point's value
 * (or a later one) is stored in its alert. {@link publishHotPoints} publishes from this process, one point at a time
 * per device; {@link publishHotPointsFromChild} from a child process (hot-points-load.ts), on schedule.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { topics } from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import type pg from 'pg';

/** The value of the i-th point of a device. */
export const pointValue = (i: number) => 31 + i;

/** Wall time in epoch ms with sub-millisecond precision: comparable across processes, unlike performance.now(). */
export const epochNow = (): number => performance.timeOrigin + performance.now();

/**
 * What the parent asks of the load process: the broker's port, the devices, a point every `periodMs` for `warmupS`
 * seconds not measured, then for `seconds` measured.
 */
export interface THotPointsJob {
  type: 'job';
  mqttPort: number;
  devices: { id: number; tangramId: string; secret: string }[];
  periodMs: number;
  warmupS: number;
  seconds: number;
}

/**
 * What the load process answers, of the measured points (those published after the warm-up): how many were sent and
 * PUBACKed, each PUBACK's latency (ms), `seconds` from the end of the warm-up to the last PUBACK; and each point's
 * publish time per device id (epoch ms, {@link epochNow}; NaN for a warm-up point).
 */
export interface THotPointsResult {
  type: 'result';
  sent: number;
  acked: number;
  ackLatencies: number[];
  /** When each of `ackLatencies`' points was published, s after the end of the warm-up. */
  ackSentAtS: number[];
  sentAt: Record<number, number[]>;
  seconds: number;
}

/** A load process with its devices connected; `run()` publishes and answers the result (the process then exits). */
export interface THotPointsLoad {
  run(): Promise<THotPointsResult>;
}

/**
 * Starts the load process (hot-points-load.ts under tsx) and connects the job's devices from it. Each device then
 * publishes a point every `periodMs` on schedule — not waiting for the previous PUBACK, so the offered rate stays
 * offered when acknowledgements lag — for `warmupS` + `seconds`. @throws when the child fails or exits before
 * answering.
 */
export async function startHotPointsLoad(job: Omit<THotPointsJob, 'type'>): Promise<THotPointsLoad> {
  const child = fork(fileURLToPath(new URL('./hot-points-load.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    // Structured clone, not JSON: a warm-up point's publish time is NaN.
    serialization: 'advanced',
  });
  const next = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (msg: { type: string }) => {
        if (msg.type !== type) return;
        child.off('exit', onExit);
        child.off('message', onMessage);
        resolve(msg as T);
      };
      const onExit = (code: number | null) => reject(new Error(`hot-points load process exited (${code}) before '${type}'`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const connected = next<{ type: 'connected' }>('connected');
  child.send({ type: 'job', ...job } satisfies THotPointsJob);
  await connected;
  return {
    run() {
      const result = next<THotPointsResult>('result');
      child.send({ type: 'start' });
      return result;
    },
  };
}

/** One alert row change as NOTIFYed: the device, the value stored, and when it was seen (epoch ms). */
export interface TAlertSighting {
  deviceId: number;
  value: number;
  seenAt: number;
}

/** Listens on `channel` (payload `device_id:value`) and pushes every notification onto the answered list as it comes. */
export async function recordAlertSightings(listener: pg.Client, channel: string): Promise<TAlertSighting[]> {
  const sightings: TAlertSighting[] = [];
  await listener.query(`listen ${channel}`);
  listener.on('notification', (msg) => {
    if (msg.channel !== channel) return;
    const [deviceId, value] = (msg.payload ?? '').split(':').map(Number) as [number, number];
    sightings.push({ deviceId, value, seenAt: epochNow() });
  });
  return sightings;
}

/**
 * For every measured point stored in its device's alert, the time from its publish (`sentAt`, epoch ms per device id;
 * NaN: a warm-up point, not counted) to the first sighting of its value or a later one, ms. Points never seen stored
 * are left out (compare the count with sent).
 */
export function alertLatenciesOf(sightings: readonly TAlertSighting[], sentAt: Readonly<Record<number, readonly number[]>>): number[] {
  const latencies: number[] = [];
  const stored = new Map<number, number>(); // device id → highest point index stored
  for (const { deviceId, value, seenAt } of sightings) {
    const upTo = value - pointValue(0);
    const times = sentAt[deviceId] ?? [];
    for (let i = (stored.get(deviceId) ?? -1) + 1; i <= upTo && i < times.length; i++) {
      const sent = times[i] as number;
      if (!Number.isNaN(sent)) latencies.push(seenAt - sent);
    }
    stored.set(deviceId, Math.max(stored.get(deviceId) ?? -1, upTo));
  }
  return latencies;
}

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
