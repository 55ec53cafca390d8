/**
 * bench/metrics: what the Prometheus metrics cost (docs/deployment.md "Metrics"). Two servers over scratch PostgreSQL
 * databases in this process: one with METRICS_TOKEN, scraped every BENCH_SCRAPE_MS (15 s, Prometheus' default), and one
 * without (no metrics kept). Phases alternate between them, one server loaded at a time so this process's CPU is
 * that server's: (1) ingest — 1-point QoS 1 publishes from MQTT.js devices in a forked process (bench/ingest's
 * one-point load), committed msg/s and server CPU per message; (2) HTTP — concurrent GETs of a device's detail,
 * requests/s and p99. Each figure is printed beside the other server's of the same run.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:metrics -w @tessera/bench
 *   env: BENCH_SECONDS (8) per phase after BENCH_WARMUP_S (2), BENCH_ROUNDS (3) alternations, BENCH_DEVICES (50),
 *        BENCH_WINDOW (10) unacknowledged publishes per device, BENCH_HTTP_CONCURRENCY (16)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { paths } from '@tessera/contracts';
import { startBenchServer, type TBenchServer } from '../support/bench-server.js';
import type { TLoadCommand, TLoadReport } from '../ingest/one-point-load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 50);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 10);
const CONCURRENCY = Number(process.env.BENCH_HTTP_CONCURRENCY ?? 16);
const SCRAPE_MS = Number(process.env.BENCH_SCRAPE_MS ?? 15_000);
const TOKEN = 'bench-metrics-token-0123456789abcdef';

/** The forked load process of bench/ingest (one command at a time). */
class Load {
  private readonly child: ChildProcess;
  private readonly waiting: ((r: TLoadReport) => void)[] = [];
  private onWindow: () => void = () => undefined;
  constructor() {
    this.child = fork(new URL('../ingest/one-point-load.ts', import.meta.url).pathname, { execArgv: ['--import', 'tsx'] });
    this.child.on('message', (r: TLoadReport) => (r.kind === 'window' ? this.onWindow() : this.waiting.shift()?.(r)));
  }
  run<K extends TLoadReport['kind']>(
    cmd: TLoadCommand,
    onWindow: () => void = () => undefined,
  ): Promise<Extract<TLoadReport, { kind: K }>> {
    this.onWindow = onWindow;
    return new Promise((resolve) => {
      this.waiting.push((r) => resolve(r as Extract<TLoadReport, { kind: K }>));
      this.child.send(cmd);
    });
  }
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** One closed-loop ingest phase against `bench`: committed msg/s and this process's CPU µs per message. */
async function ingestPhase(bench: TBenchServer): Promise<{ rate: number; usPerMsg: number }> {
  const load = new Load();
  await load.run({ kind: 'connect', port: bench.server.mqttPort as number, devices: bench.project.devices });
  let cpu0 = 0;
  const r = await load.run<'closed'>({ kind: 'closed', warmupS: WARMUP_S, seconds: SECONDS, window: WINDOW }, () => {
    cpu0 = cpuMs();
  });
  const used = cpuMs() - cpu0;
  await load.run({ kind: 'end' });
  return { rate: r.acked / r.elapsedS, usPerMsg: (used * 1000) / Math.max(1, r.acked) };
}

/** One HTTP phase: CONCURRENCY workers GET a device's detail for SECONDS; requests/s and p99 ms. */
async function httpPhase(bench: TBenchServer): Promise<{ rate: number; p99Ms: number }> {
  const url = `http://127.0.0.1:${bench.server.httpPort}${paths.device(bench.project.devices[0].tangramId)}`;
  const headers = { authorization: `Bearer ${bench.token}` };
  const latencies: number[] = [];
  const warmEnd = Date.now() + WARMUP_S * 1000;
  const end = warmEnd + SECONDS * 1000;
  const worker = async () => {
    while (Date.now() < end) {
      const t0 = performance.now();
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET device answered ${res.status}`);
      if (Date.now() >= warmEnd) latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  latencies.sort((a, b) => a - b);
  return { rate: latencies.length / SECONDS, p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? 0 };
}

/** Scrapes `bench`'s /metrics every SCRAPE_MS until stopped; answers how to stop it and the scrapes' mean ms. */
function scrapeRegularly(bench: TBenchServer): { stop: () => { scrapes: number; meanMs: number } } {
  let scrapes = 0;
  let totalMs = 0;
  const timer = setInterval(async () => {
    const t0 = performance.now();
    const res = await fetch(`http://127.0.0.1:${bench.server.httpPort}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    await res.text();
    if (res.status === 200) {
      scrapes += 1;
      totalMs += performance.now() - t0;
    }
  }, SCRAPE_MS);
  return {
    stop: () => {
      clearInterval(timer);
      return { scrapes, meanMs: totalMs / Math.max(1, scrapes) };
    },
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const pct = (on: number, off: number) => `${(((on - off) / off) * 100).toFixed(1)} %`;

async function main(): Promise<void> {
  const on = await startBenchServer({ devices: DEVICES, metricsToken: TOKEN });
  const off = await startBenchServer({ devices: DEVICES });
  const scraper = scrapeRegularly(on);
  const figures = { ingestOn: [] as number[], ingestOff: [] as number[], cpuOn: [] as number[], cpuOff: [] as number[] };
  const http = { on: [] as number[], off: [] as number[], p99On: [] as number[], p99Off: [] as number[] };
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternate which goes first, so a drift of the shared machine's load does not favour one side.
      for (const side of round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
        const i = await ingestPhase(side === 'on' ? on : off);
        (side === 'on' ? figures.ingestOn : figures.ingestOff).push(i.rate);
        (side === 'on' ? figures.cpuOn : figures.cpuOff).push(i.usPerMsg);
        const h = await httpPhase(side === 'on' ? on : off);
        http[side].push(h.rate);
        (side === 'on' ? http.p99On : http.p99Off).push(h.p99Ms);
        console.log(
          `round ${round + 1} metrics ${side}: ingest ${Math.round(i.rate)} msg/s (${i.usPerMsg.toFixed(0)} µs CPU/msg), HTTP ${Math.round(h.rate)} req/s p99 ${h.p99Ms.toFixed(1)} ms`,
        );
      }
    }
  } finally {
    const s = scraper.stop();
    console.log(`scrapes of the metrics server every ${SCRAPE_MS} ms: ${s.scrapes}, ${s.meanMs.toFixed(1)} ms each on average`);
    // What one scrape costs this process, measured back to back with no load: CPU ms per scrape.
    const cpu0 = cpuMs();
    for (let i = 0; i < 50; i += 1) {
      const res = await fetch(`http://127.0.0.1:${on.server.httpPort}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      await res.text();
    }
    console.log(`one scrape costs the server ${((cpuMs() - cpu0) / 50).toFixed(1)} ms of CPU (50 back to back, idle)`);
    await on.stop();
    await off.stop();
  }
  console.log(
    `ingest: metrics on ${Math.round(mean(figures.ingestOn))} msg/s, off ${Math.round(mean(figures.ingestOff))} msg/s (${pct(mean(figures.ingestOn), mean(figures.ingestOff))}); CPU per message on ${mean(figures.cpuOn).toFixed(0)} µs, off ${mean(figures.cpuOff).toFixed(0)} µs (${pct(mean(figures.cpuOn), mean(figures.cpuOff))})`,
  );
  console.log(
    `HTTP: metrics on ${Math.round(mean(http.on))} req/s, off ${Math.round(mean(http.off))} req/s (${pct(mean(http.on), mean(http.off))}); p99 on ${mean(http.p99On).toFixed(1)} ms, off ${mean(http.p99Off).toFixed(1)} ms`,
  );
  process.exit(0);
}

await main();
