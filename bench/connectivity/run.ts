/**
 * bench/connectivity: each way a device's data comes in — native MQTT, ThingsBoard MQTT (access token), ThingsBoard
 * gateway MQTT (one gateway, BENCH_GATEWAY_DEVICES devices behind it), ThingsBoard HTTP, a ChirpStack v4 uplink
 * webhook, ChirpStack v4's MQTT integration (`lorawan-mqtt`: uplinks published to a Mosquitto of the bench's own that
 * the server subscribes to) — measured in one run against the native topic's figures of the same run (docs/connectivity.md).
 *
 * The server runs in this process over a scratch PostgreSQL database; the load in its own process (load.ts, forked).
 * Each message is one `temperature` point, acknowledged once committed (PUBACK for QoS 1, the HTTP 200). Per round
 * and way: a closed loop (BENCH_IN_FLIGHT messages always unacknowledged) gives messages/s; then a paced phase at one
 * rate for every way (BENCH_PACED_RATE, else half the slowest way's closed-loop rate of the first round) gives
 * publish → commit p50/p99. Rounds interleave the ways (native, thingsboard, gateway, http, lorawan, native, …) so
 * the shared machine's noise falls on all alike; the figures printed are each way's median over the rounds and the
 * median of its per-round ratio to native. A first pass through every way, at least a message per device, is not
 * counted (caches, devices coming online, JIT, connections). Each closed loop prints the CPU per message of the server,
 * PostgreSQL and the load, and how busy the server's event loop was (its one thread).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:connectivity -w @tessera/bench
 *   env: BENCH_ROUNDS (3), BENCH_SECONDS (6) measured per phase after BENCH_WARMUP_S (2), BENCH_IN_FLIGHT (200),
 *        BENCH_PACED_RATE (msg/s), BENCH_MQTT_DEVICES (100), BENCH_GATEWAY_DEVICES (100), BENCH_HTTP_DEVICES (3000:
 *        the HTTP API allows 100 requests per 10 s per token), BENCH_LORAWAN_PROJECTS (30: ten integrations each, 1000
 *        requests per 10 s per integration), BENCH_LORAWAN_DEVICES (200 per LoRaWAN project, a tenth behind each
 *        of its integrations), BENCH_LORAWAN_MQTT_PROJECTS (2: ten integrations over ChirpStack's MQTT
 *        integration each, on a Mosquitto of the bench's own), BENCH_POOL (20) database connections, BENCH_WAYS (all;
 *        native always), BENCH_PROFILE (ways: a V8 CPU profile of the server's process over that way's closed loop in
 *        the last round, printed as self time per message by package and function and written to
 *        /tmp/bench-connectivity-<way>.cpuprofile; for the webhook on the device port, the device HTTP thread's too,
 *        in /tmp/bench-connectivity-device-http-thread.cpuprofile), BENCH_STATEMENTS (1: the server's SQL statements per message of
 *        each way's last closed loop, by their first words), BENCH_HTTP_CLIENT (the load's HTTP client for ThingsBoard
 *        HTTP and the webhook alike: `dispatch` (default), undici's keep-alive Pool through dispatch() with a handler
 *        that drops the answer's bytes — the same requests on the wire for the least of the load's CPU, which the
 *        server shares on a 2-core machine; `undici`, the same Pool through request(); `node`, Node's http.request
 *        over a keep-alive Agent, the default before 28 Nov 2026), BENCH_LORAWAN_PORT (where the webhook is posted:
 *        `device` (default), the device HTTP port (DEVICE_HTTP_PORT, parsed on its own thread, as an operator pointing
 *        network servers at the platform would run it); `main`, the main HTTP port (the console's thread)),
 *        BENCH_MOSQUITTO_NODELAY (1: the bench's Mosquitto sets `set_tcp_nodelay true`, as an operator may on
 *        ChirpStack's broker; default off, Mosquitto's own default)
 */
import { fork, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { availableParallelism, loadavg } from 'node:os';
import { startMosquitto } from '@tessera/server/testing';
import { startBenchServer } from '../support/bench-server.js';
import { fmt, percentile, printTable } from '../overload/stats.js';
import { cpuMsBetween, cpuMsByComm, machineCpuMs } from '../support/proc-cpu.js';
import { printSummary, startProfiling, summariseText } from '../http/profile.js';
import { HTTP_CLIENTS, type THttpClient, type TLoadCommand, type TLoadReport, type TPhaseReport, type TWay, WAYS } from './load.js';
import { buildConnectivitySetup, type TConnectivityShape } from './setup.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 2);
const PACED_RATE = process.env.BENCH_PACED_RATE ? Number(process.env.BENCH_PACED_RATE) : null;
const POOL = Number(process.env.BENCH_POOL ?? 20);
/** BENCH_WAYS: a comma-separated subset of the ways to run (native, the baseline, always runs). */
const ONLY = process.env.BENCH_WAYS?.split(',');
/** BENCH_STATEMENTS: count the statements every pg client of this process sends (the server's included). */
const STATEMENTS = process.env.BENCH_STATEMENTS === '1';
/** BENCH_PROFILE: the ways whose last closed loop is profiled. */
const PROFILE = new Set(process.env.BENCH_PROFILE?.split(',') ?? []);
/** BENCH_HTTP_CLIENT: the load's HTTP client for every HTTP way (HTTP_CLIENTS; default undici's dispatch()). */
const HTTP_CLIENT: THttpClient = HTTP_CLIENTS.find((c) => c === process.env.BENCH_HTTP_CLIENT) ?? 'dispatch';
/** BENCH_LORAWAN_PORT: the webhook on the device HTTP port (`device`, default) or the main one (`main`). */
const LORAWAN_PORT: 'device' | 'main' = process.env.BENCH_LORAWAN_PORT === 'main' ? 'main' : 'device';
const SHAPE: TConnectivityShape = {
  mqttDevices: Number(process.env.BENCH_MQTT_DEVICES ?? 100),
  gatewayDevices: Number(process.env.BENCH_GATEWAY_DEVICES ?? 100),
  httpDevices: Number(process.env.BENCH_HTTP_DEVICES ?? 3000),
  lorawanProjects: Number(process.env.BENCH_LORAWAN_PROJECTS ?? 30),
  lorawanDevicesPerProject: Number(process.env.BENCH_LORAWAN_DEVICES ?? 200),
  lorawanMqttProjects: Number(process.env.BENCH_LORAWAN_MQTT_PROJECTS ?? 2),
  inFlight: Number(process.env.BENCH_IN_FLIGHT ?? 200),
};

const HTTP_CLIENT_NAMES: Record<THttpClient, string> = {
  node: "Node's http.Agent",
  undici: "undici's Pool, request()",
  dispatch: "undici's Pool, dispatch()",
};

/** The forked load process, one command at a time. */
class Load {
  private readonly child: ChildProcess;
  private readonly waiting: ((r: TLoadReport) => void)[] = [];

  constructor() {
    this.child = fork(new URL('./load.ts', import.meta.url).pathname, { execArgv: ['--import', 'tsx'] });
    this.child.on('message', (r: TLoadReport) => {
      // A percentile of no latencies is NaN, which the IPC channel's JSON turns into null.
      if (r.kind === 'phase') for (const k of ['p50Ms', 'p99Ms'] as const) r[k] = r[k] ?? Number.NaN;
      this.waiting.shift()?.(r);
    });
    this.child.on('exit', (code) => {
      if (code) throw new Error(`load process exited with ${code}`);
    });
  }

  /** Sends `cmd`, which has no answer. */
  send(cmd: TLoadCommand): void {
    this.child.send(cmd);
  }

  run<R extends TLoadReport>(cmd: TLoadCommand): Promise<R> {
    return new Promise((resolve) => {
      this.waiting.push((r) => resolve(r as R));
      this.child.send(cmd);
    });
  }
}

/** Statements sent since the last {@link takeStatements}, by their first words. */
let statements = new Map<string, number>();
if (STATEMENTS) {
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    const text = typeof first === 'string' ? first : (first?.text ?? '?');
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 60);
    statements.set(key, (statements.get(key) ?? 0) + 1);
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
}
function takeStatements(): Map<string, number> {
  const taken = statements;
  statements = new Map();
  return taken;
}

const median = (xs: number[]): number => percentile(xs, 50);
const loads = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const total = SHAPE.mqttDevices + 1 + SHAPE.gatewayDevices + SHAPE.httpDevices;
  // ChirpStack's MQTT integration broker: Mosquitto 2.0 in its default configuration, password authentication.
  const broker = await startMosquitto({
    users: { tessera: 'bench-tessera', chirpstack: 'bench-chirpstack' },
    extraLines: process.env.BENCH_MOSQUITTO_NODELAY === '1' ? ['set_tcp_nodelay true'] : [],
  });
  const bench = await startBenchServer({ devices: total, poolSize: POOL, deviceHttpPort: 0 });
  const load = new Load();
  try {
    const built = await buildConnectivitySetup(bench, SHAPE, broker.url);
    const withGateway = built.gateway !== null;
    const ways = WAYS.filter((w) => (w !== 'gateway' || withGateway) && (w === 'native' || !ONLY || ONLY.includes(w)));
    await load.run({
      kind: 'setup',
      setup: {
        ...built,
        mqttPort: bench.server.mqttPort as number,
        httpPort: bench.server.httpPort as number,
        lorawanPort: LORAWAN_PORT === 'device' ? (bench.server.deviceHttp?.port as number) : (bench.server.httpPort as number),
        httpClient: HTTP_CLIENT,
      },
    });
    console.log(
      `connectivity: ${ways.join(', ')}; 1-point messages acknowledged after the commit; ${ROUNDS} interleaved rounds of ` +
        `${WARMUP_S} s warm-up + ${SECONDS} s measured per phase; closed loop ${SHAPE.inFlight} unacknowledged; MQTT ` +
        `${SHAPE.mqttDevices} devices (a connection each per way), gateway ${withGateway ? `${SHAPE.gatewayDevices} devices behind one connection` : 'TODO: no gateway API in this build'}, ` +
        `HTTP ${SHAPE.httpDevices} tokens over ${SHAPE.inFlight} keep-alive sockets (${HTTP_CLIENT_NAMES[HTTP_CLIENT]}), LoRaWAN ${built.lorawan.length} ChirpStack webhook integrations (on the ${LORAWAN_PORT === 'device' ? 'device HTTP port' : 'main HTTP port'}) and ${built.lorawanMqtt?.apps.length ?? 0} over MQTT (one ChirpStack connection to Mosquitto); pool ${POOL}`,
    );
    console.log(`load average at the start: ${loads()} (${availableParallelism()} cores)`);
    /**
     * Runs a phase; for uplinks over MQTT, tells the load how many the server committed since the phase began
     * (LoRaWAN points accepted into batches less those not committed yet; only one way runs at a time): after each
     * committed batch (once the batch's points have left the queue), and every 5 ms besides.
     */
    const runWay = async (way: TWay, cmd: TLoadCommand): Promise<TPhaseReport> => {
      if (way !== 'lorawan-mqtt') return load.run<TPhaseReport>(cmd);
      const committed = () =>
        bench.server.messaging.ingestCounters().pointsByWay.lorawan - bench.server.ctx.bus.ingestBacklog().queuedPoints;
      const base = committed();
      const tell = () => load.send({ kind: 'committed', count: Math.max(0, committed() - base) });
      let told = true;
      bench.server.messaging.setBatchObserver(() => {
        if (!told) return;
        told = false;
        setImmediate(() => {
          told = true;
          tell();
        });
      });
      const relay = setInterval(tell, 5);
      try {
        return await load.run<TPhaseReport>(cmd);
      } finally {
        clearInterval(relay);
        bench.server.messaging.setBatchObserver(() => undefined);
      }
    };
    const closed = new Map<TWay, TPhaseReport[]>(ways.map((w) => [w, []]));
    const paced = new Map<TWay, TPhaseReport[]>(ways.map((w) => [w, []]));
    const cpuPerMessage = new Map<TWay, { serverUs: number; pgUs: number }[]>(ways.map((w) => [w, []]));
    let rate = PACED_RATE ?? 0;
    // A pass not counted, at least a message per device of the way: caches (tokens, DevEUIs, names), each device's
    // first message (it comes online), JIT and connections warm for every way alike.
    const devicesOf: Record<TWay, number> = {
      native: built.mqttDevices.length,
      thingsboard: built.mqttDevices.length,
      gateway: built.gateway?.devices.length ?? 0,
      http: built.httpDevices.length,
      lorawan: built.lorawan.reduce((n, i) => n + i.devices.length, 0),
      'lorawan-mqtt': built.lorawanMqtt?.apps.reduce((n, a) => n + a.devices.length, 0) ?? 0,
    };
    for (const way of ways) {
      await runWay(way, { kind: 'run', way, mode: 'closed', warmupS: 0, seconds: WARMUP_S, ratePerS: 0, minMessages: devicesOf[way] });
    }
    const m0 = machineCpuMs();
    const t0 = performance.now();
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const way of ways) {
        const profiling = round === ROUNDS && PROFILE.has(way) ? await startProfiling() : null;
        const threadProfiling =
          profiling && way === 'lorawan' && LORAWAN_PORT === 'device' ? await bench.server.deviceHttp?.startCpuProfile() : undefined;
        takeStatements();
        const self0 = process.cpuUsage();
        const elu0 = performance.eventLoopUtilization();
        const threadElu0 = bench.server.deviceHttp?.eventLoopUtilization();
        const pg0 = cpuMsByComm('postgres');
        const r = await runWay(way, { kind: 'run', way, mode: 'closed', warmupS: WARMUP_S, seconds: SECONDS, ratePerS: 0 });
        const self = process.cpuUsage(self0);
        const busy = performance.eventLoopUtilization(elu0).utilization;
        const threadElu = bench.server.deviceHttp?.eventLoopUtilization();
        const threadBusy = threadElu0 && threadElu ? performance.eventLoopUtilization(threadElu, threadElu0).utilization : 0;
        const sent = takeStatements();
        if (STATEMENTS && round === ROUNDS) {
          const all = [...sent.values()].reduce((a, b) => a + b, 0);
          console.log(`  statements of ${way} (closed loop, warm-up included): ${fmt(all / Math.max(1, r.ackedAll))} per message`);
          for (const [k, n] of [...sent].sort((a, b) => b[1] - a[1]).slice(0, 8))
            console.log(`    ${(n / Math.max(1, r.ackedAll)).toFixed(4)}  ${k}`);
        }
        if (profiling) {
          const summary = await profiling.stop(`/tmp/bench-connectivity-${way}.cpuprofile`);
          printSummary(`profile of the server, ${way} closed loop (warm-up included)`, summary, r.ackedAll);
          if (threadProfiling) {
            const file = '/tmp/bench-connectivity-device-http-thread.cpuprofile';
            printSummary(
              'profile of the device HTTP thread (warm-up included)',
              summariseText(await threadProfiling.stop(), file),
              r.ackedAll,
            );
          }
        }
        const cpu = {
          serverUs: ((self.user + self.system) / Math.max(1, r.ackedAll)) as number,
          pgUs: (cpuMsBetween(pg0, cpuMsByComm('postgres')) * 1000) / Math.max(1, r.ackedAll),
        };
        closed.get(way)?.push(r);
        cpuPerMessage.get(way)?.push(cpu);
        console.log(
          `  round ${round} closed ${way}: ${fmt(r.acked / r.elapsedS)} msg/s, p99 ${fmt(r.p99Ms)} ms; CPU per message: server ` +
            `${fmt(cpu.serverUs)} µs, PostgreSQL ${fmt(cpu.pgUs)} µs, load ${fmt((r.loadCores * 1e6 * r.elapsedS) / Math.max(1, r.acked))} µs; ` +
            `server's event loop busy ${(busy * 100).toFixed(0)} %` +
            `${way === 'lorawan' && LORAWAN_PORT === 'device' ? `, device HTTP thread's ${(threadBusy * 100).toFixed(0)} %` : ''}${failures(r)}`,
        );
      }
      if (!rate) rate = Math.max(10, Math.floor(Math.min(...ways.map((w) => rateOf(closed.get(w)?.[0]))) / 2));
      for (const way of ways) {
        const r = await runWay(way, { kind: 'run', way, mode: 'paced', warmupS: 1, seconds: SECONDS, ratePerS: rate });
        paced.get(way)?.push(r);
        console.log(`  round ${round} paced ${way} at ${fmt(rate)}/s: p50 ${fmt(r.p50Ms)} ms, p99 ${fmt(r.p99Ms)} ms${failures(r)}`);
      }
    }
    const machineCores = (machineCpuMs() - m0) / (performance.now() - t0);
    console.log(
      `load average at the end: ${loads()}; the machine used ${machineCores.toFixed(2)} of ${availableParallelism()} cores over the rounds`,
    );

    const ratio = (way: TWay, of: (r: TPhaseReport) => number, from: Map<TWay, TPhaseReport[]>): number =>
      median((from.get(way) ?? []).map((r, i) => of(r) / of((from.get('native') ?? [])[i] as TPhaseReport)));
    const rows = ways.map((way) => {
      const c = closed.get(way) ?? [];
      const p = paced.get(way) ?? [];
      const msgRatio = ratio(way, (r) => r.acked / r.elapsedS, closed);
      const p99Ratio = ratio(way, (r) => r.p99Ms, paced);
      return [
        way,
        fmt(median(c.map(rateOf))),
        `${msgRatio.toFixed(2)}×`,
        fmt(median((cpuPerMessage.get(way) ?? []).map((x) => x.serverUs))),
        fmt(median((cpuPerMessage.get(way) ?? []).map((x) => x.pgUs))),
        fmt(median(p.map((r) => r.p50Ms))),
        fmt(median(p.map((r) => r.p99Ms))),
        `${p99Ratio.toFixed(2)}×`,
        way === 'native' ? '' : way === 'http' ? 'written down' : msgRatio >= 0.8 ? 'met' : 'NOT met',
      ];
    });
    console.log(`\nmedians over ${ROUNDS} rounds (ratios: median of each round's way / native); paced at ${fmt(rate)} msg/s`);
    printTable(
      ['way', 'msg/s', '× native', 'server µs/msg', 'PostgreSQL µs/msg', 'p50 ms', 'p99 ms', 'p99 × native', '≥ 0.8× native'],
      rows,
    );
    await load.run({ kind: 'end' });
  } finally {
    await bench.stop();
    await broker.stop();
  }
}

function rateOf(r: TPhaseReport | undefined): number {
  return r ? r.acked / r.elapsedS : Number.NaN;
}

function failures(r: TPhaseReport): string {
  const entries = Object.entries(r.failures);
  return entries.length ? `; not acknowledged: ${entries.map(([k, v]) => `${k} ×${v}`).join(', ')}` : '';
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
