/**
 * bench/storage/alongside: ingest throughput while the telemetry storage job compresses and expires days, beside the
 * same load while the job is idle, alternated in one run. Target: with the job ≥ 0.9× without it.
 *
 * The server (bench/support's starter: the real server in this process over a scratch PostgreSQL database) takes the
 * ingest bench's load — bench/ingest/one-point-load.ts in its own process, `ALONGSIDE_DEVICES` MQTT.js devices each
 * keeping `ALONGSIDE_WINDOW` 1-point QoS 1 publishes unacknowledged — and counts the PUBACKs of the measured window:
 * a PUBACK is sent after the point's commit, so that is committed points/s. Before each phase with the job, cold
 * days are written (not measured, backfill.ts: `ALONGSIDE_DEVICES` devices × 4 keys, a point every
 * `ALONGSIDE_PERIOD_S` s): `ALONGSIDE_EXPIRED_DAYS` days older than the project's 7-day raw retention, which a run
 * compresses and then expires, and `ALONGSIDE_KEPT_DAYS` days inside it, which it compresses. During that phase the
 * job runs back to back (`runTelemetryStorage`, the function the server's storage loop calls every
 * TELEMETRY_STORAGE_INTERVAL_MS, on the server's own database handle, paced by the server's
 * TELEMETRY_STORAGE_BUSY_PERCENT; the server's loop itself is off so that the idle phases are idle); a run that finds
 * nothing waits 200 ms; at the window's end the run under way is stopped (its signal) after its current slice, and
 * the next job phase goes on where it stopped. The fraction of the window a run was under way is printed (a figure
 * with the job under way for less than the whole window says so), and the points it compressed per second of the
 * window, from which the time to compress a day of 100 devices × 4 keys at 1 Hz follows.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:storage-alongside -w @tessera/bench
 *   env: ALONGSIDE_ROUNDS (2: idle, job, job, idle), ALONGSIDE_SECONDS (20) measured per phase after
 *        ALONGSIDE_WARMUP_S (3), ALONGSIDE_DEVICES (100), ALONGSIDE_WINDOW (10), ALONGSIDE_PERIOD_S (10),
 *        ALONGSIDE_EXPIRED_DAYS (1), ALONGSIDE_KEPT_DAYS (1), ALONGSIDE_SLICE_POINTS (the job's default, slices.ts);
 *        the job's pace: the server's TELEMETRY_STORAGE_BUSY_PERCENT
 */
import { runTelemetryStorage } from '@tessera/server';
import { prepareHotPartitions } from '../../apps/server/src/modules/telemetry-store/storage-job.js';
import { startBenchServer } from '../support/bench-server.js';
import { backfillDay, dayStartAgo } from './backfill.js';
import { loadAverage } from './bench-stats.js';
import { LoadProcess } from './load-process.js';

const ROUNDS = Number(process.env.ALONGSIDE_ROUNDS ?? 2);
const SECONDS = Number(process.env.ALONGSIDE_SECONDS ?? 20);
const WARMUP_S = Number(process.env.ALONGSIDE_WARMUP_S ?? 3);
const DEVICES = Number(process.env.ALONGSIDE_DEVICES ?? 100);
const WINDOW = Number(process.env.ALONGSIDE_WINDOW ?? 10);
const PERIOD_S = Number(process.env.ALONGSIDE_PERIOD_S ?? 10);
const EXPIRED_DAYS = Number(process.env.ALONGSIDE_EXPIRED_DAYS ?? 1);
const KEPT_DAYS = Number(process.env.ALONGSIDE_KEPT_DAYS ?? 1);
const SLICE_POINTS = process.env.ALONGSIDE_SLICE_POINTS ? Number(process.env.ALONGSIDE_SLICE_POINTS) : undefined;
const RETENTION_DAYS = 7;

interface TPhase {
  job: boolean;
  rate: number;
  /** Share of the measured window during which a job run was under way (job phases). */
  busy: number;
  days: number;
  points: number;
  expired: number;
  /** Seconds the job's runs that did work took, from their start to their end (past the window too). */
  jobS: number;
  load: string;
}

async function main(): Promise<void> {
  const bench = await startBenchServer({ devices: DEVICES, poolSize: 20, telemetryStorageIntervalMs: 0 });
  const { database, server, project } = bench;
  const settings = {
    hotWindowMs: server.ctx.config.telemetryHotWindowMs,
    busyPercent: server.ctx.config.telemetryStorageBusyPercent,
    compressSlicePoints: SLICE_POINTS,
  };
  // As the server does before it listens when its job is on: today's points go to today's partition, not the default.
  await prepareHotPartitions(database, settings);
  const load = new LoadProcess();
  const deviceIds = project.devices.map((d) => d.id);
  // Kept days: 2 … 6 days ago (cold with a hot window of up to a day, inside the retention); expired: 9 days ago on.
  let nextKept = 2;
  let nextExpired = RETENTION_DAYS + 2;
  try {
    await database.pool!.query('insert into project_retention (project_id, raw_days) values ($1, $2)', [project.projectId, RETENTION_DAYS]);
    await load.run({ kind: 'connect', port: server.mqttPort as number, devices: project.devices });
    console.log(
      `storage alongside ingest: ${DEVICES} devices × ${WINDOW} 1-point QoS 1 publishes in flight, ${SECONDS} s per phase after ${WARMUP_S} s; each job phase: ${EXPIRED_DAYS} expired + ${KEPT_DAYS} kept cold days of ${DEVICES} devices × 4 keys every ${PERIOD_S} s; job busy at most ${settings.busyPercent} %, slices of ${settings.compressSlicePoints ?? 'the default'} points`,
    );
    const phases: TPhase[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? [false, true] : [true, false];
      for (const job of order) {
        let written = 0;
        if (job) {
          const t = performance.now();
          for (let i = 0; i < EXPIRED_DAYS; i += 1) written += await backfillDay(database, deviceIds, dayStartAgo(nextExpired++), PERIOD_S);
          for (let i = 0; i < KEPT_DAYS; i += 1) {
            if (nextKept > RETENTION_DAYS - 1)
              throw new Error('too many kept days for the retention: lower ALONGSIDE_ROUNDS or ALONGSIDE_KEPT_DAYS');
            written += await backfillDay(database, deviceIds, dayStartAgo(nextKept++), PERIOD_S);
          }
          await database.pool!.query('analyze telemetry');
          console.log(
            `  backfilled ${written.toLocaleString('en')} points of cold days in ${((performance.now() - t) / 1000).toFixed(0)} s (not measured)`,
          );
        }
        let windowAt = 0;
        let running = job;
        let busyMs = 0;
        const done = { days: 0, points: 0, expired: 0, jobS: 0 };
        let runs: Promise<void> = Promise.resolve();
        const stopping = new AbortController();
        const startJob = () => {
          windowAt = performance.now();
          if (!job) return;
          runs = (async () => {
            while (running) {
              const t0 = performance.now();
              const r = await runTelemetryStorage(database, settings, Date.now(), { signal: stopping.signal });
              const worked = !r.skipped && r.days + r.expired.chunks > 0;
              if (!r.skipped) {
                done.days += r.days;
                done.points += r.points;
                done.expired += r.expired.rawPoints;
              }
              if (worked) done.jobS += (performance.now() - t0) / 1000;
              if (worked) busyMs += Math.min(performance.now(), windowAt + SECONDS * 1000) - Math.max(t0, windowAt);
              else await new Promise((res) => setTimeout(res, 200));
            }
          })();
        };
        const r = await load.run<'closed'>({ kind: 'closed', warmupS: WARMUP_S, seconds: SECONDS, window: WINDOW }, startJob);
        const loadNow = loadAverage();
        running = false;
        stopping.abort();
        await runs;
        const phase: TPhase = { job, rate: r.acked / r.elapsedS, busy: busyMs / (SECONDS * 1000), ...done, load: loadNow };
        phases.push(phase);
        console.log(
          `  ${job ? 'job running' : 'job idle   '}: ${Math.round(phase.rate).toLocaleString('en')} committed points/s${job ? `; a run under way ${(phase.busy * 100).toFixed(0)} % of the window, ${phase.days} days / ${phase.points.toLocaleString('en')} points compressed (${Math.round(phase.points / SECONDS).toLocaleString('en')}/s: a day of 100 devices × 4 keys at 1 Hz in ${(34_560_000 / (phase.points / SECONDS) / 3600).toFixed(1)} h), ${phase.expired.toLocaleString('en')} points expired in ${phase.jobS.toFixed(0)} s of runs` : ''} (load average ${loadNow})`,
        );
      }
    }
    const mean = (job: boolean) => {
      const xs = phases.filter((p) => p.job === job).map((p) => p.rate);
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    const ratio = mean(true) / mean(false);
    console.log(
      `storage alongside: ${Math.round(mean(true)).toLocaleString('en')} committed points/s with the job running, ${Math.round(mean(false)).toLocaleString('en')} with it idle (same run): ${ratio.toFixed(2)}× (target ≥ 0.9×)`,
    );
    if (ratio < 0.9) process.exitCode = 1;
    await load.run({ kind: 'end' });
  } finally {
    await bench.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
