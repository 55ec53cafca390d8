/**
 * bench/audit: what the audit log costs a mutation-heavy HTTP load (docs/decisions/audit-log.md "Cost"). Two servers
 * over scratch PostgreSQL databases in this process: one recording (AUDIT_LOG on, the default) and one not (off).
 * Phases alternate between them, one server loaded at a time: CONCURRENCY workers PUT a device's nickname (each request
 * changes it, so every one is an entry with a before and after) for SECONDS; requests/s, p99 and this process's CPU
 * per request, each beside the other server's of the same run. Ingest is not measured here: it never passes through an
 * HTTP route, so nothing of the audit log runs on it.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:audit -w @tessera/bench
 *   env: BENCH_SECONDS (8) per phase after BENCH_WARMUP_S (2), BENCH_ROUNDS (3) alternations, BENCH_DEVICES (50),
 *        BENCH_HTTP_CONCURRENCY (16)
 */
import { paths } from '@tessera/contracts';
import { auditLog } from '@tessera/server';
import { count } from 'drizzle-orm';
import { startBenchServer, type TBenchServer } from '../support/bench-server.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 50);
const CONCURRENCY = Number(process.env.BENCH_HTTP_CONCURRENCY ?? 16);

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** One phase against `bench`: requests/s, p99 ms and CPU µs per request (this process: server and client). */
async function putPhase(bench: TBenchServer): Promise<{ rate: number; p99Ms: number; usPerReq: number }> {
  const headers = { authorization: `Bearer ${bench.token}`, 'content-type': 'application/json' };
  const latencies: number[] = [];
  const warmEnd = Date.now() + WARMUP_S * 1000;
  const end = warmEnd + SECONDS * 1000;
  let cpu0: number | null = null;
  let n = 0;
  const worker = async (w: number) => {
    while (Date.now() < end) {
      const device = bench.project.devices[(n + w) % bench.project.devices.length];
      n += 1;
      const t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${bench.server.httpPort}${paths.device(device.tangramId)}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ nickname: `n${n}` }),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`PUT device answered ${res.status}`);
      if (Date.now() >= warmEnd) {
        cpu0 ??= cpuMs();
        latencies.push(performance.now() - t0);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(w)));
  const used = cpuMs() - (cpu0 ?? cpuMs());
  latencies.sort((a, b) => a - b);
  return {
    rate: latencies.length / SECONDS,
    p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    usPerReq: (used * 1000) / Math.max(1, latencies.length),
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const pct = (on: number, off: number) => `${(((on - off) / off) * 100).toFixed(1)} %`;

async function main(): Promise<void> {
  const on = await startBenchServer({ devices: DEVICES, auditLog: true });
  const off = await startBenchServer({ devices: DEVICES, auditLog: false });
  const f = {
    on: [] as number[],
    off: [] as number[],
    p99On: [] as number[],
    p99Off: [] as number[],
    cpuOn: [] as number[],
    cpuOff: [] as number[],
  };
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternate which goes first, so a drift of the shared machine's load does not favour one side.
      for (const side of round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
        const r = await putPhase(side === 'on' ? on : off);
        f[side].push(r.rate);
        (side === 'on' ? f.p99On : f.p99Off).push(r.p99Ms);
        (side === 'on' ? f.cpuOn : f.cpuOff).push(r.usPerReq);
        console.log(
          `round ${round + 1} audit ${side}: PUT device ${Math.round(r.rate)} req/s, p99 ${r.p99Ms.toFixed(1)} ms, ${r.usPerReq.toFixed(0)} µs CPU/req`,
        );
      }
    }
    const [entries] = await on.database.db.select({ n: count() }).from(auditLog);
    const [none] = await off.database.db.select({ n: count() }).from(auditLog);
    console.log(`audit entries written: on ${entries.n}, off ${none.n}`);
  } finally {
    await on.stop();
    await off.stop();
  }
  console.log(
    `PUT device: audit on ${Math.round(mean(f.on))} req/s, off ${Math.round(mean(f.off))} req/s (${pct(mean(f.on), mean(f.off))}); p99 on ${mean(f.p99On).toFixed(1)} ms, off ${mean(f.p99Off).toFixed(1)} ms; CPU/req on ${mean(f.cpuOn).toFixed(0)} µs, off ${mean(f.cpuOff).toFixed(0)} µs (${pct(mean(f.cpuOn), mean(f.cpuOff))})`,
  );
  process.exit(0);
}

await main();
