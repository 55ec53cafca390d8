/**
 * One phase of the overload benchmark: fork the load generator (devices.ts) with an order, sample the server's
 * memory and event loop (this process hosts the server) until the generator reports the drain, then count what
 * the database holds of the acknowledged points.
 */
import { fork } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type pg from 'pg';
import type { TDevicesOrder, TDevicesReport } from './devices.js';

/** What a phase measured. Times are epoch ms (wall clock, shared with the prober process). */
export interface TPhaseResult {
  name: string;
  startedAt: number;
  stoppedAt: number;
  drainedAt: number;
  complete: boolean;
  offeredPerS: number;
  committedPerS: number;
  peakRssMb: number;
  eventLoopMaxMs: number;
  pubackMs: number[];
  ageMs: number[];
  acked: number;
  stored: number;
  lost: number;
  refused: number;
  devices: number;
}

/** What the phase needs from run.ts. */
export interface TPhaseDeps {
  pool: pg.Pool;
  /** Points stored so far (a count of the telemetry table). */
  committed: () => Promise<number>;
  /** Per-sample hook (every SAMPLE_MS) for extra gauges. */
  onSample?: (at: number) => void;
}

const SAMPLE_MS = 100;
const DEVICES_FILE = new URL('./devices.ts', import.meta.url);

function refusedTotal(pool: pg.Pool): Promise<number> {
  return pool.query('select coalesce(sum(count), 0)::bigint as n from device_ingest_stats').then((r) => Number(r.rows[0].n));
}

/** Runs the generator with `order` (with an empty device list: idles `order.seconds`), measuring the server. */
export async function runPhase(name: string, order: TDevicesOrder, deps: TPhaseDeps): Promise<TPhaseResult> {
  const refusedBefore = await refusedTotal(deps.pool);
  const eld = monitorEventLoopDelay({ resolution: 10 });
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    deps.onSample?.(Date.now());
  }, SAMPLE_MS);
  let startedAt = Date.now();
  let committedAtStart = deps.committed();
  let committedAtStop = committedAtStart;
  let report: Extract<TDevicesReport, { type: 'drained' }>;
  let stoppedAt = 0;
  if (order.devices.length === 0) {
    eld.enable();
    await new Promise((r) => setTimeout(r, order.seconds * 1000));
    stoppedAt = Date.now();
    committedAtStop = deps.committed();
    report = { type: 'drained', at: stoppedAt, complete: true, due: 0, sent: 0, acked: 0, ackedByDevice: {}, pubackMs: [], ageMs: [] };
  } else {
    const child = fork(DEVICES_FILE, [], { execArgv: ['--import', 'tsx'] });
    report = await new Promise((resolve, reject) => {
      child.on('message', (m: TDevicesReport) => {
        if (m.type === 'connected') {
          startedAt = Date.now();
          committedAtStart = deps.committed();
          eld.enable();
        } else if (m.type === 'stopped') {
          stoppedAt = m.at;
          committedAtStop = deps.committed();
        } else resolve(m);
      });
      child.once('exit', (code) => reject(new Error(`load generator exited (${code}) before reporting`)));
      child.send(order);
    });
    child.removeAllListeners('exit');
  }
  eld.disable();
  clearInterval(sampler);
  const committedPerS = (((await committedAtStop) - (await committedAtStart)) * 1000) / Math.max(1, stoppedAt - startedAt);
  const stored = await storedByDevice(deps.pool, order);
  let lost = 0;
  for (const [id, acked] of Object.entries(report.ackedByDevice)) lost += Math.max(0, acked - (stored.get(Number(id)) ?? 0));
  return {
    name,
    startedAt,
    stoppedAt,
    drainedAt: report.at,
    complete: report.complete,
    offeredPerS: order.devices.length * order.pointsPerS,
    committedPerS,
    peakRssMb: peakRss / 2 ** 20,
    eventLoopMaxMs: eld.max / 1e6,
    pubackMs: report.pubackMs,
    ageMs: report.ageMs,
    acked: report.acked,
    stored: [...stored.values()].reduce((a, b) => a + b, 0),
    lost,
    refused: (await refusedTotal(deps.pool)) - refusedBefore,
    devices: order.devices.length,
  };
}

async function storedByDevice(pool: pg.Pool, order: TDevicesOrder): Promise<Map<number, number>> {
  if (order.devices.length === 0) return new Map();
  const res = await pool.query(
    'select device_id, count(*)::bigint as n from telemetry where device_id = any($1::int[]) and ts >= $2 and ts < $3 group by device_id',
    [order.devices.map((d) => d.id), order.tsBase, order.tsBase + 3_600_000],
  );
  return new Map(res.rows.map((r: { device_id: number; n: string }) => [r.device_id, Number(r.n)]));
}
