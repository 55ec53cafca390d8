/**
 * bench/scale: the queue engine (docs/decisions/scale-out.md) with 1…SCALE_REPLICAS server replicas as processes on
 * one PostgreSQL and a private RabbitMQ node, the device load in its own process (SCALE_DEVICES devices, 1-point
 * QoS 1 messages, SCALE_WINDOW unacknowledged each — more than one replica can take). Baseline in the same run: one
 * server with its embedded broker taking the same load. Then, with every replica up, the faults: `kill -9` of a
 * replica (restarted 5 s later, as a process manager does), `kill -9` of RabbitMQ (restarted), and
 * `pg_terminate_backend` of every database connection — acknowledged points against stored ones, and how long
 * the stored rate took to come back to half its pre-fault median.
 *
 *   npm run bench:scale -w @tessera/bench      env: SCALE_SECONDS (30 per phase), SCALE_DEVICES (100),
 *                                                   SCALE_WINDOW (10), SCALE_REPLICAS (3), DATABASE_URL
 * Ends with `scale: <n> replicas, <a> acknowledged, <s> stored, <l> lost` (the fault phase).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildDeviceProject,
  freePort,
  openScratchPostgres,
  spawnServer,
  startRabbitNode,
  type TRabbitNode,
  type TSpawnedServer,
} from '@tessera/server/testing';
import { cpuMsBetween, cpuMsByComm, cpuMsOfPid } from '../support/proc-cpu.js';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Number(process.env.SCALE_SECONDS ?? 30);
const DEVICES = Number(process.env.SCALE_DEVICES ?? 100);
const WINDOW = Number(process.env.SCALE_WINDOW ?? 10);
const REPLICAS = Number(process.env.SCALE_REPLICAS ?? 3);
/** First seconds of a phase left out of its rate (connections, JIT, queue warm-up). */
const WARMUP_S = 5;
/** How long acknowledged points may take to reach the table after the load stops, in milliseconds. */
const DRAIN_MS = 180_000;
const SECRET = 'bench-scale-broker-auth-secret-0123456789';
const JWT_SECRET = 'bench-scale-jwt-secret-0123456789abcdef0123';
const LOAD = fileURLToPath(new URL('./load.ts', import.meta.url));

type TDevice = { id: number; tangramId: string; secret: string };
interface TPhase {
  label: string;
  replicas: number;
  acknowledged: number;
  stored: number;
  lost: number;
  storedPerS: number;
  ackedPerS: number;
  recoveries: string[];
  /** Cores used over the phase's load, by part. */
  cpu: string;
}

/** The processes whose CPU a phase reports. */
interface TParts {
  replicas: () => number[];
  rabbitmq: () => number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const database = await openScratchPostgres(ADMIN_URL, 4, 'tessera_scale');
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${database.name}`;
  const authPort = await freePort();
  const rabbit = await startRabbitNode({ authHttpBase: `http://rabbitmq:${SECRET}@127.0.0.1:${authPort}/internal/broker-auth/rabbitmq` });
  const replicas: (TSpawnedServer | null)[] = [];
  const env = (port: number, engine: boolean): Record<string, string> => ({
    DATABASE_URL: dbUrl.toString(),
    JWT_SECRET,
    PORT: String(port),
    ...(engine ? { MQTT_URL: rabbit.replicaMqttUrl, AMQP_URL: rabbit.amqpUrl, BROKER_AUTH_SECRET: SECRET } : {}),
  });
  const startReplica = (i: number) =>
    spawnServer('node', ['--import', 'tsx', 'apps/server/src/main.ts'], env(i === 0 ? authPort : 0, true), 120_000);
  const phases: TPhase[] = [];
  try {
    // Baseline: one server, its embedded broker, the same load (devices connect to it directly).
    const embedded = await spawnServer('node', ['--import', 'tsx', 'apps/server/src/main.ts'], env(0, false), 120_000);
    const { devices } = await buildDeviceProject(database.db, { count: DEVICES });
    console.log(`scale bench: ${DEVICES} devices × ${WINDOW} unacknowledged 1-point QoS 1 publishes, ${SECONDS} s a phase`);
    const embeddedParts: TParts = { replicas: () => [embedded.child.pid ?? 0], rabbitmq: () => 0 };
    phases.push(
      await phase('embedded broker (baseline)', 1, `mqtt://127.0.0.1:${embedded.mqttPort}`, devices, 0, database, embeddedParts, []),
    );
    embedded.child.kill('SIGTERM');
    await embedded.exited;

    const engineParts: TParts = { replicas: () => replicas.map((r) => r?.child.pid ?? 0), rabbitmq: () => rabbit.pid() };
    for (let n = 1; n <= REPLICAS; n += 1) {
      while (replicas.length < n) replicas.push(await startReplica(replicas.length));
      phases.push(await phase(`queue engine`, n, rabbit.mqttUrl, devices, n, database, engineParts, []));
    }

    // Faults with every replica up, each at its own quarter of a longer phase.
    const faultSeconds = Math.max(SECONDS, 60);
    const faults = [
      {
        at: faultSeconds * 0.2,
        name: 'kill -9 of a replica',
        run: async () => {
          const last = replicas.length - 1;
          replicas[last]?.child.kill('SIGKILL');
          await replicas[last]?.exited;
          await sleep(5_000);
          replicas[last] = await startReplica(last);
        },
      },
      { at: faultSeconds * 0.5, name: 'kill -9 of RabbitMQ', run: () => restartRabbit(rabbit) },
      {
        at: faultSeconds * 0.8,
        name: 'pg_terminate_backend of every connection',
        run: async () => {
          await database.pool!.query(
            'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
            [database.name],
          );
        },
      },
    ];
    phases.push(
      await phase('queue engine + faults', REPLICAS, rabbit.mqttUrl, devices, REPLICAS + 1, database, engineParts, faults, faultSeconds),
    );

    console.log('\n| setup | replicas | acknowledged/s | stored/s | acknowledged | stored | lost | CPU (cores) |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---|');
    for (const p of phases) {
      console.log(
        `| ${p.label} | ${p.replicas} | ${p.ackedPerS} | ${p.storedPerS} | ${p.acknowledged} | ${p.stored} | ${p.lost} | ${p.cpu} |`,
      );
    }
    const f = phases[phases.length - 1];
    for (const r of f.recoveries) console.log(`recovery: ${r}`);
    console.log(`scale: ${f.replicas} replicas, ${f.acknowledged} acknowledged, ${f.stored} stored, ${f.lost} lost`);
  } finally {
    for (const r of replicas) r?.child.kill('SIGKILL');
    await rabbit.stop();
    await database.close();
  }
}

async function restartRabbit(rabbit: TRabbitNode): Promise<void> {
  await rabbit.kill();
  await rabbit.restart();
}

/** Inserted telemetry rows of the scratch database so far (PostgreSQL's statistics: cheap, about a second late). */
async function insertedRows(database: Awaited<ReturnType<typeof openScratchPostgres>>): Promise<number> {
  const { rows } = await database.pool!.query<{ n: string }>(
    `select coalesce(sum(n_tup_ins), 0)::text as n from pg_stat_user_tables where relname like 'telemetry%' and relname not like '%latest%'`,
  );
  return Number(rows[0].n);
}

/**
 * One phase: the load for `seconds` against `url`, the `faults` at their times; then waits until every acknowledged
 * point is in the table (or DRAIN_MS passed) and counts the lost ones.
 */
async function phase(
  label: string,
  replicas: number,
  url: string,
  devices: readonly TDevice[],
  seq: number,
  database: Awaited<ReturnType<typeof openScratchPostgres>>,
  parts: TParts,
  faults: { at: number; name: string; run: () => Promise<void> }[],
  seconds = SECONDS,
): Promise<TPhase> {
  const outFile = join(mkdtempSync(join(tmpdir(), 'tessera-scale-')), 'acked.json');
  const load: ChildProcess = fork(LOAD, [], { execArgv: ['--import', 'tsx'] });
  const ticks: { t: number; acked: number; stored: number }[] = [];
  const started = Date.now();
  const storedAtStart = await insertedRows(database);
  await new Promise<void>((resolve) => {
    load.on('message', (m: { kind: string; acked?: number }) => {
      if (m.kind === 'ready') resolve();
      if (m.kind === 'tick') {
        void insertedRows(database).then((n) =>
          ticks.push({ t: (Date.now() - started) / 1000, acked: m.acked ?? 0, stored: n - storedAtStart }),
        );
      }
    });
    load.send({
      kind: 'start',
      url,
      devices: devices.map(({ tangramId, secret }) => ({ tangramId, secret })),
      window: WINDOW,
      outFile,
      baseTs: Date.now() - 86_400_000 * (seq + 2),
    });
  });
  const pidsCpu = () => ({
    replicas: parts.replicas().reduce((sum, pid) => sum + cpuMsOfPid(pid), 0),
    rabbitmq: cpuMsOfPid(parts.rabbitmq()),
    load: cpuMsOfPid(load.pid ?? 0),
  });
  const cpuBefore = { ...pidsCpu(), postgres: cpuMsByComm('postgres'), at: Date.now() };
  const faultTimes: { name: string; atS: number; doneS: number }[] = [];
  // One fault at a time: each waits for its time and for the one before to have recovered its part.
  const faultRuns = (async () => {
    for (const f of faults) {
      await sleep(Math.max(0, started + f.at * 1000 - Date.now()));
      const atS = (Date.now() - started) / 1000;
      await f.run();
      faultTimes.push({ name: f.name, atS, doneS: (Date.now() - started) / 1000 });
    }
  })();
  await sleep(seconds * 1000);
  const cpuAfter = { ...pidsCpu(), postgres: cpuMsByComm('postgres'), at: Date.now() };
  await faultRuns;
  const cores = (ms: number) => (ms / (cpuAfter.at - cpuBefore.at)).toFixed(2);
  // A fault phase replaces processes (new pids): its CPU would not add up.
  const cpu =
    faults.length > 0
      ? '—'
      : `replicas ${cores(cpuAfter.replicas - cpuBefore.replicas)}, RabbitMQ ${cores(cpuAfter.rabbitmq - cpuBefore.rabbitmq)}, ` +
        `PostgreSQL ${cores(cpuMsBetween(cpuBefore.postgres, cpuAfter.postgres))}, load ${cores(cpuAfter.load - cpuBefore.load)} cores`;
  const stopped = new Promise<void>((resolve) => load.on('message', (m: { kind: string }) => m.kind === 'done' && resolve()));
  load.send({ kind: 'stop' });
  await stopped;
  const ackedByDevice = JSON.parse(readFileSync(outFile, 'utf8')) as Record<string, number[]>;

  const byTangram = new Map(devices.map((d) => [d.tangramId, d.id]));
  const acknowledged = Object.values(ackedByDevice).reduce((s, a) => s + a.length, 0);
  const missing = async (): Promise<number> => {
    let lost = 0;
    for (const [tangramId, tsList] of Object.entries(ackedByDevice)) {
      if (tsList.length === 0) continue;
      const { rows } = await database.pool!.query<{ ts: string }>(
        // Through telemetry_points: the storage job may have moved a cold day's rows into compressed chunks already.
        `select ts::text from telemetry_points($1, 'temperature', $2, $3)`,
        [byTangram.get(tangramId), Math.min(...tsList), Math.max(...tsList)],
      );
      const have = new Set(rows.map((r) => Number(r.ts)));
      lost += tsList.filter((ts) => !have.has(ts)).length;
    }
    return lost;
  };
  const drainUntil = Date.now() + DRAIN_MS;
  let lost = await missing();
  while (lost > 0 && Date.now() < drainUntil) {
    await sleep(2_000);
    lost = await missing();
  }
  const window = ticks.filter((k) => k.t >= WARMUP_S && k.t <= seconds);
  const first = window[0];
  const last = window[window.length - 1];
  const spanS = last && first ? last.t - first.t : 1;
  const recoveries = faultTimes.map((f) => recoveryOf(f, ticks));
  const result: TPhase = {
    label,
    replicas,
    acknowledged,
    stored: acknowledged - lost,
    lost,
    ackedPerS: first && last ? Math.round((last.acked - first.acked) / spanS) : 0,
    storedPerS: first && last ? Math.round((last.stored - first.stored) / spanS) : 0,
    recoveries,
    cpu,
  };
  console.log(
    `${label}, ${replicas} replica(s): ${result.ackedPerS} acknowledged/s, ${result.storedPerS} stored/s; ` +
      `${acknowledged} acknowledged, ${lost} lost; CPU: ${cpu}`,
  );
  return result;
}

/** Seconds from a fault until the stored rate (per second) is back to half the median of the 10 s before it. */
function recoveryOf(fault: { name: string; atS: number; doneS: number }, ticks: { t: number; stored: number }[]): string {
  const rates = ticks.slice(1).map((k, i) => ({ t: k.t, rate: (k.stored - ticks[i].stored) / Math.max(0.001, k.t - ticks[i].t) }));
  const before = rates.filter((r) => r.t > fault.atS - 10 && r.t <= fault.atS).map((r) => r.rate);
  const median = before.sort((a, b) => a - b)[Math.floor(before.length / 2)] ?? 0;
  const back = rates.find((r) => r.t > fault.doneS && r.rate >= median / 2);
  const took = back ? `${(back.t - fault.atS).toFixed(1)} s` : 'not within the phase';
  return `${fault.name} at ${fault.atS.toFixed(0)} s (done at ${fault.doneS.toFixed(0)} s): stored rate back to half its median (${Math.round(median)}/s) after ${took}`;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
