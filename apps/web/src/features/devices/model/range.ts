/**
 * History-chart time ranges (spec §5 "History range 31 or 90 days"; the console allows up to
 * HISTORY_RANGE_MAX_DAYS, aggregated by the server). Epoch milliseconds throughout.
 */
import { DAY_MS, HISTORY_RANGE_MAX_DAYS } from '@tessera/contracts';

/** The longest range the picker accepts, in milliseconds. */
export const MAX_RANGE_MS = HISTORY_RANGE_MAX_DAYS * DAY_MS;

/** The zoomed range never gets narrower than this (ms): below it there is nothing finer to fetch. */
export const MIN_ZOOM_MS = 10_000;

const HOUR_MS = 3_600_000;

/** Range presets of the picker: label key → length in ms. */
export const RANGE_PRESETS = [
  { key: '1h', ms: HOUR_MS },
  { key: '24h', ms: 24 * HOUR_MS },
  { key: '7d', ms: 7 * DAY_MS },
  { key: '30d', ms: 30 * DAY_MS },
] as const;

/** A `[startTs, endTs]` range in epoch ms. */
export type TRange = readonly [number, number];

/** The default history range: the last 24 hours up to `now`. */
export function defaultRange(now: number): TRange {
  return [now - 24 * HOUR_MS, now];
}

/** True when `end` follows `start` and the range is at most {@link MAX_RANGE_MS}. */
export function isRangeAllowed(start: number, end: number): boolean {
  return end > start && end - start <= MAX_RANGE_MS;
}

/**
 * Whether the picker greys out a calendar day (its start `dayStart`, ms): days after today, and once one end is
 * chosen (`from`), days that would make the range longer than the limit in either direction.
 */
export function isDayDisabled(dayStart: number, from: number | undefined, now: number): boolean {
  if (dayStart > now) return true;
  if (from === undefined) return false;
  return Math.abs(dayStart - from) > MAX_RANGE_MS;
}

/** Clamps a chosen range to the limit by moving its start (times picked within allowed days can pass it by hours). */
export function clampRange(start: number, end: number): TRange {
  return [Math.max(start, end - MAX_RANGE_MS), end];
}

/**
 * The sub-range a dataZoom window selects: `startPct`/`endPct` (0–100) of `range`, at least {@link MIN_ZOOM_MS}
 * wide, rounded to whole ms. Returns null when the window is (about) the whole range: nothing to re-query.
 */
export function zoomedRange(range: TRange, startPct: number, endPct: number): TRange | null {
  const [start, end] = range;
  if (startPct <= 0.01 && endPct >= 99.99) return null;
  const span = end - start;
  let from = Math.round(start + (span * Math.max(0, startPct)) / 100);
  let to = Math.round(start + (span * Math.min(100, endPct)) / 100);
  if (to - from < MIN_ZOOM_MS) {
    const mid = (from + to) / 2;
    from = Math.max(start, Math.round(mid - MIN_ZOOM_MS / 2));
    to = Math.min(end, from + MIN_ZOOM_MS);
  }
  return [from, to];
}
