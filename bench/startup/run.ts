/**
 * bench/startup: how long the server takes from `spawn` to its first `/healthz` 200 — what a process manager or a
 * load balancer waits for — started the production way (`node --enable-source-maps apps/server/dist/main.js`, the
 * bundle `npm run build` makes) and, as the baseline in the same run, the way `npm run start:server` starts it
 * (`node --import tsx apps/server/src/main.ts`, TypeScript compiled at start). Both run embedded (PGlite, Aedes),
 * without the demo, on free ports, alternating run by run so both see the same machine.
 *
 * Two cases: a fresh PGlite data directory (first start: creates the database and runs every migration) and a
 * restart on a data directory that already holds the schema. Printed per way and case: the median and the fastest of
 * BENCH_RUNS starts in milliseconds, and the process's CPU time and resident memory at that moment.
 *
 *   npm run build && npm run bench:startup -w @tessera/bench
 *   env: BENCH_RUNS (5) starts per way and case
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuMsOfPid } from '../support/proc-cpu.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const START_DEADLINE_MS = 120_000;
const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const bundle = join(root, 'apps/server/dist/main.js');

/** A way of starting the server: node's arguments, run from the repository root. */
interface TWay {
  name: string;
  args: string[];
}

const WAYS: TWay[] = [
  { name: 'compiled (start:prod)', args: ['--enable-source-maps', bundle] },
  { name: 'tsx (start:server, baseline)', args: ['--import', 'tsx', 'apps/server/src/main.ts'] },
];

/** One start: milliseconds to the first /healthz 200, CPU ms and resident MiB of the process then. */
interface TStart {
  ms: number;
  cpuMs: number;
  rssMiB: number;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });
}

function residentMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Number(line[1]) / 1024 : Number.NaN;
}

/** Starts the server `way` on `dataDir`, waits for /healthz 200, measures, stops it with SIGTERM and waits. */
async function startOnce(way: TWay, dataDir: string): Promise<TStart> {
  const [httpPort, mqttPort] = [await freePort(), await freePort()];
  const started = performance.now();
  const child = spawn(process.execPath, way.args, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(httpPort),
      MQTT_PORT: String(mqttPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  let exitCode: number | null | undefined;
  void exited.then((code) => {
    exitCode = code;
  });
  try {
    for (;;) {
      if (exitCode !== undefined) throw new Error(`${way.name}: the server exited with code ${exitCode} during start-up`);
      if (performance.now() - started > START_DEADLINE_MS) throw new Error(`${way.name}: no /healthz 200 within ${START_DEADLINE_MS} ms`);
      const ok = await fetch(`http://127.0.0.1:${httpPort}/healthz`).then(
        (res) => res.status === 200,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const ms = performance.now() - started;
    const pid = child.pid ?? 0;
    return { ms, cpuMs: cpuMsOfPid(pid), rssMiB: residentMiB(pid) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  if (!existsSync(bundle)) {
    console.error(`bench/startup: ${bundle} is missing; run \`npm run build\` first`);
    process.exit(1);
  }
  console.log(`bench/startup: node ${process.version}, ${RUNS} starts per way and case, alternating`);
  const scratch = mkdtempSync(join(tmpdir(), 'tessera-startup-'));
  const results = new Map<string, TStart[]>();
  const record = (key: string, start: TStart) => results.set(key, [...(results.get(key) ?? []), start]);
  try {
    // A data directory per way that keeps its schema across the restart runs (made by an unmeasured first start).
    const kept = new Map<TWay, string>();
    for (const way of WAYS) {
      const dir = join(scratch, `kept-${WAYS.indexOf(way)}`);
      await startOnce(way, dir);
      kept.set(way, dir);
    }
    for (let run = 0; run < RUNS; run++) {
      const order = run % 2 === 0 ? WAYS : [...WAYS].reverse();
      for (const way of order) {
        const fresh = join(scratch, `fresh-${run}-${WAYS.indexOf(way)}`);
        record(`${way.name}|fresh`, await startOnce(way, fresh));
        rmSync(fresh, { recursive: true, force: true });
        record(`${way.name}|restart`, await startOnce(way, kept.get(way) ?? ''));
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  for (const kind of ['fresh', 'restart'] as const) {
    console.log(kind === 'fresh' ? '\nfirst start (fresh PGlite data directory, every migration):' : '\nrestart (schema in place):');
    for (const way of WAYS) {
      const starts = results.get(`${way.name}|${kind}`) ?? [];
      const ms = starts.map((s) => s.ms);
      console.log(
        `  ${way.name.padEnd(30)} median ${median(ms).toFixed(0).padStart(5)} ms  fastest ${Math.min(...ms)
          .toFixed(0)
          .padStart(5)} ms` +
          `  CPU ${median(starts.map((s) => s.cpuMs))
            .toFixed(0)
            .padStart(5)} ms  RSS ${median(starts.map((s) => s.rssMiB)).toFixed(0)} MiB`,
      );
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
