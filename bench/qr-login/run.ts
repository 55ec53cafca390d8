/**
 * bench/qr-login: what anonymous QR-login streams waiting for a confirmation cost the server, beside the same figures
 * without them, in one run against PostgreSQL (a scratch database). This process hosts the server (so its CPU is the
 * server's); the streams are held by a child process (streams.ts) from many loopback addresses, and light device
 * traffic by another (overload/devices.ts: real MQTT.js clients at QoS 1, whose PUBACK times are the device figure).
 *
 * Phases of --seconds each: without streams, then with --streams waiting. Figures: database commits/s
 * (pg_stat_database `xact_commit` of the scratch database), server CPU (this process, % of one core), device PUBACK
 * p50/p95. Bounded: at most 5,000 streams and 45 s per phase (the streams' sessions live 120 s), loopback only, and the
 * whole run is stopped after 5 minutes.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:qr-login -w @tessera/bench -- --streams 1200
 *   flags: --streams 1200, --per-address 20, --seconds 15, --devices 20, --points-per-s 10 (per device)
 */
import { fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import type { TDevicesOrder, TDevicesReport } from '../overload/devices.js';
import { fmt, percentile, printTable } from '../overload/stats.js';
import { startBenchServer } from '../support/bench-server.js';
import type { TStreamsOrder, TStreamsReport } from './streams.js';

const { values: flags } = parseArgs({
  options: {
    streams: { type: 'string', default: '1200' },
    'per-address': { type: 'string', default: '20' },
    seconds: { type: 'string', default: '15' },
    devices: { type: 'string', default: '20' },
    'points-per-s': { type: 'string', default: '10' },
  },
});
const STREAMS = Math.min(5_000, Math.max(1, Number(flags.streams)));
const PER_ADDRESS = Math.max(1, Number(flags['per-address']));
const SECONDS = Math.min(45, Math.max(3, Number(flags.seconds)));
const DEVICES = Math.min(200, Math.max(1, Number(flags.devices)));
const POINTS_PER_S = Math.min(100, Math.max(1, Number(flags['points-per-s'])));
const RUN_LIMIT_MS = 5 * 60_000;
/** Backends report commits to the statistics about once a second: wait this long before reading a phase's start. */
const SETTLE_MS = 2_000;

interface TPhase {
  name: string;
  streams: number;
  commitsPerS: number;
  cpuPercent: number;
  pubackMs: number[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function commits(pool: pg.Pool): Promise<number> {
  const r = await pool.query('select xact_commit::bigint as n from pg_stat_database where datname = current_database()');
  return Number(r.rows[0].n);
}

/** A reading of the database's commits and this process's CPU. */
async function snapshot(pool: pg.Pool): Promise<{ commits: number; cpu: NodeJS.CpuUsage; at: number }> {
  const cpu = process.cpuUsage();
  const at = performance.now();
  return { commits: await commits(pool), cpu, at };
}

/** Runs the devices for SECONDS, measuring commits and this process's CPU between their start and stop. */
async function phase(name: string, streams: number, order: TDevicesOrder, pool: pg.Pool): Promise<TPhase> {
  const child = fork(new URL('../overload/devices.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'] });
  let started: ReturnType<typeof snapshot> | undefined;
  let stopped: ReturnType<typeof snapshot> | undefined;
  const report = await new Promise<Extract<TDevicesReport, { type: 'drained' }>>((resolve, reject) => {
    child.on('message', (m: TDevicesReport) => {
      if (m.type === 'connected') started = snapshot(pool);
      else if (m.type === 'stopped') stopped = snapshot(pool);
      else resolve(m);
    });
    child.once('exit', (code) => reject(new Error(`device load exited (${code}) before reporting`)));
    child.send(order);
  });
  if (!started || !stopped) throw new Error('the device load did not report its start and stop');
  const [from, to] = await Promise.all([started, stopped]);
  const cpuUs = to.cpu.user - from.cpu.user + (to.cpu.system - from.cpu.system);
  return {
    name,
    streams,
    commitsPerS: (to.commits - from.commits) / ((to.at - from.at) / 1000),
    cpuPercent: (cpuUs / 1000 / (to.at - from.at)) * 100,
    pubackMs: report.pubackMs,
  };
}

async function main(): Promise<void> {
  const bench = await startBenchServer({
    devices: DEVICES,
    qrLoginMaxStreams: Math.max(STREAMS, 2_000),
    qrLoginMaxStreamsPerIp: PER_ADDRESS,
  });
  const pool = bench.database.pool as pg.Pool;
  const order = (phaseNo: number): TDevicesOrder => ({
    url: `mqtt://127.0.0.1:${bench.server.mqttPort}`,
    devices: bench.project.devices,
    pointsPerS: POINTS_PER_S,
    points: 1,
    window: 5,
    seconds: SECONDS,
    // One hour of device time per phase, inside the accepted timestamp window.
    tsBase: Date.now() - 6 * 3_600_000 + phaseNo * 3_600_000,
    drainTimeoutS: 30,
  });
  const holder = fork(new URL('./streams.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'] });
  const results: TPhase[] = [];
  try {
    console.log(`without streams: ${DEVICES} devices × ${POINTS_PER_S} messages/s for ${SECONDS} s …`);
    await sleep(SETTLE_MS);
    results.push(await phase('without streams', 0, order(0), pool));

    console.log(`opening ${STREAMS} QR-login streams, ${PER_ADDRESS} per loopback address …`);
    const opened = await new Promise<TStreamsReport>((resolve) => {
      holder.once('message', (m: TStreamsReport) => resolve(m));
      const streamsOrder: TStreamsOrder = {
        baseUrl: `http://127.0.0.1:${bench.server.httpPort}`,
        streams: STREAMS,
        perAddress: PER_ADDRESS,
      };
      holder.send(streamsOrder);
    });
    console.log(
      `  ${opened.opened} open from ${opened.addresses} addresses in ${fmt(opened.openMs / 1000)} s; refused: ${JSON.stringify(opened.refused)}; ` +
        `one more from an address at its cap: ${opened.overCap}`,
    );
    await sleep(SETTLE_MS);
    results.push(await phase(`with ${opened.opened} streams waiting`, opened.opened, order(1), pool));
  } finally {
    holder.send('close');
    await bench.stop();
  }
  printTable(
    ['', ...results.map((r) => r.name)],
    [
      ['waiting streams', ...results.map((r) => fmt(r.streams))],
      ['database commits/s', ...results.map((r) => fmt(r.commitsPerS))],
      ['server CPU % (one core)', ...results.map((r) => fmt(r.cpuPercent))],
      ['device PUBACK p50 ms', ...results.map((r) => fmt(percentile(r.pubackMs, 50)))],
      ['device PUBACK p95 ms', ...results.map((r) => fmt(percentile(r.pubackMs, 95)))],
    ],
  );
}

setTimeout(() => {
  console.error(`bench/qr-login: stopped after ${RUN_LIMIT_MS / 60_000} minutes`);
  process.exit(1);
}, RUN_LIMIT_MS).unref();

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
