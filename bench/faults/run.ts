/**
 * bench/faults: what a database fault costs under steady device load. Real MQTT.js devices (QoS 1) publish through
 * the embedded broker into PostgreSQL behind a TCP proxy of the bench's own (apps/server/test/pg-proxy.ts); three
 * runs of the same load, each on a fresh server and scratch database:
 *   baseline  no fault (the same-run reference);
 *   kill      every connection terminated (pg_terminate_backend on the scratch database and the proxy dropping
 *             its sockets), then the database refuses connections for OUTAGE_S seconds (a restart), then restored;
 *   freeze    the proxy stops forwarding without closing anything for FREEZE_S seconds (a partition), then thaws.
 * Printed per run: points published, acknowledged, stored and lost (acknowledged but not stored: must be 0), seconds from the
 * restore to the first acknowledged (committed) batch, and /healthz during the outage (answers, 503s, slowest).
 * Only the scratch databases this bench creates are ever terminated; the PostgreSQL server is never touched.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:faults -w @tessera/bench
 *   env: BENCH_DEVICES (20), BENCH_POINTS (10 per message), BENCH_PERIOD_MS (50), WARM_S (5), OUTAGE_S (5),
 *        FREEZE_S (10), AFTER_S (10), and the server's own (DB_STATEMENT_TIMEOUT_MS, DB_CONNECT_TIMEOUT_MS, …)
 */
import pg from 'pg';
import pino from 'pino';
import { loadConfig, startServer } from '@tessera/server';
import { buildDeviceProject, startDeviceLoad, openScratchPostgres, startPgProxy, type TPgProxy } from '@tessera/server/testing';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DEVICES = Number(process.env.BENCH_DEVICES ?? 20);
const POINTS = Number(process.env.BENCH_POINTS ?? 10);
const PERIOD_MS = Number(process.env.BENCH_PERIOD_MS ?? 50);
const WARM_S = Number(process.env.WARM_S ?? 5);
const OUTAGE_S = Number(process.env.OUTAGE_S ?? 5);
const FREEZE_S = Number(process.env.FREEZE_S ?? 10);
const AFTER_S = Number(process.env.AFTER_S ?? 10);
const HEALTH_EVERY_MS = 250;

type TScenario = 'baseline' | 'kill' | 'freeze';

interface THealthSample {
  status: number;
  ms: number;
}

interface TResult {
  scenario: TScenario;
  published: number;
  acked: number;
  stored: number;
  lost: number;
  resumeS: number | null;
  health: THealthSample[];
  crashes: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls /healthz until `stop()` is called; each answer's status (0: no answer in 5 s) and time. */
function watchHealth(url: string): { stop(): Promise<THealthSample[]> } {
  const samples: THealthSample[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const status = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) }).then(
        (r) => r.status,
        () => 0,
      );
      samples.push({ status, ms: performance.now() - started });
      await sleep(HEALTH_EVERY_MS);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return samples;
    },
  };
}

async function terminateBackends(database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    const res = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [
      database,
    ]);
    return res.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

/** Applies the scenario's fault at once and answers how to restore; the baseline does nothing for as long. */
async function injectFault(scenario: TScenario, proxy: TPgProxy, database: string): Promise<{ lastsS: number; restore(): void }> {
  if (scenario === 'kill') {
    proxy.refuse(true);
    await terminateBackends(database);
    proxy.dropAll();
    return { lastsS: OUTAGE_S, restore: () => proxy.refuse(false) };
  }
  if (scenario === 'freeze') {
    proxy.freeze();
    return { lastsS: FREEZE_S, restore: () => proxy.thaw() };
  }
  return { lastsS: OUTAGE_S, restore: () => undefined };
}

async function run(scenario: TScenario): Promise<TResult> {
  const target = new URL(ADMIN_URL);
  const proxy = await startPgProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const config = { ...loadConfig({ ...process.env, DEMO: '0' }), port: 0, mqttPort: 0, host: '127.0.0.1', webDist: '/nonexistent' };
  const database = await openScratchPostgres(ADMIN_URL, 10, 'tessera_bfault', {
    via: (url) => proxy.urlFor(url),
    timeouts: { connectMs: config.dbConnectTimeoutMs, statementMs: config.dbStatementTimeoutMs },
  });
  let crashes = 0;
  const onCrash = (err: unknown) => {
    crashes += 1;
    console.error(`${scenario}: uncaught`, err);
  };
  process.on('uncaughtException', onCrash);
  const server = await startServer(config, { database, log: pino({ level: 'silent' }) });
  try {
    const { devices } = await buildDeviceProject(database.db, { count: DEVICES });
    const load = await startDeviceLoad({
      mqttUrl: `mqtt://127.0.0.1:${server.mqttPort}`,
      devices,
      periodMs: PERIOD_MS,
      pointsPerMessage: POINTS,
    });
    await sleep(WARM_S * 1000);
    const health = watchHealth(`http://127.0.0.1:${server.httpPort}`);
    const fault = await injectFault(scenario, proxy, database.name);
    await sleep(fault.lastsS * 1000);
    const outage = await health.stop();
    const restoredAt = Date.now();
    fault.restore();
    await sleep(AFTER_S * 1000);
    await load.stop(15_000);
    await server.close();
    const stored = Number((await database.pool?.query('select count(*)::int as n from telemetry'))?.rows[0].n ?? 0);
    const firstAck = load.firstAckSince(restoredAt);
    return {
      scenario,
      published: load.published(),
      acked: load.acked(),
      stored,
      lost: await load.lostPoints(database.db),
      resumeS: firstAck === null ? null : (firstAck - restoredAt) / 1000,
      health: outage,
      crashes,
    };
  } finally {
    process.off('uncaughtException', onCrash);
    await server.close();
    proxy.thaw();
    proxy.refuse(false);
    await database.close();
    await proxy.close();
  }
}

function row(r: TResult): string {
  const answered = r.health.filter((h) => h.status !== 0);
  const down = r.health.filter((h) => h.status === 503).length;
  const slowest = Math.max(0, ...r.health.map((h) => h.ms));
  const cells = [
    r.scenario.padEnd(9),
    String(r.published).padStart(9),
    String(r.acked).padStart(8),
    String(r.stored).padStart(8),
    String(r.lost).padStart(5),
    (r.resumeS === null ? 'never' : r.resumeS.toFixed(2)).padStart(10),
    `${answered.length}/${r.health.length} answered, ${down} × 503, slowest ${Math.round(slowest)} ms`.padEnd(44),
    String(r.crashes).padStart(7),
  ];
  return cells.join('  ');
}

async function main(): Promise<void> {
  const offered = Math.round((DEVICES * POINTS * 1000) / PERIOD_MS);
  console.log(`faults bench: ${DEVICES} devices × ${POINTS}-point QoS 1 messages every ${PERIOD_MS} ms (${offered} points/s offered)`);
  console.log(`warm ${WARM_S} s, kill: refused for ${OUTAGE_S} s, freeze: ${FREEZE_S} s, then ${AFTER_S} s after the restore`);
  const results: TResult[] = [];
  for (const scenario of ['baseline', 'kill', 'freeze'] as const) results.push(await run(scenario));
  console.log(
    `\n${['scenario ', 'published', '   acked', '  stored', ' lost', 'resume (s)', '/healthz during the fault'.padEnd(44), 'crashes'].join('  ')}`,
  );
  for (const r of results) console.log(row(r));
  console.log('resume = seconds from the restore to the first acknowledged (committed) batch; lost = acknowledged, not stored');
  if (results.some((r) => r.lost > 0 || r.crashes > 0)) process.exitCode = 1;
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
