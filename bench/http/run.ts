/**
 * bench/http: what one HTTP request costs this server's CPU, route by route, beside the floor of a bare Fastify
 * route in the same process (docs/connectivity.md "What one HTTP request costs"). Targets, each a closed loop of
 * BENCH_SOCKETS keep-alive sockets from a forked load process:
 *   floor          a bare Fastify app (same Fastify version, no plugins, no logger): GET answering `{"ok":true}`
 *   not_found      the server: GET of an API path no route has (404 JSON)
 *   unauthorized   the server: GET of a vendor route without a token (401 JSON)
 *   health         the server: GET /healthz (one database ping)
 *   thingsboard    the server: POST /api/v1/{token}/telemetry, one point, 200 after the commit (1000 tokens)
 *   chirpstack     the server: POST /lorawan/v1/{id}/chirpstack?event=up, one point, 200 after the commit
 * Per target and round: requests/s, this process's CPU µs per request (user + system, process.cpuUsage between the
 * load's window marks) and PostgreSQL's (every `postgres` process, so other users of that server count too). Rounds
 * interleave the targets so the shared machine's noise falls on all of them; medians are printed.
 * BENCH_PROFILE=target[,target]: also samples a V8 CPU profile of that target in the last round and prints self time
 * by package and by function, per request (the .cpuprofile is written to /tmp/bench-http-<target>.cpuprofile).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx http/run.ts      (from bench/)
 *   env: BENCH_ROUNDS (3), BENCH_SECONDS (4) after BENCH_WARMUP_S (1), BENCH_SOCKETS (50), BENCH_TARGETS (all),
 *        BENCH_LOG_LEVEL (warn; `info` is the server's default, with Fastify's two lines per request)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import Fastify from 'fastify';
import pino from 'pino';
import { startBenchServer } from '../support/bench-server.js';
import { cpuMsBetween, cpuMsByComm } from '../support/proc-cpu.js';
import { buildConnectivitySetup } from '../connectivity/setup.js';
import { fmt, percentile, printTable } from '../overload/stats.js';
import type { TLoadCommand, TLoadReport, TTargetSpec } from './load.js';
import { printSummary, startProfiling, type TProfiling } from './profile.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 1);
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 50);
const PROFILE = new Set(process.env.BENCH_PROFILE?.split(',') ?? []);
const TARGETS = ['floor', 'not_found', 'unauthorized', 'health', 'thingsboard', 'chirpstack'] as const;
type TTarget = (typeof TARGETS)[number];
const ONLY = process.env.BENCH_TARGETS?.split(',');
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';

/** The forked load process, one phase at a time; `onWindow` runs at the window's start and end. */
class Load {
  private readonly child: ChildProcess;
  private onReport: (r: TLoadReport) => void = () => undefined;
  constructor() {
    this.child = fork(new URL('./load.ts', import.meta.url).pathname, { execArgv: ['--import', 'tsx'] });
    this.child.on('message', (r: TLoadReport) => this.onReport(r));
  }
  run(cmd: Extract<TLoadCommand, { kind: 'run' }>, onWindow: (at: 'start' | 'end') => void | Promise<void>) {
    return new Promise<Extract<TLoadReport, { kind: 'phase' }>>((resolve) => {
      this.onReport = (r) => (r.kind === 'window' ? void onWindow(r.at) : resolve(r));
      this.child.send(cmd);
    });
  }
  end(): void {
    this.child.send({ kind: 'end' } satisfies TLoadCommand);
  }
}

const cpuUs = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const loads = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

interface TRound {
  rate: number;
  serverUs: number;
  pgUs: number;
}

async function main(): Promise<void> {
  // BENCH_LOG_LEVEL=info: the server logs as it does by default, its lines written to /dev/null as a log pipe would take them.
  const log = pino({ level: LOG_LEVEL }, pino.destination({ dest: '/dev/null', sync: true }));
  const bench = await startBenchServer({ devices: 1 + 1000, poolSize: 20, log });
  const floorApp = Fastify();
  floorApp.get('/floor', async () => ({ ok: true }));
  await floorApp.listen({ port: 0, host: '127.0.0.1' });
  const floorPort = (floorApp.server.address() as { port: number }).port;
  const load = new Load();
  try {
    const setup = await buildConnectivitySetup(bench, {
      mqttDevices: 0,
      gatewayDevices: 0,
      httpDevices: 1000,
      lorawanProjects: 3,
      lorawanDevicesPerProject: 100,
      inFlight: SOCKETS,
    });
    const port = bench.server.httpPort;
    const specs: Record<TTarget, TTargetSpec> = {
      floor: { kind: 'fixed', port: floorPort, shape: { method: 'GET', path: '/floor' }, expectStatus: 200 },
      not_found: { kind: 'fixed', port, shape: { method: 'GET', path: '/frontstage/v1/bench-no-such-route' }, expectStatus: 404 },
      unauthorized: { kind: 'fixed', port, shape: { method: 'GET', path: '/frontstage/v1/products' }, expectStatus: 401 },
      health: { kind: 'fixed', port, shape: { method: 'GET', path: '/healthz' }, expectStatus: 200 },
      thingsboard: { kind: 'thingsboard', port, tokens: setup.httpDevices.map((d) => d.token) },
      chirpstack: {
        kind: 'chirpstack',
        port,
        integrations: setup.lorawan.map((l) => ({ path: l.path, secret: l.secret, devEuis: l.devices.map((d) => d.devEui) })),
      },
    };
    const targets = TARGETS.filter((t) => !ONLY || ONLY.includes(t) || t === 'floor');
    console.log(
      `bench/http: ${ROUNDS} rounds × ${targets.join(', ')}; ${SECONDS} s per phase, ${SOCKETS} sockets; server log level ${LOG_LEVEL}; load ${loads()}`,
    );
    const results = new Map<TTarget, TRound[]>(targets.map((t) => [t, []]));
    const phase = async (target: TTarget, profile: boolean): Promise<TRound> => {
      let cpu0 = 0;
      let cpu1 = 0;
      let pg0 = new Map<number, number>();
      let pg1 = new Map<number, number>();
      const profiling: { running: TProfiling | null } = { running: null };
      const r = await load.run(
        { kind: 'run', name: target, spec: specs[target], sockets: SOCKETS, warmupS: WARMUP_S, seconds: SECONDS },
        async (at) => {
          if (at === 'start') {
            if (profile) profiling.running = await startProfiling();
            pg0 = cpuMsByComm('postgres');
            cpu0 = cpuUs();
          } else {
            cpu1 = cpuUs();
            pg1 = cpuMsByComm('postgres');
          }
        },
      );
      const n = Math.max(1, r.answered);
      if (Object.keys(r.unexpected).length) console.log(`  ${target}: not as expected ${JSON.stringify(r.unexpected)}`);
      if (profiling.running) printSummary(`profile of ${target}`, await profiling.running.stop(`/tmp/bench-http-${target}.cpuprofile`), n);
      return { rate: r.answered / r.elapsedS, serverUs: (cpu1 - cpu0) / n, pgUs: (cpuMsBetween(pg0, pg1) * 1000) / n };
    };
    // An uncounted pass: JIT, caches, connections.
    for (const t of targets) await phase(t, false);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const t of targets) {
        const r = await phase(t, round === ROUNDS - 1 && PROFILE.has(t));
        results.get(t)?.push(r);
        console.log(`  round ${round + 1} ${t}: ${fmt(r.rate)} req/s, server ${fmt(r.serverUs)} µs/req, PostgreSQL ${fmt(r.pgUs)} µs/req`);
      }
    }
    const med = (xs: number[]) => percentile(xs, 50);
    const floorUs = med((results.get('floor') ?? []).map((r) => r.serverUs));
    console.log(`\nmedians over ${ROUNDS} rounds; load average at the end ${loads()}`);
    printTable(
      ['target', 'req/s', 'server CPU µs/req', '× floor', 'PostgreSQL CPU µs/req'],
      targets.map((t) => {
        const rs = results.get(t) ?? [];
        const us = med(rs.map((r) => r.serverUs));
        return [t, fmt(med(rs.map((r) => r.rate))), fmt(us), `${(us / floorUs).toFixed(1)}×`, fmt(med(rs.map((r) => r.pgUs)))];
      }),
    );
  } finally {
    load.end();
    await floorApp.close();
    await bench.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
