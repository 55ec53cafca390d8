/**
 * Platform telemetry (spec §2 `platform-telemetry` → `instance`, §3 "name, formula, coefficient, mounted devices,
 * latest value and time", §5 "name required, max 32", §7 `/frontstage-pt/v1/platform-telemetry` list, GET, POST, PUT,
 * DELETE; docs/platform-telemetry.md): a series derived from mounted devices' keys by a formula such as
 * `(m1.current + m2.current) * 220`, times a coefficient, evaluated as the devices' points arrive.
 */
import { z } from 'zod';
import { FLOW_PROBLEM_CODES, type TFlowProblemCode, type TFlowProblemParams } from './flow-problems.js';
import { ZEpochMsText, zIntText, EPOCH_MS_MAX } from './input.js';
import { zPage } from './pagination.js';
import { ZTangramId } from './tangram-id.js';
import { AGG_FNS, ZTimeseriesPoint } from './telemetry.js';
import { ZSeriesStatistics } from './analytics.js';
import { DEFAULT_CHART_WIDTH, MAX_CHART_WIDTH } from './limits.js';

/** Prefix of the platform-telemetry calls (spec §7). */
export const PT_API = '/frontstage-pt/v1';

/** Paths of platform telemetry, relative to the host. */
export const platformTelemetryPaths = {
  list: `${PT_API}/platform-telemetry`,
  item: (id: number) => `${PT_API}/platform-telemetry/${id}`,
  timeseries: (id: number) => `${PT_API}/platform-telemetry/${id}/timeseries`,
  statistics: (id: number) => `${PT_API}/platform-telemetry/${id}/statistics`,
  preview: `${PT_API}/platform-telemetry/preview`,
} as const;

/** §5: the name is required and at most 32 characters. */
export const PLATFORM_TELEMETRY_NAME_MAX = 32;
/** A formula is at most this many characters. */
export const PLATFORM_TELEMETRY_FORMULA_MAX = 500;
/** At most this many devices are mounted on one platform telemetry. */
export const PLATFORM_TELEMETRY_DEVICES_MAX = 20;
/** At most this many platform telemetries per tenant. */
export const PLATFORM_TELEMETRY_MAX = 100;
/** The stored series keeps one point per this many milliseconds: the last value evaluated in each minute. */
export const PLATFORM_TELEMETRY_POINT_MS = 60_000;
/** The functions a formula may call (all numeric). */
export const FORMULA_FUNCTIONS = ['abs', 'min', 'max', 'round', 'floor', 'ceil', 'sqrt', 'pow'] as const;

/** A mounted device's alias: what the formula calls it (`m1` in `m1.current`). */
/** The pattern of a device alias (the console's form checks it too). */
export const DEVICE_ALIAS_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,15}$/;
export const ZDeviceAlias = z.string().regex(DEVICE_ALIAS_PATTERN, 'a letter or _, then up to 15 letters, digits or _');

/** A mounted device: its alias in the formula and its Tangram ID. */
export const ZMountedDeviceInput = z.object({ alias: ZDeviceAlias, tangram_id: ZTangramId });

/** POST / PUT body. Aliases are unique; the formula is checked against the mounted devices' keys. */
export const ZPlatformTelemetryInput = z.object({
  name: z.string().trim().min(1).max(PLATFORM_TELEMETRY_NAME_MAX),
  formula: z.string().trim().min(1).max(PLATFORM_TELEMETRY_FORMULA_MAX),
  coefficient: z.number().finite().default(1),
  unit: z.string().trim().max(16).default(''),
  devices: z
    .array(ZMountedDeviceInput)
    .min(1)
    .max(PLATFORM_TELEMETRY_DEVICES_MAX)
    .refine((list) => new Set(list.map((d) => d.alias)).size === list.length, 'each alias once'),
});
export type TPlatformTelemetryInput = z.input<typeof ZPlatformTelemetryInput>;

/** A mounted device as answered: alias, Tangram ID, name and the keys its project defines. */
export const ZMountedDevice = z.object({ alias: z.string(), tangram_id: z.string(), name: z.string(), keys: z.array(z.string()) });
export type TMountedDevice = z.infer<typeof ZMountedDevice>;

/** A platform telemetry. `latest_error` says why the last evaluation gave no value (a missing input, ÷ 0). */
export const ZPlatformTelemetry = z.object({
  id: z.number().int(),
  name: z.string(),
  formula: z.string(),
  coefficient: z.number(),
  unit: z.string(),
  devices: z.array(ZMountedDevice),
  latest_value: z.number().nullable(),
  latest_ts: z.number().nullable(),
  latest_error: z.string().nullable(),
  updated_at: z.number(),
});
export type TPlatformTelemetry = z.infer<typeof ZPlatformTelemetry>;
export const ZPlatformTelemetryPage = zPage(ZPlatformTelemetry);
export type TPlatformTelemetryPage = z.infer<typeof ZPlatformTelemetryPage>;

/** A formula problem: its code and parameters (contracts' flow problems), English message and 0-based position. */
export interface TFormulaProblem {
  code: TFlowProblemCode;
  params: TFlowProblemParams;
  message: string;
  /** Where in the formula (0-based character index), when the problem has a place. */
  position: number | null;
}
export const ZFormulaProblem = z.object({
  code: z.enum(FLOW_PROBLEM_CODES as [TFlowProblemCode, ...TFlowProblemCode[]]),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  message: z.string(),
  position: z.number().int().nullable(),
});

/** POST preview: the formula on the mounted devices' latest values, without saving. */
export const ZFormulaPreviewInput = ZPlatformTelemetryInput.pick({ formula: true, coefficient: true, devices: true });
export type TFormulaPreviewInput = z.input<typeof ZFormulaPreviewInput>;
/** The preview: the value and the newest input's time, or the formula's problem, or why it has no value yet. */
export const ZFormulaPreview = z.object({
  value: z.number().nullable(),
  ts: z.number().nullable(),
  problem: ZFormulaProblem.nullable(),
  run_error: z.string().nullable(),
});
export type TFormulaPreview = z.infer<typeof ZFormulaPreview>;

/** GET {id}/timeseries: the stored series bucketed like history charts. */
export const ZPlatformTelemetrySeriesQuery = z.object({
  startTs: ZEpochMsText,
  endTs: zIntText(1, EPOCH_MS_MAX),
  fn: z.enum(AGG_FNS).default('avg'),
  width: zIntText(10, MAX_CHART_WIDTH).default(DEFAULT_CHART_WIDTH),
});
export type TPlatformTelemetrySeriesQuery = z.infer<typeof ZPlatformTelemetrySeriesQuery>;
export const ZPlatformTelemetrySeries = z.object({ id: z.number().int(), bucket_ms: z.number().int(), points: z.array(ZTimeseriesPoint) });
export type TPlatformTelemetrySeries = z.infer<typeof ZPlatformTelemetrySeries>;

/** GET {id}/statistics: a range of at most 90 days. */
export const ZPlatformTelemetryStatisticsQuery = z.object({ startTs: ZEpochMsText, endTs: zIntText(1, EPOCH_MS_MAX) });
export type TPlatformTelemetryStatisticsQuery = z.infer<typeof ZPlatformTelemetryStatisticsQuery>;
/** The analytics summary of a platform telemetry's stored series (one point a minute), exact over those points. */
export const ZPlatformTelemetryStatistics = ZSeriesStatistics.omit({ tangramId: true, key: true, basis: true }).extend({
  id: z.number().int(),
});
export type TPlatformTelemetryStatistics = z.infer<typeof ZPlatformTelemetryStatistics>;

/** The live message of `live/platform-telemetry/{id}`: a new latest value and its time. */
export const ZLivePlatformTelemetry = z.object({ id: z.number().int(), value: z.number(), ts: z.number() });
export type TLivePlatformTelemetry = z.infer<typeof ZLivePlatformTelemetry>;
