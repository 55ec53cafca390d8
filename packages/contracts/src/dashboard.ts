/**
 * Dashboards (spec §2 `dashboard` "Pages and widgets. Refresh choices 5, 10 and 30 min", §3 "Dashboard widget:
 * parameter (JSON string possibly holding dashboard_page), new flag. Dashboard state: dashboardPage (default 1),
 * widgetList", §7 `/dashboard/v1` "page and widget CRUD. New widgets are added, existing updated"; docs/dashboard.md).
 * Each account has its own pages; a page holds widgets placed on a 12-column grid.
 */
import { z } from 'zod';
import {
  checkParameterJson,
  DASHBOARD_API,
  DASHBOARD_COLUMNS,
  DASHBOARD_MAX_PAGES,
  DASHBOARD_MAX_WIDGETS,
  DASHBOARD_RANGES_MS,
  dashboardPaths,
  type TWidgetParameterCheck,
  type TWidgetType,
  WIDGET_TYPES,
} from './dashboard-values.js';
import { ZId } from './input.js';
import { DASHBOARD_REFRESH_MIN } from './limits.js';
import { zPage } from './pagination.js';
import { ZTangramId } from './tangram-id.js';
import { AGG_FNS } from './agg-fns.js';
import { ZTelemetryKey } from './telemetry.js';

export {
  DASHBOARD_API,
  DASHBOARD_COLUMNS,
  DASHBOARD_MAX_PAGES,
  DASHBOARD_MAX_WIDGETS,
  DASHBOARD_RANGES_MS,
  dashboardPaths,
  type TWidgetType,
  WIDGET_TYPES,
};

const ZSeries = z.object({ tangram_id: ZTangramId, key: ZTelemetryKey });
const ZRefresh = z.union(DASHBOARD_REFRESH_MIN.map((m) => z.literal(m)) as [z.ZodLiteral<5>, z.ZodLiteral<10>, z.ZodLiteral<30>]);
const ZRange = z
  .number()
  .int()
  .refine((ms) => (DASHBOARD_RANGES_MS as readonly number[]).includes(ms), 'not one of the ranges');
const ZPageRef = { dashboard_page: z.number().int().min(1).optional() };

/** Each widget type's parameter (the JSON inside `parameter`). */
export const WIDGET_PARAMETERS = {
  /** The latest value of one key, with its unit and age; live. */
  latest: z.object({ ...ZPageRef, tangram_id: ZTangramId, key: ZTelemetryKey }),
  /** A gauge of one key between min and max, coloured by thresholds (ascending); live. */
  gauge: z
    .object({
      ...ZPageRef,
      tangram_id: ZTangramId,
      key: ZTelemetryKey,
      min: z.number().finite(),
      max: z.number().finite(),
      thresholds: z
        .array(z.object({ value: z.number().finite(), color: z.string().regex(/^#[0-9a-fA-F]{6}$/) }))
        .max(5)
        .default([]),
    })
    .refine((g) => g.min < g.max, { message: 'min must be below max', path: ['max'] }),
  /** Lines of several devices × keys over a range, bucketed by fn; refreshed every 5, 10 or 30 min. */
  line: z.object({
    ...ZPageRef,
    series: z.array(ZSeries).min(1).max(10),
    fn: z.enum(AGG_FNS).default('avg'),
    range_ms: ZRange.default(86_400_000),
    refresh_min: ZRefresh.default(5),
  }),
  /** Bars per bucket of several devices × keys; refreshed every 5, 10 or 30 min. */
  bar: z.object({
    ...ZPageRef,
    series: z.array(ZSeries).min(1).max(10),
    fn: z.enum(AGG_FNS).default('avg'),
    range_ms: ZRange.default(7 * 86_400_000),
    refresh_min: ZRefresh.default(30),
  }),
  /** A device's decoded status groups; live. */
  status: z.object({ ...ZPageRef, tangram_id: ZTangramId }),
  /** The viewer's latest alerts; live. */
  alerts: z.object({ ...ZPageRef, limit: z.number().int().min(1).max(100).default(10) }),
  /** A table of devices: online, last seen and one key's latest value; live. */
  devices: z.object({ ...ZPageRef, tangram_ids: z.array(ZTangramId).min(1).max(20), key: ZTelemetryKey.optional() }),
  /** A platform telemetry's latest value and its trend over a range (vendors: users have no platform telemetry). */
  platform: z.object({ ...ZPageRef, platform_telemetry_id: ZId, range_ms: ZRange.default(86_400_000) }),
} as const satisfies Record<TWidgetType, z.ZodType>;

/** The parameter of widget type `T`. */
export type TWidgetParameter<T extends TWidgetType> = z.output<(typeof WIDGET_PARAMETERS)[T]>;

/** A widget's place on the grid, in grid units. */
export const ZWidgetLayout = z.object({
  x: z
    .number()
    .int()
    .min(0)
    .max(DASHBOARD_COLUMNS - 1),
  y: z.number().int().min(0).max(10_000),
  w: z.number().int().min(1).max(DASHBOARD_COLUMNS),
  h: z.number().int().min(1).max(40),
});
export type TWidgetLayout = z.infer<typeof ZWidgetLayout>;

/** A widget as stored and answered. `parameter` is a JSON string (spec §3). */
export const ZWidget = z.object({
  id: z.number().int(),
  type: z.enum(WIDGET_TYPES),
  title: z.string(),
  parameter: z.string(),
  layout: ZWidgetLayout,
});
export type TWidget = z.infer<typeof ZWidget>;

/** A widget in a save: `new` widgets are added (their `id` ignored), the others updated by `id` (spec §7). */
export const ZWidgetInput = z.object({
  id: ZId.optional(),
  new: z.boolean().default(false),
  type: z.enum(WIDGET_TYPES),
  title: z.string().trim().max(32).default(''),
  parameter: z.string().max(8_192),
  layout: ZWidgetLayout,
});
export type TWidgetInput = z.input<typeof ZWidgetInput>;

/** PUT pages/{id}/widgets: the page's whole widget list; widgets left out are removed. */
export const ZWidgetListInput = z.object({ widgetList: z.array(ZWidgetInput).max(DASHBOARD_MAX_WIDGETS) });
export type TWidgetListInput = z.input<typeof ZWidgetListInput>;

/** GET pages/{id}/widgets: the dashboard state of one page (spec §3). */
export const ZDashboardState = z.object({ dashboardPage: z.number().int(), widgetList: z.array(ZWidget) });
export type TDashboardState = z.infer<typeof ZDashboardState>;

/** A dashboard page. `position` is 1-based; page 1 is the one the dashboard opens on (spec §3 "default 1"). */
export const ZDashboardPage = z.object({
  id: z.number().int(),
  name: z.string(),
  position: z.number().int(),
  widget_count: z.number().int(),
});
export type TDashboardPage = z.infer<typeof ZDashboardPage>;
export const ZDashboardPageList = zPage(ZDashboardPage);
export type TDashboardPageList = z.infer<typeof ZDashboardPageList>;

/** POST / PUT pages: the page's name. */
export const ZDashboardPageInput = z.object({ name: z.string().trim().min(1).max(32) });
export type TDashboardPageInput = z.infer<typeof ZDashboardPageInput>;

/** PUT pages/order: every page id of the account, in the new order. */
export const ZDashboardPageOrder = z.object({ ids: z.array(ZId).min(1).max(DASHBOARD_MAX_PAGES) });
export type TDashboardPageOrder = z.infer<typeof ZDashboardPageOrder>;

/**
 * Parses and checks a widget's `parameter` against its type.
 * @returns the parameter, or the problems (a path inside the parameter and a message).
 */
export function parseWidgetParameter<T extends TWidgetType>(type: T, parameter: string): TWidgetParameterCheck<TWidgetParameter<T>> {
  return checkParameterJson(parameter, (json) => {
    const parsed = WIDGET_PARAMETERS[type].safeParse(json);
    if (parsed.success) return { ok: true, value: parsed.data as TWidgetParameter<T> };
    return { ok: false, problems: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) };
  });
}
