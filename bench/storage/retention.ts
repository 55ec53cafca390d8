/**
 * bench/storage/retention: how long the storage job's retention takes to expire `RETENTION_POINTS` (10 M) raw points
 * — whole compressed days (chunks), as it always does — and ingest's publish → PUBACK p99 while it runs, beside the
 * p99 of the same paced load with no retention running (before and after it), in one run. Target: p99 not doubled.
 *
 * Data: `RETENTION_DEVICES` (100) devices × 4 keys at a point every `RETENTION_PERIOD_S` (10) s, over as many whole
 * days 40 days ago and before as make at least `RETENTION_POINTS`; written into day partitions (backfill.ts) and
 * compressed by a run of the job with no retention set (timed, not the figure). Then the project's raw retention is
 * set to 30 days and one run of the job (`runTelemetryStorage`, the function the server's storage loop calls) is
 * started at the beginning of a paced phase's measured window. Then the same for rollups: the days' 1-minute and
 * 1-hour rollup rows (written from their points beside the backfill, not measured) expire once the project's rollup
 * retentions are set to 30 days, in a second run started with another paced window. The runs are paced as the
 * server's TELEMETRY_STORAGE_BUSY_PERCENT says (the setup compression is not). The load is the ingest bench's load
 * process (bench/ingest/one-point-load.ts: `RETENTION_DEVICES` MQTT.js devices, 1-point QoS 1 messages,
 * `RETENTION_RATE` messages/s in all whatever is unacknowledged); the p99 "while it runs" is over the publishes sent
 * between the run's start and its end (or the window's end, for a run that outlasts it: its time is printed).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:storage-retention -w @tessera/bench
 *   env: RETENTION_POINTS (10000000), RETENTION_DEVICES (100), RETENTION_PERIOD_S (10), RETENTION_RATE (1000 msg/s),
 *        RETENTION_SECONDS (20) measured per phase after RETENTION_WARMUP_S (3)
 */
import { runTelemetryStorage } from '@tessera/server';
import { prepareHotPartitions } from '../../apps/server/src/modules/telemetry-store/storage-job.js';
import { startBenchServer } from '../support/bench-server.js';
import { BACKFILL_KEYS, backfillDay, backfillRollups, dayStartAgo } from './backfill.js';
import { loadAverage, pct } from './bench-stats.js';
import { LoadProcess } from './load-process.js';

const POINTS = Number(process.env.RETENTION_POINTS ?? 10_000_000);
const DEVICES = Number(process.env.RETENTION_DEVICES ?? 100);
const PERIOD_S = Number(process.env.RETENTION_PERIOD_S ?? 10);
const RATE = Number(process.env.RETENTION_RATE ?? 1000);
const SECONDS = Number(process.env.RETENTION_SECONDS ?? 20);
const WARMUP_S = Number(process.env.RETENTION_WARMUP_S ?? 3);
const RETENTION_DAYS = 30;

async function main(): Promise<void> {
  const bench = await startBenchServer({ devices: DEVICES, poolSize: 20, telemetryStorageIntervalMs: 0 });
  const { database, server, project } = bench;
  const pool = database.pool!;
  const settings = { hotWindowMs: server.ctx.config.telemetryHotWindowMs, busyPercent: server.ctx.config.telemetryStorageBusyPercent };
  // As the server does before it listens when its job is on: today's points go to today's partition, not the default.
  await prepareHotPartitions(database, settings);
  const load = new LoadProcess();
  try {
    const perDay = DEVICES * BACKFILL_KEYS.length * Math.ceil(86_400 / PERIOD_S);
    const days = Math.ceil(POINTS / perDay);
    let t = performance.now();
    let written = 0;
    let rollupRows = 0;
    for (let d = 0; d < days; d += 1) {
      const dayStart = dayStartAgo(RETENTION_DAYS + 10 + d);
      written += await backfillDay(
        database,
        project.devices.map((x) => x.id),
        dayStart,
        PERIOD_S,
      );
      rollupRows += await backfillRollups(database, dayStart);
    }
    const backfillS = (performance.now() - t) / 1000;
    t = performance.now();
    const compressed = await runTelemetryStorage(database, { ...settings, busyPercent: 100 });
    const compressS = (performance.now() - t) / 1000;
    if (compressed.skipped || compressed.points !== written)
      throw new Error(`compressed ${JSON.stringify(compressed)} of ${written} points`);
    await pool.query('vacuum analyze telemetry_chunk');
    const chunks = await pool.query<{ n: string; bytes: string }>(
      `select count(*) as n, pg_total_relation_size('telemetry_chunk') as bytes from telemetry_chunk`,
    );
    await pool.query('vacuum analyze telemetry_rollup');
    console.log(
      `retention bench: ${written.toLocaleString('en')} points (${DEVICES} devices × 4 keys every ${PERIOD_S} s × ${days} days) and ${rollupRows.toLocaleString('en')} 1-min and 1-h rollup rows written in ${backfillS.toFixed(0)} s, compressed by the job in ${compressS.toFixed(0)} s into ${chunks.rows[0].n} chunks, ${(Number(chunks.rows[0].bytes) / 1e6).toFixed(1)} MB (not measured); load average ${loadAverage()}`,
    );

    await load.run({ kind: 'connect', port: server.mqttPort as number, devices: project.devices });
    const paced = (onWindow: () => void = () => undefined) =>
      load.run<'paced'>({ kind: 'paced', warmupS: WARMUP_S, seconds: SECONDS, ratePerS: RATE, samples: true }, onWindow);
    const idle = async (name: string) => {
      const r = await paced();
      console.log(
        `  ${name}: ${r.acked}/${r.sent} acknowledged, publish → PUBACK p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms, max ${r.maxMs.toFixed(0)} ms (load average ${loadAverage()})`,
      );
      return (r.samples ?? []).map(([, ms]) => ms);
    };

    const before = await idle('no retention running (before)');
    /** One run started with a paced window: its result, seconds, and the publish → PUBACK times while it ran. */
    const timedRun = async () => {
      let windowAt = 0;
      let run: ReturnType<typeof runTelemetryStorage> | undefined;
      let runS = 0;
      const r = await paced(() => {
        windowAt = performance.now();
        run = runTelemetryStorage(database, settings).then((x) => {
          runS = (performance.now() - windowAt) / 1000;
          return x;
        });
      });
      const result = await run!;
      if (result.skipped) throw new Error('the retention run was skipped');
      const during = (r.samples ?? []).filter(([s]) => s <= runS).map(([, ms]) => ms);
      return { result, runS, during, whole: r };
    };
    await pool.query('insert into project_retention (project_id, raw_days) values ($1, $2)', [project.projectId, RETENTION_DAYS]);
    const raw = await timedRun();
    const left = Number((await pool.query('select count(*) as n from telemetry_chunk')).rows[0].n);
    console.log(
      `  raw retention run: ${raw.result.expired.chunks} chunks, ${raw.result.expired.rawPoints.toLocaleString('en')} points expired in ${raw.runS.toFixed(2)} s (${left} chunks left); publish → PUBACK while it ran: ${raw.during.length} messages, p50 ${pct(raw.during, 50).toFixed(1)} ms, p99 ${pct(raw.during, 99).toFixed(1)} ms; whole window p99 ${raw.whole.p99Ms.toFixed(1)} ms, max ${raw.whole.maxMs.toFixed(0)} ms (load average ${loadAverage()})`,
    );
    await pool.query('update project_retention set rollup_1m_days = $2, rollup_1h_days = $2 where project_id = $1', [
      project.projectId,
      RETENTION_DAYS,
    ]);
    const rollups = await timedRun();
    const rollupsLeft = Number(
      (await pool.query('select count(*) as n from telemetry_rollup where bucket_ts < $1', [dayStartAgo(RETENTION_DAYS + 1)])).rows[0].n,
    );
    console.log(
      `  rollup retention run: ${rollups.result.expired.rollupRows.toLocaleString('en')} rollup rows expired in ${rollups.runS.toFixed(2)} s (${rollupsLeft} left); publish → PUBACK while it ran: ${rollups.during.length} messages, p50 ${pct(rollups.during, 50).toFixed(1)} ms, p99 ${pct(rollups.during, 99).toFixed(1)} ms; whole window p99 ${rollups.whole.p99Ms.toFixed(1)} ms, max ${rollups.whole.maxMs.toFixed(0)} ms (load average ${loadAverage()})`,
    );
    const after = await idle('no retention running (after)');
    const baseline = pct([...before, ...after], 99);
    const ratio = pct(raw.during, 99) / baseline;
    const rollupRatio = pct(rollups.during, 99) / baseline;
    console.log(
      `storage retention: ${raw.result.expired.rawPoints.toLocaleString('en')} expired points in ${raw.runS.toFixed(2)} s, ${rollups.result.expired.rollupRows.toLocaleString('en')} expired rollup rows in ${rollups.runS.toFixed(2)} s; publish → PUBACK p99 ${pct(raw.during, 99).toFixed(1)} ms and ${pct(rollups.during, 99).toFixed(1)} ms while they ran, ${baseline.toFixed(1)} ms with no retention running (same run): ${ratio.toFixed(2)}× and ${rollupRatio.toFixed(2)}× (target < 2×)`,
    );
    if (
      raw.result.expired.rawPoints !== written ||
      left !== 0 ||
      rollups.result.expired.rollupRows !== rollupRows ||
      ratio >= 2 ||
      rollupRatio >= 2
    )
      process.exitCode = 1;
    await load.run({ kind: 'end' });
  } finally {
    await bench.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
