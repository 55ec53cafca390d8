/**
 * The fixed value lists and the API paths of alerts (spec §3 "Alert node types: remind, early_warning, alert"; docs/decisions/alerts.md).
 * In a module of their own, without zod: the console's live channel checks live alerts (live-mini.ts) and its dashboard
 * reads the latest alerts without loading zod. rules-program.ts and alerts.ts re-export them.
 */

/** §3 "Alert node types: remind, early_warning, alert" — the alert levels, least to most severe. */
export const ALERT_LEVELS = ['remind', 'early_warning', 'alert'] as const;
/** Life cycle: open → acknowledged (a person saw it) → resolved (condition cleared, or by hand). */
export const ALERT_STATES = ['open', 'acknowledged', 'resolved'] as const;
/** Where the rule came from: a project simple rule, a project Blockly program, or a user's app rule (`userRules`). */
export const ALERT_RULE_KINDS = ['simple', 'program', 'app', 'platform'] as const;
/** Why an alert was resolved: its condition became false (`cleared`) or a person resolved it (`manual`). */
export const ALERT_RESOLVE_REASONS = ['cleared', 'manual'] as const;

/** The prefix of the alerts API (§7). */
export const ALERT_API = '/frontstage-alert/v1';

/** Paths of the alerts API, relative to the host. */
export const alertPaths = {
  alerts: `${ALERT_API}/alerts`,
  acknowledge: (id: number) => `${ALERT_API}/alerts/${id}/acknowledge`,
  resolve: (id: number) => `${ALERT_API}/alerts/${id}/resolve`,
  download: `${ALERT_API}/alerts/download`,
  vendors: `${ALERT_API}/vendors`,
  products: `${ALERT_API}/products`,
  projects: `${ALERT_API}/projects`,
  statistics: `${ALERT_API}/statistics`,
  statisticsDetail: `${ALERT_API}/statistics/detail`,
  dashboard: `${ALERT_API}/dashboard/alerts`,
} as const;
