/**
 * bench/overload, the load generator (a child process, so its CPU and memory are not the server's): N real MQTT.js
 * device clients, each offering `pointsPerS` points a second for `seconds` (ts = `tsBase` + its point counter, so
 * one point per device-millisecond), in QoS 1 messages of up to `points` points with at most `window` unacknowledged
 * messages — what a device with a store-and-forward buffer does. Points that fall due while the window is full wait
 * on the device and go out as soon as acknowledgements free it. After the load stops it waits until every due point
 * is acknowledged (the drain), then reports over IPC.
 */
import mqtt, { type MqttClient } from 'mqtt';

/** The order this process receives from run.ts. */
export interface TDevicesOrder {
  url: string;
  devices: { id: number; tangramId: string; secret: string }[];
  pointsPerS: number;
  points: number;
  window: number;
  seconds: number;
  tsBase: number;
  drainTimeoutS: number;
}

/** What this process reports: 'stopped' when the offered load ends, 'drained' at the end. */
export type TDevicesReport =
  | { type: 'connected' }
  | { type: 'stopped'; at: number }
  | {
      type: 'drained';
      at: number;
      complete: boolean;
      due: number;
      sent: number;
      acked: number;
      ackedByDevice: Record<number, number>;
      pubackMs: number[];
      ageMs: number[];
    };

const KEYS = ['temperature', 'humidity', 'vibration', 'current'];
const TICK_MS = 10;
/** Latency samples kept (a uniform sample keeps the percentiles honest without unbounded memory). */
const SAMPLE_MAX = 200_000;

interface TDevice {
  id: number;
  topic: string;
  client: MqttClient;
  sent: number;
  acked: number;
  inflight: number;
}

function payloadOf(from: number, n: number, tsBase: number): string {
  const parts: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const c = from + i;
    const key = KEYS[c % KEYS.length];
    const vs = key === 'vibration' ? '[0.01,-0.02,1]' : `[${20 + (c % 10)}]`;
    parts[i] = `{"key":"${key}","ts":${tsBase + c},"vs":${vs}}`;
  }
  return `[${parts.join(',')}]`;
}

class Sample {
  readonly values: number[] = [];
  private seen = 0;
  add(v: number): void {
    this.seen += 1;
    if (this.values.length < SAMPLE_MAX) this.values.push(v);
    else {
      const j = Math.floor(Math.random() * this.seen);
      if (j < SAMPLE_MAX) this.values[j] = v;
    }
  }
}

async function run(order: TDevicesOrder, report: (r: TDevicesReport) => Promise<void>): Promise<void> {
  const devices: TDevice[] = [];
  for (let i = 0; i < order.devices.length; i += 50) {
    const group = order.devices.slice(i, i + 50);
    const clients = await Promise.all(
      group.map((d) =>
        mqtt.connectAsync(order.url, {
          username: d.tangramId,
          password: d.secret,
          clientId: d.tangramId,
          reconnectPeriod: 1000,
          connectTimeout: 30_000,
        }),
      ),
    );
    for (const [j, d] of group.entries()) {
      devices.push({ id: d.id, topic: `devices/${d.tangramId}/telemetry`, client: clients[j], sent: 0, acked: 0, inflight: 0 });
    }
  }
  await report({ type: 'connected' });
  const puback = new Sample();
  const age = new Sample();
  const started = performance.now();
  const stopAt = started + order.seconds * 1000;
  const dueAt = (c: number) => started + (c / order.pointsPerS) * 1000;
  let stopped = false;
  let due = 0;

  const pump = (d: TDevice) => {
    while (d.inflight < order.window && d.sent < due && (due - d.sent >= order.points || stopped)) {
      const from = d.sent;
      const n = Math.min(order.points, due - from);
      d.sent += n;
      d.inflight += 1;
      const t0 = performance.now();
      d.client.publishAsync(d.topic, payloadOf(from, n, order.tsBase), { qos: 1 }).then(
        () => {
          const t = performance.now();
          puback.add(t - t0);
          age.add(t - dueAt(from));
          d.acked += n;
          d.inflight -= 1;
          pump(d);
        },
        () => {
          // A refused publish (connection closed and not resent) counts as not acknowledged.
          d.inflight -= 1;
        },
      );
    }
  };

  const final = await new Promise<TDevicesReport>((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now();
      if (!stopped) {
        due = Math.floor(((Math.min(now, stopAt) - started) / 1000) * order.pointsPerS);
        if (now >= stopAt) {
          stopped = true;
          void report({ type: 'stopped', at: Date.now() });
        }
      }
      for (const d of devices) pump(d);
      const done = devices.every((d) => d.acked >= due);
      const late = stopped && now > stopAt + order.drainTimeoutS * 1000;
      if ((stopped && done) || late) {
        clearInterval(timer);
        const ackedByDevice: Record<number, number> = {};
        for (const d of devices) ackedByDevice[d.id] = d.acked;
        resolve({
          type: 'drained',
          at: Date.now(),
          complete: done,
          due: due * devices.length,
          sent: devices.reduce((s, d) => s + d.sent, 0),
          acked: devices.reduce((s, d) => s + d.acked, 0),
          ackedByDevice,
          pubackMs: puback.values,
          ageMs: age.values,
        });
      }
    }, TICK_MS);
  });
  await Promise.all(devices.map((d) => d.client.endAsync(true).catch(() => undefined)));
  await report(final);
}

process.once('message', (order: TDevicesOrder) => {
  // Resolves once the message left (a disconnect right after a send could lose a large report).
  const send = (r: TDevicesReport) => new Promise<void>((resolve) => process.send?.(r, () => resolve()));
  run(order, send).then(
    () => process.disconnect(),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
});
