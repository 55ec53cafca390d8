/**
 * The dashboard widgets' parameters (dashboard.ts `WIDGET_PARAMETERS`, docs/dashboard.md "Widgets") as valibot
 * schemas, and {@link parseWidgetParameterMini}: the same checks as the classic zod schemas, which the server and the
 * widget editor use, so that an open dashboard draws its widgets without loading zod (docs/web-bundle.md).
 * dashboard-mini.test.ts runs both over the same valid and invalid samples. Constants come from zod-free modules only.
 */
import * as v from 'valibot';
import { AGG_FNS } from './agg-fns.js';
import type { TWidgetParameter } from './dashboard.js';
import { checkParameterJson, DASHBOARD_RANGES_MS, type TWidgetParameterCheck, type TWidgetType } from './dashboard-values.js';
import { vInt, vNumber } from './live-mini.js';
import { DASHBOARD_REFRESH_MIN, ID_MAX, TELEMETRY_KEY_MAX } from './limits.js';
import { TANGRAM_ID_LENGTH } from './tangram-id-widths.js';

/** tangram-id.ts `ZTangramId`: 30 upper-case hex digits. */
const VTangramId = v.pipe(v.string(), v.length(TANGRAM_ID_LENGTH), v.regex(/^[0-9A-F]+$/, 'upper-case hex'));
/** telemetry.ts `ZTelemetryKey`: 1–32 characters of [A-Za-z0-9_.-]. */
const VTelemetryKey = v.pipe(v.string(), v.minLength(1), v.maxLength(TELEMETRY_KEY_MAX), v.regex(/^[A-Za-z0-9_.-]+$/));

const VSeriesList = v.pipe(v.array(v.object({ tangram_id: VTangramId, key: VTelemetryKey })), v.minLength(1), v.maxLength(10));
const VRefresh = v.picklist(DASHBOARD_REFRESH_MIN);
const VRange = v.pipe(
  vInt(),
  v.check((ms) => (DASHBOARD_RANGES_MS as readonly number[]).includes(ms), 'not one of the ranges'),
);
const PAGE_REF = { dashboard_page: v.optional(v.pipe(vInt(), v.minValue(1))) };

/** Each widget type's parameter (the JSON inside `parameter`), as dashboard.ts `WIDGET_PARAMETERS`. */
const WIDGET_PARAMETERS_MINI = {
  latest: v.object({ ...PAGE_REF, tangram_id: VTangramId, key: VTelemetryKey }),
  gauge: v.pipe(
    v.object({
      ...PAGE_REF,
      tangram_id: VTangramId,
      key: VTelemetryKey,
      min: vNumber(),
      max: vNumber(),
      thresholds: v.optional(
        v.pipe(v.array(v.object({ value: vNumber(), color: v.pipe(v.string(), v.regex(/^#[0-9a-fA-F]{6}$/)) })), v.maxLength(5)),
        () => [],
      ),
    }),
    v.forward(
      v.check((g) => g.min < g.max, 'min must be below max'),
      ['max'],
    ),
  ),
  line: v.object({
    ...PAGE_REF,
    series: VSeriesList,
    fn: v.optional(v.picklist(AGG_FNS), 'avg'),
    range_ms: v.optional(VRange, 86_400_000),
    refresh_min: v.optional(VRefresh, 5),
  }),
  bar: v.object({
    ...PAGE_REF,
    series: VSeriesList,
    fn: v.optional(v.picklist(AGG_FNS), 'avg'),
    range_ms: v.optional(VRange, 7 * 86_400_000),
    refresh_min: v.optional(VRefresh, 30),
  }),
  status: v.object({ ...PAGE_REF, tangram_id: VTangramId }),
  alerts: v.object({ ...PAGE_REF, limit: v.optional(v.pipe(vInt(), v.minValue(1), v.maxValue(100)), 10) }),
  devices: v.object({
    ...PAGE_REF,
    tangram_ids: v.pipe(v.array(VTangramId), v.minLength(1), v.maxLength(20)),
    key: v.optional(VTelemetryKey),
  }),
  platform: v.object({
    ...PAGE_REF,
    platform_telemetry_id: v.pipe(vInt(), v.minValue(1), v.maxValue(ID_MAX)),
    range_ms: v.optional(VRange, 86_400_000),
  }),
} satisfies Record<TWidgetType, v.GenericSchema>;

/**
 * Parses and checks a widget's `parameter` against its type, as dashboard.ts `parseWidgetParameter` does (the same
 * answer and value; a problem's path and message are valibot's, which may differ from zod's).
 * @returns the parameter, or the problems (a dotted path inside the parameter and a message).
 */
export function parseWidgetParameterMini<T extends TWidgetType>(type: T, parameter: string): TWidgetParameterCheck<TWidgetParameter<T>> {
  return checkParameterJson(parameter, (json) => {
    const parsed = v.safeParse(WIDGET_PARAMETERS_MINI[type], json);
    if (parsed.success) return { ok: true, value: parsed.output as TWidgetParameter<T> };
    return { ok: false, problems: parsed.issues.map((i) => ({ path: v.getDotPath(i) ?? '', message: i.message })) };
  });
}
