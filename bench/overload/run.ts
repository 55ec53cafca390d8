/**
 * bench/overload: the server under ingest overload, beside the same figures idle and at 1× its capacity, in one run
 * against PostgreSQL (a scratch database). This process hosts the server (so its RSS and event-loop delay are the
 * server's); real MQTT.js devices run in a child process (devices.ts), /healthz is probed from another (prober.ts).
 *
 * Phases: idle; capacity (a saturating load, whose committed points/s is "capacity"); 1× capacity for --seconds;
 * --multiplier × capacity for --seconds. Each device offers DEVICE_POINTS_PER_S (under the documented rate, so no
 * point may be refused) with at most --window unacknowledged messages; what falls due while the window is full
 * waits on the device. Drain = from the end of the offered load until every due point is acknowledged.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:overload -w @tessera/bench -- --seconds 60
 *   flags: --seconds 60, --multiplier 5, --points 200 (per message), --window 20, --capacity <points/s> (skips the
 *   capacity phase), --calibrate-seconds 15, --idle-seconds 10, --device-rate 950 (points/s per device, ≤ 950: lower
 *   means more devices for the same load — many connections each with a window of small messages)
 */
import { fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import pino from 'pino';
import { loadConfig, startServer } from '@tessera/server';
import { buildDeviceProject, type TBuiltDevice, openScratchPostgres } from '@tessera/server/testing';
import type { TDevicesOrder } from './devices.js';
import { runPhase, type TPhaseResult } from './phase.js';
import type { TProbe } from './prober.js';
import { fmt, maxOf, percentile, printTable } from './stats.js';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** What each simulated device offers by default: 95 % of DEVICE_RATE_POINTS_PER_S, so an honest device is never refused. */
const DEVICE_POINTS_PER_S_DEFAULT = 950;
/** Offered during the capacity phase (far above what two cores commit). */
const CALIBRATION_OFFER_PER_S = 250_000;
const DRAIN_TIMEOUT_S = 1_800;

const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    multiplier: { type: 'string', default: '5' },
    points: { type: 'string', default: '200' },
    window: { type: 'string', default: '20' },
    'device-rate': { type: 'string', default: String(DEVICE_POINTS_PER_S_DEFAULT) },
    capacity: { type: 'string' },
    'calibrate-seconds': { type: 'string', default: '15' },
    'idle-seconds': { type: 'string', default: '10' },
  },
});
const SECONDS = Number(flags.seconds);
const MULTIPLIER = Number(flags.multiplier);
const POINTS = Number(flags.points);
const WINDOW = Number(flags.window);
/** Points/s each device offers: a lower rate spreads the same load over more devices (more connections). */
const DEVICE_POINTS_PER_S = Math.min(Number(flags['device-rate']), DEVICE_POINTS_PER_S_DEFAULT);

async function main(): Promise<void> {
  const database = await openScratchPostgres(ADMIN_URL, 10, 'tessera_overload');
  database.pool?.on('error', () => undefined);
  const config = { ...loadConfig({ ...process.env, DEMO: '0' }), port: 0, mqttPort: 0, host: '127.0.0.1', webDist: '/nonexistent' };
  const server = await startServer(config, { database, log: pino({ level: 'warn' }) });
  const pool = database.pool as pg.Pool;
  const prober = fork(new URL('./prober.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'] });
  prober.send(`http://127.0.0.1:${server.httpPort}/healthz`);
  const devices: TBuiltDevice[] = [];
  const results: TPhaseResult[] = [];
  try {
    const deviceSet = async (n: number) => {
      if (devices.length < n) devices.push(...(await buildDeviceProject(database.db, { count: n - devices.length })).devices);
      return devices.slice(0, n);
    };
    const wallStart = Date.now();
    let phaseNo = 0;
    const phase = async (name: string, offeredPerS: number, seconds: number) => {
      phaseNo += 1;
      const n = offeredPerS === 0 ? 0 : Math.ceil(offeredPerS / DEVICE_POINTS_PER_S);
      const order: TDevicesOrder = {
        url: `mqtt://127.0.0.1:${server.mqttPort}`,
        devices: await deviceSet(n),
        pointsPerS: DEVICE_POINTS_PER_S,
        points: POINTS,
        window: WINDOW,
        seconds,
        // One hour of device time per phase, all of it inside the accepted timestamp window.
        tsBase: wallStart - 8 * 3_600_000 + phaseNo * 3_600_000,
        drainTimeoutS: DRAIN_TIMEOUT_S,
      };
      console.log(`phase ${name}: ${n} devices offering ${fmt(n * DEVICE_POINTS_PER_S)} points/s for ${seconds} s …`);
      let lastLog = 0;
      // Every 5 s: where the memory is (heap, buffers) beside what ingest holds (queued points, publishes waiting).
      const onSample = (at: number) => {
        if (at - lastLog < 5_000) return;
        lastLog = at;
        const m = process.memoryUsage();
        const b = server.ctx.bus.ingestBacklog();
        const mb = (v: number) => (v / 2 ** 20).toFixed(0);
        console.log(
          `  [${((at - wallStart) / 1000).toFixed(0)} s] RSS ${mb(m.rss)} MB, heap ${mb(m.heapUsed)} MB, buffers ${mb(m.arrayBuffers)} MB | ` +
            `ingest holds ${b.queuedPoints} points, ${b.waitingPublishes} publishes wait for admission, ${b.openPublishes} open`,
        );
      };
      const r = await runPhase(name, order, {
        pool,
        onSample,
        committed: async () => Number((await pool.query('select count(*) as n from telemetry')).rows[0].n),
      });
      console.log(
        `  committed ${fmt(r.committedPerS)} points/s, drained in ${fmt((r.drainedAt - r.stoppedAt) / 1000)} s, peak RSS ${fmt(r.peakRssMb)} MB`,
      );
      results.push(r);
      return r;
    };
    await phase('idle', 0, Number(flags['idle-seconds']));
    const capacity = flags.capacity
      ? Number(flags.capacity)
      : (await phase('capacity', CALIBRATION_OFFER_PER_S, Number(flags['calibrate-seconds']))).committedPerS;
    console.log(`capacity: ${fmt(capacity)} points/s`);
    await phase('1×', capacity, SECONDS);
    await phase(`${MULTIPLIER}×`, capacity * MULTIPLIER, SECONDS);
  } finally {
    const probes = await new Promise<TProbe[]>((resolve) => {
      prober.once('message', (m: TProbe[]) => resolve(m));
      prober.send('stop');
    });
    await server.close();
    await database.close();
    print(results, probes);
  }
}

function print(results: TPhaseResult[], probes: TProbe[]): void {
  const health = (r: TPhaseResult) => probes.filter((p) => p.at >= r.startedAt && p.at <= r.drainedAt);
  const rows: [string, (r: TPhaseResult) => number][] = [
    ['devices', (r) => r.devices],
    ['offered points/s', (r) => r.offeredPerS],
    ['committed points/s (while offered)', (r) => r.committedPerS],
    ['peak RSS MB', (r) => r.peakRssMb],
    [
      '/healthz p50 ms',
      (r) =>
        percentile(
          health(r).map((p) => p.ms),
          50,
        ),
    ],
    [
      '/healthz p99 ms',
      (r) =>
        percentile(
          health(r).map((p) => p.ms),
          99,
        ),
    ],
    ['/healthz max ms', (r) => maxOf(health(r).map((p) => p.ms))],
    ['/healthz not 200', (r) => health(r).filter((p) => p.status !== 200).length],
    ['event-loop delay max ms', (r) => r.eventLoopMaxMs],
    ['drain s', (r) => (r.drainedAt - r.stoppedAt) / 1000],
    ['PUBACK p50 ms', (r) => percentile(r.pubackMs, 50)],
    ['PUBACK p99 ms', (r) => percentile(r.pubackMs, 99)],
    ['point age at PUBACK p99 s', (r) => percentile(r.ageMs, 99) / 1000],
    ['points acknowledged', (r) => r.acked],
    ['points stored', (r) => r.stored],
    ['points lost (acked, not stored)', (r) => r.lost],
    ['points refused', (r) => r.refused],
  ];
  console.log(
    `\noverload bench: --seconds ${SECONDS} --multiplier ${MULTIPLIER} --points ${POINTS} --window ${WINDOW} --device-rate ${DEVICE_POINTS_PER_S}`,
  );
  printTable(
    ['figure', ...results.map((r) => r.name + (r.complete ? '' : ' (drain timed out)'))],
    rows.map(([label, f]) => [label, ...results.map((r) => fmt(f(r)))]),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
