/**
 * Alerts (issue 4; spec §2 alerts routes, §3 "Alert node types: remind, early_warning, alert", §7
 * `/frontstage-alert/v1`, §9 "Alerts show latest 100"). An alert is raised by a rule of a project (simple rule or
 * one rule of a Blockly program) or by a user's app rule, for one device; at most one is active (open or
 * acknowledged) per (rule, device). Semantics: docs/rules.md; decisions: docs/decisions/alerts.md.
 */
import { z } from 'zod';
import { ALERT_LEVELS } from './rules-program.js';

/** The dashboard shows the latest this many alerts (§9). */
export const ALERTS_LATEST_MAX = 100;
/** Life cycle: open → acknowledged (a person saw it) → resolved (condition cleared, or by hand). */
export const ALERT_STATES = ['open', 'acknowledged', 'resolved'] as const;
export type TAlertState = (typeof ALERT_STATES)[number];
/** Where the rule came from: a project simple rule, a project Blockly program, or a user's app rule (`userRules`). */
export const ALERT_RULE_KINDS = ['simple', 'program', 'app'] as const;
export type TAlertRuleKind = (typeof ALERT_RULE_KINDS)[number];
/** Why an alert was resolved: its condition became false (`cleared`) or a person resolved it (`manual`). */
export const ALERT_RESOLVE_REASONS = ['cleared', 'manual'] as const;

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
