/**
 * Alert ranges in the console (spec §5 "History range at most 31 or 90 days": ALERT_RANGE_MAX_DAYS, the same check
 * the server makes). Epoch milliseconds; both ends inclusive.
 */
import { ALERT_RANGE_MAX_DAYS, alertRangeProblem, DAY_MS } from '@tessera/contracts';

/** A `[from, to]` range in epoch ms. */
export type TAlertRange = readonly [number, number];

/** The longest range the pickers accept, in milliseconds. */
export const ALERT_RANGE_MAX_MS = ALERT_RANGE_MAX_DAYS * DAY_MS;

/** The last `days` days up to `now` (statistics: 7, history: 7). */
export function lastDays(now: number, days: number): TAlertRange {
  return [now - days * DAY_MS, now];
}

/**
 * Whether the picker greys out a calendar day (its start `dayStart`): days after today, and once one end is picked
 * (`from`), days that would make the range longer than the limit either way.
 */
export function isAlertDayDisabled(dayStart: number, from: number | undefined, now: number): boolean {
  if (dayStart > now) return true;
  if (from === undefined) return false;
  return Math.abs(dayStart - from) > ALERT_RANGE_MAX_MS;
}

/** Shortens a picked range to the limit by moving its start (times within allowed days can pass it by hours). */
export function clampAlertRange(from: number, to: number): TAlertRange {
  return [Math.max(from, to - ALERT_RANGE_MAX_MS), to];
}

/**
 * The range of a page's URL (`?from=&to=`), or `fallback` when absent, with the problem the server would refuse it
 * for (a hand-edited or old link): the page then explains instead of querying.
 */
export function rangeFromParams(
  params: URLSearchParams,
  fallback: TAlertRange,
): { range: TAlertRange; problem: 'order' | 'too_long' | null } {
  const from = Number(params.get('from'));
  const to = Number(params.get('to'));
  const range: TAlertRange = params.has('from') && params.has('to') && Number.isFinite(from) && Number.isFinite(to) ? [from, to] : fallback;
  return { range, problem: alertRangeProblem(range[0], range[1]) };
}
