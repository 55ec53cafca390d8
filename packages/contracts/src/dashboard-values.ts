/**
 * The dashboard's paths, limits and widget types (spec §2 `dashboard`, §7 `/dashboard/v1`; docs/dashboard.md). In a
 * module of their own, without zod: the console's dashboard reads them without loading classic zod. dashboard.ts
 * re-exports them.
 */

/** Prefix of the dashboard calls. */
export const DASHBOARD_API = '/dashboard/v1';

/** Paths of the dashboard calls, relative to the host. */
export const dashboardPaths = {
  pages: `${DASHBOARD_API}/pages`,
  page: (id: number) => `${DASHBOARD_API}/pages/${id}`,
  pageOrder: `${DASHBOARD_API}/pages/order`,
  widgets: (pageId: number) => `${DASHBOARD_API}/pages/${pageId}/widgets`,
  widget: (id: number) => `${DASHBOARD_API}/widgets/${id}`,
} as const;

/** At most this many pages per account (spec §5 "Widget total limit: value not shown" — decided here). */
export const DASHBOARD_MAX_PAGES = 10;
/** At most this many widgets on one page. */
export const DASHBOARD_MAX_WIDGETS = 24;
/** Columns of the widget grid. */
export const DASHBOARD_COLUMNS = 12;
/** Ranges a chart widget may show, in milliseconds (1 h, 24 h, 7 d, 30 d). */
export const DASHBOARD_RANGES_MS = [3_600_000, 86_400_000, 7 * 86_400_000, 30 * 86_400_000] as const;

/** The widget types (docs/dashboard.md "Widgets"). */
export const WIDGET_TYPES = ['latest', 'gauge', 'line', 'bar', 'status', 'alerts', 'devices', 'platform'] as const;
export type TWidgetType = (typeof WIDGET_TYPES)[number];

/** A problem of a widget's parameter: a dotted path inside it ('' for the whole) and a message. */
export interface TWidgetParameterProblem {
  path: string;
  message: string;
}

/** What a widget parameter's check answers: the value, or its problems. */
export type TWidgetParameterCheck<V> = { ok: true; value: V } | { ok: false; problems: TWidgetParameterProblem[] };

/**
 * `parameter` (a widget's JSON text) read as JSON and handed to `check` (a schema's parse); text that is not JSON is
 * one problem at the root. The one reading of the text behind dashboard.ts `parseWidgetParameter` (zod) and
 * dashboard-mini.ts `parseWidgetParameterMini` (valibot).
 */
export function checkParameterJson<V>(parameter: string, check: (json: unknown) => TWidgetParameterCheck<V>): TWidgetParameterCheck<V> {
  let json: unknown;
  try {
    json = JSON.parse(parameter);
  } catch {
    return { ok: false, problems: [{ path: '', message: 'parameter is not JSON' }] };
  }
  return check(json);
}
