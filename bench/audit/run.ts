/**
 * bench/audit: what the audit log costs a mutation-heavy HTTP load (docs/decisions/audit-log.md "Cost"). Two servers
 * over scratch PostgreSQL databases in this process: one recording (AUDIT_LOG on, the default) and one not (off).
 * Phases alternate between them, one server loaded at a time: CONCURRENCY workers PUT a device's nickname (each request
 * changes it, so every one is an entry with a before and after) for SECONDS; requests/s, p99, this process's CPU per
 * request, the CPU per request of the PostgreSQL backends serving that server's database, and the statements sent per
 * request (counted at the driver), each beside the other server's of the same run. The statement count holds on a
 * loaded machine; requests/s and CPU per request (which carries both servers' background work) need a quiet one.
 * Ingest is not measured here: it never passes through an HTTP route, so nothing of the audit log runs on it.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:audit -w @tessera/bench
 *   env: BENCH_SECONDS (8) per phase after BENCH_WARMUP_S (2), BENCH_ROUNDS (3) alternations, BENCH_DEVICES (50),
 *        BENCH_HTTP_CONCURRENCY (16); BENCH_AUDIT_SQL=1 prints each distinct statement text once
 */
import { paths } from '@tessera/contracts';
import { auditLog } from '@tessera/server';
import { count } from 'drizzle-orm';
import pg from 'pg';
import { startBenchServer, type TBenchServer } from '../support/bench-server.js';
import { cpuMsOfPid } from '../support/proc-cpu.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 50);
const CONCURRENCY = Number(process.env.BENCH_HTTP_CONCURRENCY ?? 16);

/**
 * Statements sent to PostgreSQL by this process (both servers: only one is loaded at a time), counted at the driver.
 * BENCH_AUDIT_SQL=1 prints each distinct statement text once, to see what a request sends.
 */
let statements = 0;
const seenSql = new Set<string>();
const clientQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
  statements += 1;
  if (process.env.BENCH_AUDIT_SQL === '1') {
    const q = args[0] as string | { text?: string; name?: string };
    const text = typeof q === 'string' ? q : (q?.text ?? q?.name ?? '?');
    if (!seenSql.has(text)) {
      seenSql.add(text);
      console.log(`SQL: ${text.slice(0, 300)}`);
    }
  }
  return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof clientQuery;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** CPU so far (ms) of each PostgreSQL backend serving `bench`'s database (pid → ms). */
async function backendCpu(bench: TBenchServer): Promise<Map<number, number>> {
  const { rows } = await bench.database.pool!.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database()');
  return new Map(rows.map((r) => [r.pid, cpuMsOfPid(r.pid)]));
}

/**
 * One phase against `bench`: requests/s, p99 ms, CPU µs per request of this process (server and client) and of the
 * PostgreSQL backends serving its database (a backend that connected during the phase counts whole), statements per
 * request.
 */
async function putPhase(
  bench: TBenchServer,
): Promise<{ rate: number; p99Ms: number; usPerReq: number; pgUsPerReq: number; statementsPerReq: number }> {
  const headers = { authorization: `Bearer ${bench.token}`, 'content-type': 'application/json' };
  const latencies: number[] = [];
  const warmEnd = Date.now() + WARMUP_S * 1000;
  const end = warmEnd + SECONDS * 1000;
  let cpu0: number | null = null;
  let statements0: number | null = null;
  let pgCpu0 = new Map<number, number>();
  const pgCpuAtWarmEnd = new Promise<void>((resolve) =>
    setTimeout(() => {
      void backendCpu(bench).then((m) => {
        pgCpu0 = m;
        resolve();
      });
    }, WARMUP_S * 1000),
  );
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
        statements0 ??= statements;
        latencies.push(performance.now() - t0);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(w)));
  const used = cpuMs() - (cpu0 ?? cpuMs());
  const sent = statements - (statements0 ?? statements);
  await pgCpuAtWarmEnd;
  let pgUsed = 0;
  for (const [pid, ms] of await backendCpu(bench)) pgUsed += ms - (pgCpu0.get(pid) ?? 0);
  latencies.sort((a, b) => a - b);
  return {
    rate: latencies.length / SECONDS,
    p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    usPerReq: (used * 1000) / Math.max(1, latencies.length),
    pgUsPerReq: (pgUsed * 1000) / Math.max(1, latencies.length),
    statementsPerReq: sent / Math.max(1, latencies.length),
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
    sqlOn: [] as number[],
    sqlOff: [] as number[],
    pgOn: [] as number[],
    pgOff: [] as number[],
  };
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternate which goes first, so a drift of the shared machine's load does not favour one side.
      for (const side of round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
        const r = await putPhase(side === 'on' ? on : off);
        f[side].push(r.rate);
        (side === 'on' ? f.p99On : f.p99Off).push(r.p99Ms);
        (side === 'on' ? f.cpuOn : f.cpuOff).push(r.usPerReq);
        (side === 'on' ? f.sqlOn : f.sqlOff).push(r.statementsPerReq);
        (side === 'on' ? f.pgOn : f.pgOff).push(r.pgUsPerReq);
        console.log(
          `round ${round + 1} audit ${side}: PUT device ${Math.round(r.rate)} req/s, p99 ${r.p99Ms.toFixed(1)} ms, ${r.usPerReq.toFixed(0)} µs CPU/req, PostgreSQL ${r.pgUsPerReq.toFixed(0)} µs/req, ${r.statementsPerReq.toFixed(2)} statements/req`,
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
    `PUT device: audit on ${Math.round(mean(f.on))} req/s, off ${Math.round(mean(f.off))} req/s (${pct(mean(f.on), mean(f.off))}); p99 on ${mean(f.p99On).toFixed(1)} ms, off ${mean(f.p99Off).toFixed(1)} ms; CPU/req on ${mean(f.cpuOn).toFixed(0)} µs, off ${mean(f.cpuOff).toFixed(0)} µs (${pct(mean(f.cpuOn), mean(f.cpuOff))}); PostgreSQL CPU/req on ${mean(f.pgOn).toFixed(0)} µs, off ${mean(f.pgOff).toFixed(0)} µs (${pct(mean(f.pgOn), mean(f.pgOff))}); statements/req on ${mean(f.sqlOn).toFixed(2)}, off ${mean(f.sqlOff).toFixed(2)}`,
  );
  process.exit(0);
}

await main();
