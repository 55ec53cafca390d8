/**
 * The fixed value lists of an alert (spec §3 "Alert node types: remind, early_warning, alert"; docs/decisions/alerts.md).
 * In a module of their own, without zod: the console's live channel checks live alerts with zod/mini (live-mini.ts)
 * and so does not load classic zod with them. rules-program.ts and alerts.ts re-export them.
 */

/** §3 "Alert node types: remind, early_warning, alert" — the alert levels, least to most severe. */
export const ALERT_LEVELS = ['remind', 'early_warning', 'alert'] as const;
/** Life cycle: open → acknowledged (a person saw it) → resolved (condition cleared, or by hand). */
export const ALERT_STATES = ['open', 'acknowledged', 'resolved'] as const;
/** Where the rule came from: a project simple rule, a project Blockly program, or a user's app rule (`userRules`). */
export const ALERT_RULE_KINDS = ['simple', 'program', 'app', 'platform'] as const;
/** Why an alert was resolved: its condition became false (`cleared`) or a person resolved it (`manual`). */
export const ALERT_RESOLVE_REASONS = ['cleared', 'manual'] as const;
