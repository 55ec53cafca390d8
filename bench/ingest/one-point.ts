/**
 * bench/ingest, 1-point mode: committed 1-point QoS 1 messages/s with the load in its own process
 * (one-point-load.ts, forked), so the server's CPU is its own. 100 devices (MQTT.js) each keep BENCH_WINDOW publishes
 * unacknowledged; the server (in this process, over a scratch PostgreSQL database) runs the demo's rules on the
 * key loaded: the demo's "Line overheating" platform rule and the demo's simple project rule, both on `temperature`.
 * Baseline in the same run: Debian's Mosquitto (`/usr/sbin/mosquitto`, anonymous, on a free loopback port) taking
 * the same load, publish → PUBACK. The two alternate for BENCH_ROUNDS rounds (this machine's speed drifts by tens of
 * per cent between minutes): each round's ratio is printed, and the figure is the median of the rounds. Then a paced
 * phase at half the median achieved rate: publish → PUBACK p50/p99.
 * Printed: msg/s of each, the server's, PostgreSQL's (every `postgres` process) and the load's CPU in cores, and the
 * whole machine's: on a shared machine the rest is other work, which the figures of that run compete with.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:ingest-1p -w @tessera/bench
 *   env: BENCH_ROUNDS (3) of a Mosquitto phase then a Tessera phase, BENCH_SECONDS (15) measured per phase after
 *        BENCH_WARMUP_S (3), BENCH_WINDOW (10), BENCH_DEVICES (100), BENCH_POOL (20) database connections,
 *        BENCH_RULES (both; platform, project or none: which of the demo's rules run); the server's INGEST_* settings
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { rulePaths } from '@tessera/contracts';
import { insertRunningDemoRule } from '@tessera/server/testing';
import { DEMO_RULE } from '../../apps/server/src/modules/demo/demo-data.js';
import { startBenchServer, type TBenchServer } from '../support/bench-server.js';
import { cpuMsBetween, cpuMsByComm, cpuMsOfPid, machineCpuMs } from '../support/proc-cpu.js';
import type { TLoadCommand, TLoadReport } from './one-point-load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 3);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 100);
const POOL = Number(process.env.BENCH_POOL ?? 20);
/** Which of the demo's rules run on the loaded key: `both` (the figure), `platform`, `project` or `none`. */
const RULES = (process.env.BENCH_RULES ?? 'both') as 'both' | 'platform' | 'project' | 'none';
const MOSQUITTO = '/usr/sbin/mosquitto';

type TReport<K extends TLoadReport['kind']> = Extract<TLoadReport, { kind: K }>;
/** A device as the load process logs it in. */
type TLoadDevice = { tangramId: string; secret: string };

/** The forked load process, one command at a time. */
class Load {
  private readonly child: ChildProcess;
  private readonly waiting: ((r: TLoadReport) => void)[] = [];
  private onWindow: (() => void) | null = null;

  constructor() {
    this.child = fork(new URL('./one-point-load.ts', import.meta.url).pathname, { execArgv: ['--import', 'tsx'] });
    this.child.on('message', (r: TLoadReport) => {
      if (r.kind === 'window') this.onWindow?.();
      else this.waiting.shift()?.(r);
    });
    this.child.on('exit', (code) => {
      if (code) throw new Error(`load process exited with ${code}`);
    });
  }

  /** Sends `cmd`; `onWindow` runs when the measured window starts. Answers the phase's report. */
  run<K extends TLoadReport['kind']>(cmd: TLoadCommand, onWindow: () => void = () => undefined): Promise<TReport<K>> {
    this.onWindow = onWindow;
    return new Promise((resolve) => {
      this.waiting.push((r) => resolve(r as TReport<K>));
      this.child.send(cmd);
    });
  }
}

/** What the server-side of a closed-loop phase used over the measured window. */
interface TSideCpu {
  /** Cores used by the broker's process (this one for Tessera, mosquitto's for the baseline). */
  brokerCores: number;
  /** Cores used by every `postgres` process. */
  pgCores: number;
  /** Cores the whole machine used (of its 2): what is left after broker, PostgreSQL and load is other work. */
  machineCores: number;
}

/** Samples the broker process's and PostgreSQL's CPU from the load's window start to `end()`. */
function sideCpu(brokerCpuMs: () => number): { start: () => void; end: (elapsedS: number) => TSideCpu } {
  let broker0 = 0;
  let pg0 = new Map<number, number>();
  let machine0 = 0;
  return {
    start: () => {
      broker0 = brokerCpuMs();
      pg0 = cpuMsByComm('postgres');
      machine0 = machineCpuMs();
    },
    end: (elapsedS) => ({
      brokerCores: (brokerCpuMs() - broker0) / 1000 / elapsedS,
      pgCores: cpuMsBetween(pg0, cpuMsByComm('postgres')) / 1000 / elapsedS,
      machineCores: (machineCpuMs() - machine0) / 1000 / elapsedS,
    }),
  };
}

const selfCpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const cores = (cpu: { userMs: number; systemMs: number }, s: number): number => (cpu.userMs + cpu.systemMs) / 1000 / s;
const f0 = (x: number): string => Math.round(x).toLocaleString('en-US');
const f2 = (x: number): string => x.toFixed(2);
const f1 = (x: number): string => x.toFixed(1);
/** CPU per message in µs: `cores` busy while `ratePerS` messages went through. */
const microsPerMessage = (cores: number, ratePerS: number): number => (cores * 1e6) / Math.max(1, ratePerS);

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** The baseline: Mosquitto alone under the same closed-loop load; answers its rate (msg/s) and the cores it used. */
async function mosquittoBaseline(devices: TLoadDevice[]): Promise<{ rate: number; cores: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-mosquitto-'));
  const port = await freePort();
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(conf, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nmax_inflight_messages 0\n`);
  const broker = spawn(MOSQUITTO, ['-c', conf], { stdio: 'ignore' });
  const load = new Load();
  try {
    await new Promise((r) => setTimeout(r, 300));
    await load.run({ kind: 'connect', port, devices });
    const side = sideCpu(() => cpuMsOfPid(broker.pid as number));
    const r = await load.run<'closed'>({ kind: 'closed', warmupS: WARMUP_S, seconds: SECONDS, window: WINDOW }, side.start);
    const cpu = side.end(r.elapsedS);
    const rate = r.acked / r.elapsedS;
    console.log(
      `Mosquitto alone (baseline): ${f0(rate)} msg/s acknowledged; mosquitto ${f2(cpu.brokerCores)} cores, load ${f2(cores(r.cpu, r.elapsedS))} cores; machine ${f2(cpu.machineCores)} of ${availableParallelism()} cores`,
    );
    await load.run({ kind: 'end' });
    return { rate, cores: cpu.brokerCores };
  } finally {
    broker.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One closed-loop phase against Tessera with a load process of its own; answers its committed rate (msg/s). */
async function tesseraPhase(bench: TBenchServer, devices: TLoadDevice[], baseline: { rate: number; cores: number }): Promise<number> {
  const { server } = bench;
  const load = new Load();
  await load.run({ kind: 'connect', port: server.mqttPort as number, devices });
  const side = sideCpu(selfCpuMs);
  const batches0 = { n: 0 };
  const r = await load.run<'closed'>({ kind: 'closed', warmupS: WARMUP_S, seconds: SECONDS, window: WINDOW }, () => {
    side.start();
    batches0.n = server.messaging.ingestCounters().batches;
  });
  const cpu = side.end(r.elapsedS);
  const batches = server.messaging.ingestCounters().batches - batches0.n;
  const rate = r.acked / r.elapsedS;
  console.log(
    `Tessera: ${f0(rate)} msg/s committed (${f0(r.acked / Math.max(1, batches))} per batch); server ${f2(cpu.brokerCores)} cores ` +
      `(${f1(microsPerMessage(cpu.brokerCores, rate))} µs per message; Mosquitto ${f1(microsPerMessage(baseline.cores, baseline.rate))}), ` +
      `PostgreSQL ${f2(cpu.pgCores)} cores, load ${f2(cores(r.cpu, r.elapsedS))} cores; machine ${f2(cpu.machineCores)} of ${availableParallelism()} cores`,
  );
  await load.run({ kind: 'end' });
  return rate;
}

/** The paced phase at `ratePerS`: publish → PUBACK latency, and the server's event-loop delay meanwhile. */
async function pacedPhase(bench: TBenchServer, devices: TLoadDevice[], ratePerS: number): Promise<void> {
  const load = new Load();
  await load.run({ kind: 'connect', port: bench.server.mqttPort as number, devices });
  const pacedSide = sideCpu(selfCpuMs);
  // The server's event-loop delay over the paced window: a PUBACK tail with a calm loop is the database's.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  const p = await load.run<'paced'>({ kind: 'paced', warmupS: WARMUP_S, seconds: SECONDS, ratePerS }, () => {
    pacedSide.start();
    loopDelay.enable();
  });
  loopDelay.disable();
  const pacedCpu = pacedSide.end(p.elapsedS);
  console.log(
    `paced at ${f0(ratePerS)} msg/s: sent ${f0(p.sent / p.elapsedS)} msg/s, publish → PUBACK p50 ${p.p50Ms.toFixed(1)} ms, ` +
      `p99 ${p.p99Ms.toFixed(1)} ms, max ${p.maxMs.toFixed(0)} ms (p99 ≤ 250 ms: ${p.p99Ms <= 250 ? 'met' : 'NOT met'}); ` +
      `server ${f2(pacedCpu.brokerCores)} cores (${f1(microsPerMessage(pacedCpu.brokerCores, p.acked / p.elapsedS))} µs per message), ` +
      `PostgreSQL ${f2(pacedCpu.pgCores)} cores; machine ${f2(pacedCpu.machineCores)} of ${availableParallelism()} cores`,
  );
  console.log(
    `  worst seconds' PUBACK p99: ${p.worstSeconds.map(([s, ms, n]) => `${s} s ${ms.toFixed(0)} ms (${n})`).join(', ')}; ` +
      `server event-loop delay p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(0)} ms`,
  );
  await load.run({ kind: 'end' });
}

const RULES_SHOWN = {
  both: 'demo platform rule and simple rule',
  platform: 'demo platform rule only',
  project: 'demo simple rule only',
  none: 'no rule',
} as const;

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

async function main(): Promise<void> {
  const bench = await startBenchServer({ devices: DEVICES, poolSize: POOL });
  const { server, project, database, token } = bench;
  try {
    if (RULES === 'both' || RULES === 'platform') await insertRunningDemoRule(database.db, project, 'temperature');
    if (RULES === 'both' || RULES === 'project') {
      const res = await server.app.inject({
        method: 'POST',
        url: rulePaths.simples(project.projectId),
        headers: { authorization: `Bearer ${token}` },
        payload: { ...DEMO_RULE, key: 'temperature' },
      });
      if (res.statusCode !== 201) throw new Error(`rule not created: ${res.statusCode} ${res.body}`);
    }
    const devices = project.devices.map((d) => ({ tangramId: d.tangramId, secret: d.secret }));
    console.log(
      `ingest 1-point: ${DEVICES} devices × ${WINDOW} unacknowledged 1-point QoS 1 publishes, load in its own process, ` +
        `${WARMUP_S} s warm-up + ${SECONDS} s measured; ${RULES_SHOWN[RULES]} on temperature; pool ${POOL}; ` +
        `${ROUNDS} rounds of Mosquitto then Tessera, each phase with a load process of its own`,
    );
    const rates: number[] = [];
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const baseline = await mosquittoBaseline(devices);
      const rate = await tesseraPhase(bench, devices, baseline);
      rates.push(rate);
      ratios.push(rate / baseline.rate);
      console.log(`  round ${round}: ${f2(rate / baseline.rate)}× Mosquitto`);
    }
    const rate = median(rates);
    const ratio = median(ratios);
    console.log(
      `median of ${ROUNDS} rounds: ${f0(rate)} msg/s (≥ 20,000 msg/s: ${rate >= 20_000 ? 'met' : 'NOT met'}); ` +
        `${f2(ratio)}× Mosquitto (rounds ${ratios.map(f2).join(', ')}; ≥ 0.5×: ${ratio >= 0.5 ? 'met' : 'NOT met'})`,
    );
    await pacedPhase(bench, devices, rate / 2);
    const stored = Number((await database.pool!.query('select count(*) as n from telemetry')).rows[0].n);
    console.log(`  telemetry rows stored ${f0(stored)}; ingest counters: ${JSON.stringify(server.messaging.ingestCounters())}`);
  } finally {
    await bench.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
