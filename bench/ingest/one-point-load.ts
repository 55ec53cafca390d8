/**
 * The load of bench/ingest/one-point.ts, in its own process (forked by it, so its CPU is not the server's): MQTT.js
 * device clients publishing 1-point QoS 1 `temperature` messages to a broker on 127.0.0.1, either closed-loop (each
 * device keeps `window` publishes unacknowledged) or paced (each device publishes every `periodMs` whatever is
 * unacknowledged). Driven over the fork's IPC channel with {@link TLoadCommand}s; answers {@link TLoadReport}s.
 */
import { topics } from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import { connectDevices } from '../support/devices.js';
import { percentile, worstSeconds } from '../overload/stats.js';

/** What the parent asks of the load process. */
export type TLoadCommand =
  | { kind: 'connect'; port: number; devices: { tangramId: string; secret: string }[] }
  | { kind: 'closed'; warmupS: number; seconds: number; window: number }
  | { kind: 'paced'; warmupS: number; seconds: number; ratePerS: number; samples?: boolean }
  | { kind: 'end' };

/** CPU time of the load process over the measured window, ms (process.cpuUsage). */
export interface TLoadCpu {
  userMs: number;
  systemMs: number;
}

/** What the load process answers: `window` when its measured window starts, then the phase's figures. */
export type TLoadReport =
  | { kind: 'connected' }
  | { kind: 'window' }
  | { kind: 'closed'; acked: number; elapsedS: number; cpu: TLoadCpu }
  | {
      kind: 'paced';
      sent: number;
      acked: number;
      elapsedS: number;
      p50Ms: number;
      p99Ms: number;
      maxMs: number;
      /** The three seconds of the window with the highest p99: [second from the window's start, p99 ms, samples]. */
      worstSeconds: [number, number, number][];
      /** With `samples` asked: every acknowledged publish as [s from the window's start it was sent at, ms to its PUBACK]. */
      samples?: [number, number][];
      cpu: TLoadCpu;
    }
  | { kind: 'ended' };

let clients: MqttClient[] = [];
let topicsOf: string[] = [];
/** Each device's last point ts: every point gets a ts of its own (a repeated one would be absorbed as a resend). */
let lastTs: number[] = [];

const send = (report: TLoadReport): void => {
  process.send?.(report);
};

function payloadOf(di: number, n: number): string {
  const ts = Math.max(Date.now(), (lastTs[di] as number) + 1);
  lastTs[di] = ts;
  return JSON.stringify({ key: 'temperature', ts, vs: [20 + (n % 10)] });
}

/** Waits out warm-up plus `seconds` (calling `onWindow` when the measured part starts); answers the CPU and wall time of the measured part. */
async function measured(
  warmupS: number,
  seconds: number,
  onWindow: () => void,
): Promise<{ cpu: TLoadCpu; elapsedS: number; stopAt: number }> {
  const start = performance.now();
  const windowAt = start + warmupS * 1000;
  const stopAt = windowAt + seconds * 1000;
  await new Promise((r) => setTimeout(r, windowAt - performance.now()));
  onWindow();
  send({ kind: 'window' });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, stopAt - performance.now()));
  const cpu = process.cpuUsage(cpu0);
  return { cpu: { userMs: cpu.user / 1000, systemMs: cpu.system / 1000 }, elapsedS: (performance.now() - t0) / 1000, stopAt };
}

async function closedLoop(warmupS: number, seconds: number, window: number): Promise<void> {
  let counting = false;
  let acked = 0;
  let running = true;
  const loops = clients.flatMap((client, di) =>
    Array.from({ length: window }, async () => {
      for (let n = 0; running; n++) {
        await client.publishAsync(topicsOf[di] as string, payloadOf(di, n), { qos: 1 });
        if (counting) acked += 1;
      }
    }),
  );
  const m = await measured(warmupS, seconds, () => {
    counting = true;
  });
  counting = false;
  const counted = acked;
  running = false;
  await Promise.all(loops);
  send({ kind: 'closed', acked: counted, elapsedS: m.elapsedS, cpu: m.cpu });
}

async function paced(warmupS: number, seconds: number, ratePerS: number, samples = false): Promise<void> {
  const periodMs = (1000 * clients.length) / ratePerS;
  const latencies: number[] = [];
  const startedAtS: number[] = [];
  const pending: Promise<void>[] = [];
  let counting = false;
  let countingFrom = 0;
  let sent = 0;
  let running = true;
  const devices = clients.map(async (client, di) => {
    await new Promise((r) => setTimeout(r, Math.random() * periodMs));
    for (let n = 0, next = performance.now(); running; n++) {
      const t0 = performance.now();
      const counted = counting;
      if (counted) sent += 1;
      pending.push(
        client.publishAsync(topicsOf[di] as string, payloadOf(di, n), { qos: 1 }).then(() => {
          if (!counted) return;
          latencies.push(performance.now() - t0);
          startedAtS.push((t0 - countingFrom) / 1000);
        }),
      );
      next += periodMs;
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
    }
  });
  const m = await measured(warmupS, seconds, () => {
    counting = true;
    countingFrom = performance.now();
  });
  counting = false;
  running = false;
  await Promise.all(devices);
  await Promise.all(pending);
  const maxMs = latencies.reduce((a, b) => Math.max(a, b), 0);
  send({
    kind: 'paced',
    sent,
    acked: latencies.length,
    elapsedS: m.elapsedS,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs,
    worstSeconds: worstSeconds(latencies, startedAtS, 3),
    ...(samples ? { samples: startedAtS.map((s, i): [number, number] => [s, latencies[i] as number]) } : {}),
    cpu: m.cpu,
  });
}

process.on('message', (cmd: TLoadCommand) => {
  const run = async (): Promise<void> => {
    if (cmd.kind === 'connect') {
      clients = await connectDevices(cmd.port, cmd.devices);
      topicsOf = cmd.devices.map((d) => topics.telemetry(d.tangramId));
      lastTs = cmd.devices.map(() => 0);
      send({ kind: 'connected' });
    } else if (cmd.kind === 'closed') await closedLoop(cmd.warmupS, cmd.seconds, cmd.window);
    else if (cmd.kind === 'paced') await paced(cmd.warmupS, cmd.seconds, cmd.ratePerS, cmd.samples);
    else {
      await Promise.all(clients.map((c) => c.endAsync(true)));
      send({ kind: 'ended' });
      process.disconnect();
    }
  };
  run().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
});
