/** Time series API (spec §7 `/frontstage-ts/v1`, §5 history range). Times are epoch milliseconds. */
import { z } from 'zod';
import { AGG_FNS } from './agg-fns.js';
import { EPOCH_MS_MAX, ZEpochMsText, zIntText } from './input.js';
import { DEFAULT_CHART_WIDTH, MAX_CHART_WIDTH, TELEMETRY_KEY_MAX } from './limits.js';
import { ZTangramId } from './tangram-id.js';
import { ZTelemetryValue, ZTelemetryValueType } from './telemetry-values.js';

/** A telemetry key: 1–32 characters of [A-Za-z0-9_.-]. */
export const ZTelemetryKey = z
  .string()
  .min(1)
  .max(TELEMETRY_KEY_MAX)
  .regex(/^[A-Za-z0-9_.-]+$/);

/** One stored point, as the raw timeseries endpoint returns it. */
export const ZTelemetryRow = z.object({
  ts: z.number(),
  svc_recv_ts: z.number(),
  key: z.string(),
  v1: z.number().nullable(),
  v2: z.number().nullable(),
  v3: z.number().nullable(),
  /** A non-numeric key's value (v1..v3 null then; telemetry-values.ts). */
  value: ZTelemetryValue.optional(),
});
export type TTelemetryRow = z.infer<typeof ZTelemetryRow>;

/** The latest value of one key; a non-numeric key (telemetry-values.ts) has an empty `vs` and its `value`. */
export const ZLatestValue = z.object({
  key: z.string(),
  ts: z.number(),
  svc_recv_ts: z.number(),
  vs: z.array(z.number().nullable()),
  value: ZTelemetryValue.optional(),
});
export type TLatestValue = z.infer<typeof ZLatestValue>;

export { AGG_FNS };
export const ZAggFn = z.enum(AGG_FNS);
export type TAggFn = z.infer<typeof ZAggFn>;

/** GET v2 timeseries: bucketed history of one device and key. */
export const ZTimeseriesQuery = z.object({
  tangramId: ZTangramId,
  key: ZTelemetryKey,
  startTs: ZEpochMsText,
  endTs: zIntText(1, EPOCH_MS_MAX),
  fn: ZAggFn.default('avg'),
  /**
   * When true, each bucket's value is the difference from the previous bucket. A query string carries "true" or
   * "false" (a coerced boolean would read "false" as true).
   */
  diff: z.stringbool().default(false),
  /** The chart's width in points; responses hold at most ~2× this many buckets. */
  width: zIntText(10, MAX_CHART_WIDTH).default(DEFAULT_CHART_WIDTH),
});
export type TTimeseriesQuery = z.infer<typeof ZTimeseriesQuery>;

/** One bucket: `ts` is the bucket start; `vs` the aggregated v1..v3 (null where a value is absent). */
export const ZTimeseriesPoint = z.object({ ts: z.number(), vs: z.array(z.number().nullable()) });
export const ZTimeseriesResponse = z.object({
  tangramId: z.string(),
  key: z.string(),
  fn: ZAggFn,
  bucket_ms: z.number().int(),
  /** Which table answered: raw rows, or a rollup of `bucket_ms`. */
  source: z.enum(['raw', 'rollup_1m', 'rollup_1h']),
  points: z.array(ZTimeseriesPoint),
});
export type TTimeseriesResponse = z.infer<typeof ZTimeseriesResponse>;

/** GET telemetries/value/timeseries (third-party form): raw rows of one key. */
export const ZRawTimeseriesQuery = z.object({
  tangramId: ZTangramId,
  key: ZTelemetryKey,
  startTs: ZEpochMsText,
  endTs: zIntText(1, EPOCH_MS_MAX),
});
export type TRawTimeseriesQuery = z.infer<typeof ZRawTimeseriesQuery>;

/** GET telemetries/metadata?tangramId=: the keys a device reports, from its project's sensors. */
export const ZTelemetryMetadata = z.array(
  z.object({
    key: z.string(),
    name: z.string(),
    unit: z.string(),
    value_count: z.number().int().min(1).max(3),
    enabled: z.boolean(),
    value_type: ZTelemetryValueType,
  }),
);
export type TTelemetryMetadata = z.infer<typeof ZTelemetryMetadata>;

/** A device's last status word: its value, when, as 40 binary digits, and each status group decoded. */
export const ZDecodedStatus = z.object({
  value: z.number(),
  ts: z.number(),
  binary: z.string(),
  decoded: z.array(
    z.object({
      name: z.string(),
      index: z.number(),
      bytesLength: z.number(),
      raw: z.number(),
      binary: z.string(),
      label: z.string().nullable(),
    }),
  ),
});
export type TDecodedStatusWord = z.infer<typeof ZDecodedStatus>;

/** GET deviceTwins?tangramIds=A,B: latest values and decoded status of each device the caller may see. */
export const ZDeviceTwin = z.object({
  tangramId: z.string(),
  telemetry: z.array(ZLatestValue),
  status: ZDecodedStatus.nullable(),
});
export type TDeviceTwin = z.infer<typeof ZDeviceTwin>;
export const ZDeviceTwinsQuery = z.object({
  tangramIds: z
    .string()
    .min(1)
    .max(31 * 200),
});

/** Error code of a download (or history query) whose range holds no data (spec §5 "no data in period"). */
export const TS_NO_DATA_CODE = 'NO_DATA_IN_PERIOD';

/**
 * Bucket sizes of v2 timeseries, in milliseconds ("nice" sizes; each a multiple of the previous rollup size so
 * a bucket is made of whole rollup buckets). Buckets are aligned on the epoch (UTC).
 */
export const NICE_BUCKETS_MS = [
  1_000,
  5_000,
  10_000,
  30_000,
  60_000,
  300_000,
  900_000,
  1_800_000,
  3_600_000,
  10_800_000,
  21_600_000,
  43_200_000,
  86_400_000,
  7 * 86_400_000,
  30 * 86_400_000,
] as const;

/** GET v1 timeseries (older clients): as v2 with fn avg and no diff. */
export const ZTimeseriesV1Query = ZTimeseriesQuery.omit({ fn: true, diff: true });
export type TTimeseriesV1Query = z.infer<typeof ZTimeseriesV1Query>;

/** ?tangramId= of the device-scoped endpoints. */
export const ZTangramIdQuery = z.object({ tangramId: ZTangramId });

/** GET latestN: the newest `n` raw rows of one key, newest first. */
export const ZLatestNQuery = z.object({
  tangramId: ZTangramId,
  key: ZTelemetryKey,
  n: zIntText(1, 1_000).default(100),
});
export type TLatestNQuery = z.infer<typeof ZLatestNQuery>;

/** GET types: the aggregation functions and value slots v2 timeseries supports. */
export const ZTsTypes = z.object({ fns: z.array(ZAggFn), values: z.array(z.string()), diff: z.boolean() });
export type TTsTypes = z.infer<typeof ZTsTypes>;

/** GET download: CSV of raw rows; `keys` comma-separated (absent: every key the device has reported). */
export const ZDownloadQuery = z.object({
  tangramId: ZTangramId,
  keys: z
    .string()
    .max(33 * 64)
    .optional(),
  startTs: ZEpochMsText,
  endTs: zIntText(1, EPOCH_MS_MAX),
});
export type TDownloadQuery = z.infer<typeof ZDownloadQuery>;

/** The CSV columns of a download, in order. */
export const DOWNLOAD_CSV_COLUMNS = ['ts', 'ts_ms', 'svc_recv_ts', 'key', 'v1', 'v2', 'v3', 'value'] as const;
