/**
 * The demo's history: on a new demo install, 7 days of the demo devices' telemetry before the start, so every
 * chart, dashboard and analytic shows something at once. Values come from the simulator's own generators
 * (@tessera/device-sim: the daily temperature and humidity cycle, the motor current's 10-minute duty cycle whose
 * peaks pass the demo rule's 1.9 A, a `drifting` device's vibration excursions into ISO 10816-3 zone C every 2 h), one
 * point a minute for current (every excursion is sampled) and one every five minutes for the other keys. They are
 * written through the ingest batch writer in large batches — raw rows, their 1-min and 1-h rollups and the latest
 * values aggregated inside the database, one statement per batch — while the server already serves
 * (docs/decisions/catalogue.md "History").
 */
import { DAY_MS } from '@tessera/contracts';
import { seededRandom, type TVibrationProfile, valuesOf } from '@tessera/device-sim';
import type { Db } from '../../db/client.js';
import { type TTelemetryRowIn, writeIngestBatch } from '../telemetry/write.js';

/** Days of history the demo starts with. */
export const DEMO_HISTORY_DAYS = 7;
/**
 * Points a batch writes (one transaction, one telemetry statement): large enough to cost few round trips, small enough
 * that a console request waiting behind one (PGlite runs one query at a time) waits a few hundred ms at most.
 */
const BATCH_POINTS = 5_000;
const MINUTE_MS = 60_000;

/** A demo device to backfill: its id, telemetry keys and how its vibration behaves (`steady` when absent). */
export interface TDemoHistoryDevice {
  id: number;
  keys: readonly string[];
  vibrationProfile?: TVibrationProfile;
}

/** Milliseconds between backfilled points of `key`: a minute for the motor current, five for the rest. */
export function historyStepMs(key: string): number {
  return key === 'current' ? MINUTE_MS : 5 * MINUTE_MS;
}

/**
 * The backfilled points of `device` (the `n`th demo device: its own random seed) for the `days` before `endMs`, on
 * whole steps, oldest first.
 */
export function demoHistoryPoints(device: TDemoHistoryDevice, n: number, endMs: number, days = DEMO_HISTORY_DAYS): TTelemetryRowIn[] {
  const rnd = seededRandom(1_000 + n);
  const rows: TTelemetryRowIn[] = [];
  for (const key of device.keys) {
    const step = historyStepMs(key);
    const last = Math.floor(endMs / step) * step;
    for (let ts = last - Math.floor((days * DAY_MS) / step) * step; ts <= last; ts += step) {
      const [v1, v2 = null, v3 = null] = valuesOf(key, ts, rnd, device.vibrationProfile);
      rows.push({ deviceId: device.id, key, ts, svcRecvTs: ts, v1, v2, v3 });
    }
  }
  return rows;
}

/**
 * Writes the history of every device ending at `endMs`, oldest batches first; `signal` stops it between batches
 * (a server shutting down).
 * @returns the number of points stored (points already stored are left as they are).
 * @throws the database error of a failed batch (the batches before it stay).
 */
export async function backfillDemoHistory(
  db: Db,
  devices: readonly TDemoHistoryDevice[],
  endMs: number,
  signal?: AbortSignal,
): Promise<number> {
  const points = devices.flatMap((d, n) => demoHistoryPoints(d, n, endMs)).sort((a, b) => a.ts - b.ts);
  let stored = 0;
  for (let i = 0; i < points.length && !signal?.aborted; i += BATCH_POINTS) {
    const { inserted } = await writeIngestBatch(db, { telemetry: points.slice(i, i + BATCH_POINTS), status: [], rejected: [] });
    stored += inserted;
  }
  return stored;
}
