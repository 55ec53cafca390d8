/**
 * Alerts (spec §2 alerts routes, §3 "Alert node types: remind, early_warning, alert", §7
 * `/frontstage-alert/v1`, §9 "Alerts show latest 100"). An alert is raised by a rule of a project (simple rule or
 * one rule of a Blockly program) or by a user's app rule, for one device; at most one is active (open or
 * acknowledged) per (rule, device). Semantics: docs/rules.md; decisions: docs/decisions/alerts.md.
 */
import { z } from 'zod';
import { ZEpochMsText, ZIdText, zIntText } from './input.js';
import { DAY_MS, DEFAULT_PAGE_LIMIT, HISTORY_RANGE_MAX_DAYS, MAX_PAGE, MAX_PAGE_LIMIT } from './limits.js';
import { zPage } from './pagination.js';
import { ALERT_API, ALERT_LEVELS, ALERT_RESOLVE_REASONS, ALERT_RULE_KINDS, ALERT_STATES, alertPaths } from './alert-values.js';
import { TANGRAM_ID_LENGTH } from './tangram-id.js';

export { ALERT_RESOLVE_REASONS, ALERT_RULE_KINDS, ALERT_STATES };

/** The dashboard shows the latest this many alerts (§9). */
export const ALERTS_LATEST_MAX = 100;
export type TAlertState = (typeof ALERT_STATES)[number];
export type TAlertRuleKind = (typeof ALERT_RULE_KINDS)[number];

/** An alert as the API and the live channel present it. Times epoch ms. */
export const ZAlert = z.object({
  id: z.number().int(),
  level: z.enum(ALERT_LEVELS),
  state: z.enum(ALERT_STATES),
  message: z.string(),
  rule: z.object({
    kind: z.enum(ALERT_RULE_KINDS),
    id: z.number().int(),
    /** Index of the rule inside its Blockly program (0 for simple and app rules). */
    index: z.number().int(),
    name: z.string(),
  }),
  device: z.object({ id: z.number().int(), tangram_id: z.string(), name: z.string() }),
  project: z.object({ id: z.number().int(), name: z.string() }),
  product: z.object({ id: z.number().int(), name: z.string() }),
  /** The telemetry key and value that last made the condition true, when the condition compares one. */
  trigger: z.object({ key: z.string(), value: z.number() }).nullable(),
  first_seen_at: z.number(),
  last_seen_at: z.number(),
  /** Evaluations at which the condition held while this alert was active. */
  count: z.number().int(),
  /** True while notifications are held back because the rule opens and clears too often (flapping). */
  flapping: z.boolean(),
  acknowledged_at: z.number().nullable(),
  acknowledged_by: z.string().nullable(),
  resolved_at: z.number().nullable(),
  resolved_by: z.string().nullable(),
  resolved_reason: z.enum(ALERT_RESOLVE_REASONS).nullable(),
});
export type TAlert = z.infer<typeof ZAlert>;

/** What the live channel carries on `live/accounts/{accountId}/alerts` (topics.liveAlerts): one alert, as it is now. */
export const ZLiveAlertMessage = z.object({ topic: z.string(), alert: ZAlert });
export type TLiveAlertMessage = z.infer<typeof ZLiveAlertMessage>;

// ---- `/frontstage-alert/v1` (spec §7; docs/decisions/alerts.md) ----

export { ALERT_API, alertPaths };

/**
 * Longest alert range (history list, CSV, statistics), in days: the long reading of §5 "History range at most 31 or
 * 90 days" (HISTORY_RANGE_MAX_DAYS), as for aggregated telemetry and telemetry downloads — alert lists are paged
 * and the CSV streams, so neither grows with the range.
 */
export const ALERT_RANGE_MAX_DAYS = HISTORY_RANGE_MAX_DAYS;

/** Error codes of the alert actions (409). */
export const AlertErrorCode = {
  AlreadyAcknowledged: 'ALERT_ALREADY_ACKNOWLEDGED',
  AlreadyResolved: 'ALERT_ALREADY_RESOLVED',
} as const;

/** Why a range is refused: start not before end, or longer than {@link ALERT_RANGE_MAX_DAYS}; null when fine. */
export function alertRangeProblem(fromMs: number, toMs: number): 'order' | 'too_long' | null {
  if (fromMs >= toMs) return 'order';
  if (toMs - fromMs > ALERT_RANGE_MAX_DAYS * DAY_MS) return 'too_long';
  return null;
}

/**
 * The range a query means: `to` defaults to `nowMs`, `from` to `to` − {@link ALERT_RANGE_MAX_DAYS} days. Both ends
 * inclusive, epoch ms; an alert is in the range when it was first seen in it.
 */
export function resolveAlertRange(q: { from?: number; to?: number }, nowMs: number): { from: number; to: number } {
  const to = q.to ?? nowMs;
  return { from: q.from ?? to - ALERT_RANGE_MAX_DAYS * DAY_MS, to };
}

const epochMsParam = ZEpochMsText;
/** `?from=&to=` (epoch ms, inclusive; see {@link resolveAlertRange}). */
export const ZAlertRangeQuery = z.object({ from: epochMsParam.optional(), to: epochMsParam.optional() });
export type TAlertRangeQuery = z.infer<typeof ZAlertRangeQuery>;

/** The filters of the history list, its CSV and the statistics: each narrows, absent means any. */
export const ZAlertFilterQuery = ZAlertRangeQuery.extend({
  level: z.enum(ALERT_LEVELS).optional(),
  state: z.enum(ALERT_STATES).optional(),
  project_id: ZIdText.optional(),
  product_id: ZIdText.optional(),
  /** Where the alerts' rules come from (simple, program, app, platform). */
  rule_kind: z.enum(ALERT_RULE_KINDS).optional(),
  /** One rule's alerts: its id within `rule_kind` (400 without `rule_kind`). */
  rule_id: ZIdText.optional(),
  /** A device's full Tangram ID (any case). */
  device: z
    .string()
    .trim()
    .regex(new RegExp(`^[0-9A-Fa-f]{${TANGRAM_ID_LENGTH}}$`), `${TANGRAM_ID_LENGTH} hex digits`)
    .transform((s) => s.toUpperCase())
    .optional(),
});
export type TAlertFilterQuery = z.infer<typeof ZAlertFilterQuery>;

const paging = {
  page: zIntText(1, MAX_PAGE).default(1),
  limit: zIntText(1, MAX_PAGE_LIMIT).default(DEFAULT_PAGE_LIMIT),
};
/** GET alerts: filters plus paging; newest (first seen) first. */
export const ZAlertListQuery = ZAlertFilterQuery.extend(paging);
export type TAlertListQuery = z.infer<typeof ZAlertListQuery>;
/** A page of alerts. */
export const ZAlertList = zPage(ZAlert);
export type TAlertList = z.infer<typeof ZAlertList>;

/** GET dashboard/alerts: the latest {@link ALERTS_LATEST_MAX} alerts the caller sees, newest first, any state. */
export const ZAlertDashboard = z.object({ data: z.array(ZAlert) });
export type TAlertDashboard = z.infer<typeof ZAlertDashboard>;

/** A filter option (vendor, product or project) with the number of the caller's alerts of it in the range. */
export const ZAlertOption = z.object({ id: z.number().int(), name: z.string(), count: z.number().int() });
/** GET vendors | products | projects: the options, sorted by name. */
export const ZAlertOptions = z.object({ data: z.array(ZAlertOption) });
export type TAlertOptions = z.infer<typeof ZAlertOptions>;

/** GET statistics: filters plus the caller's UTC offset, so days start at the caller's midnight. */
export const ZAlertStatisticsQuery = ZAlertFilterQuery.extend({
  /** Minutes east of UTC (Taipei +480), i.e. `-new Date().getTimezoneOffset()`. */
  utc_offset_min: zIntText(-840, 840).default(0),
});
export type TAlertStatisticsQuery = z.infer<typeof ZAlertStatisticsQuery>;

const levelCounts = z.object({ remind: z.number().int(), early_warning: z.number().int(), alert: z.number().int() });
const namedCount = z.object({ id: z.number().int(), name: z.string(), count: z.number().int() });
/** Counts of the alerts first seen in the range: by level, project, product (count descending) and day. */
export const ZAlertStatistics = z.object({
  from: z.number(),
  to: z.number(),
  total: z.number().int(),
  by_level: levelCounts,
  by_project: z.array(namedCount),
  by_product: z.array(namedCount),
  /** Every day of the range, oldest first; `day` is the local midnight (epoch ms) starting it. */
  by_day: z.array(levelCounts.extend({ day: z.number() })),
});
export type TAlertStatistics = z.infer<typeof ZAlertStatistics>;

/** GET statistics/detail: filters plus paging. */
export const ZAlertDetailQuery = ZAlertFilterQuery.extend(paging);
export type TAlertDetailQuery = z.infer<typeof ZAlertDetailQuery>;
/** One row of statistics/detail: one (device, rule, level) with its alerts in the range. */
export const ZAlertDetailRow = z.object({
  device: ZAlert.shape.device,
  project: ZAlert.shape.project,
  product: ZAlert.shape.product,
  rule: ZAlert.shape.rule,
  level: z.enum(ALERT_LEVELS),
  /** Alerts raised. */
  alerts: z.number().int(),
  /** Evaluations that held, summed over those alerts. */
  occurrences: z.number().int(),
  last_seen_at: z.number(),
});
export type TAlertDetailRow = z.infer<typeof ZAlertDetailRow>;
/** A page of detail rows, most alerts first. */
export const ZAlertDetail = zPage(ZAlertDetailRow);
export type TAlertDetail = z.infer<typeof ZAlertDetail>;

/** The CSV columns of `GET alerts/download`, in order (times as ISO 8601 UTC and as epoch ms). */
export const ALERT_CSV_COLUMNS = [
  'id',
  'level',
  'state',
  'message',
  'rule_kind',
  'rule_name',
  'device_tangram_id',
  'device_name',
  'project',
  'product',
  'trigger_key',
  'trigger_value',
  'first_seen',
  'first_seen_ms',
  'last_seen',
  'last_seen_ms',
  'count',
  'acknowledged_at',
  'acknowledged_by',
  'resolved_at',
  'resolved_by',
  'resolved_reason',
] as const;
