/**
 * Analytics (spec §2 `analytics` "device comparison", §5 "Analytics: at least one device, at most 5", §7
 * `/frontstage-ts/v1` statistics): a summary of each compared series and the activation rate of devices.
 * Decisions: docs/analytics.md. Times are epoch milliseconds.
 */
import { z } from 'zod';
import { ZEpochMsText, zIntText, EPOCH_MS_MAX } from './input.js';
import { MAX_ANALYTICS_DEVICES } from './limits.js';
import { isTangramId } from './tangram-id.js';
import { ZTelemetryKey } from './telemetry.js';

/** At most this many keys are compared at once. */
export const MAX_ANALYTICS_KEYS = 8;
/**
 * Up to this many stored points, a series' standard deviation and percentiles are exact over its points; above it
 * they are of its hourly averages (count, min, max and average stay exact).
 */
export const STATS_EXACT_POINTS_MAX = 50_000;

/** A comma-separated list of 1…`max` distinct items that each pass `valid`, as an array (order kept, duplicates dropped). */
function zCommaList(max: number, valid: (s: string) => boolean, what: string, normalise: (s: string) => string = (s) => s) {
  return z
    .string()
    .min(1)
    .max(max * 64)
    .transform((s) => [...new Set(s.split(',').map((x) => normalise(x.trim())))])
    .refine((list) => list.every(valid), `each item must be a ${what}`)
    .refine((list) => list.length <= max, `at most ${max} items`);
}

/** GET statistics/summary: the compared devices (1–5) × keys (1–8) over [startTs, endTs] (≤ 90 days). */
export const ZStatisticsSummaryQuery = z.object({
  tangramIds: zCommaList(MAX_ANALYTICS_DEVICES, isTangramId, 'Tangram ID', (s) => s.toUpperCase()),
  keys: zCommaList(MAX_ANALYTICS_KEYS, (k) => ZTelemetryKey.safeParse(k).success, 'telemetry key'),
  startTs: ZEpochMsText,
  endTs: zIntText(1, EPOCH_MS_MAX),
});
export type TStatisticsSummaryQuery = z.infer<typeof ZStatisticsSummaryQuery>;

/**
 * The summary of one device's key (its first value, v1) in the range. `basis` says what the spread figures
 * (stddev, p5, p50, p95) are of: every stored point (`points`), or hourly averages (`hourly`, when the series holds
 * more than {@link STATS_EXACT_POINTS_MAX} points; the range is then widened to whole hours). All figures are null
 * when the series has no point in the range.
 */
export const ZSeriesStatistics = z.object({
  tangramId: z.string(),
  key: z.string(),
  basis: z.enum(['points', 'hourly']),
  count: z.number().int(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  avg: z.number().nullable(),
  stddev: z.number().nullable(),
  p5: z.number().nullable(),
  p50: z.number().nullable(),
  p95: z.number().nullable(),
});
export type TSeriesStatistics = z.infer<typeof ZSeriesStatistics>;
/** The answer: one summary per device × key, devices then keys in the order asked. */
export const ZStatisticsSummary = z.object({ data: z.array(ZSeriesStatistics) });
export type TStatisticsSummary = z.infer<typeof ZStatisticsSummary>;

/** GET statistics/activation-rate: a range of ≤ 90 days and the caller's UTC offset (days start at its midnight). */
export const ZActivationRateQuery = z.object({
  startTs: ZEpochMsText,
  endTs: zIntText(1, EPOCH_MS_MAX),
  /** Minutes east of UTC (Taipei +480), i.e. `-new Date().getTimezoneOffset()`. */
  utc_offset_min: zIntText(-840, 840).default(0),
});
export type TActivationRateQuery = z.infer<typeof ZActivationRateQuery>;

/** Registered devices and those of them that have reported at least once, as of a moment. */
const ZActivationCount = z.object({ registered: z.number().int(), activated: z.number().int() });
/** A product's or project's counts at the end of the range. */
export const ZActivationGroup = ZActivationCount.extend({ id: z.number().int(), name: z.string() });
/**
 * The activation rate (a device is activated once it has reported anything): for each local day of the range the
 * counts at the day's end, and per product and per project the counts at the range's end (rate = activated /
 * registered; no devices → no rate).
 */
export const ZActivationRate = z.object({
  from: z.number(),
  to: z.number(),
  by_day: z.array(ZActivationCount.extend({ day: z.number() })),
  by_product: z.array(ZActivationGroup),
  by_project: z.array(ZActivationGroup),
});
export type TActivationRate = z.infer<typeof ZActivationRate>;
