/**
 * UTC days of raw telemetry: the partition and chunk width (docs/decisions/telemetry-storage.md "Partition width").
 * Times are epoch ms; device timestamps are never before 2000 (the ingest window), so they are positive.
 */
import { DAY_MS } from '@tessera/contracts';

/** Midnight UTC of the day holding `ts` (epoch ms ≥ 0). */
export function dayStartOf(ts: number): number {
  return ts - (ts % DAY_MS);
}

/** The name of the hot partition of the day starting at `dayStart`: `telemetry_YYYYMMDD`. */
export function dayPartitionName(dayStart: number): string {
  return `telemetry_${new Date(dayStart).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/**
 * The first day that is still hot at `nowMs`: a day is cold once it ended at least `hotWindowMs` ago, so every day
 * starting before the answer is cold (compressed by the storage job), every later one hot (rows in partitions).
 */
export function firstHotDay(nowMs: number, hotWindowMs: number): number {
  return dayStartOf(nowMs - hotWindowMs);
}
