/**
 * The `/rule-engine/v1` shapes of platform rules (spec §7; docs/platform-rules.md): the rule as saved and answered,
 * runs and their trace, schedule fires, the tenant's engineConfig, rule-metrics, error codes and paths. The graph
 * itself (node types, node data, graph rules) is platform-rules.ts.
 */
import { z } from 'zod';
import { ZAlertListQuery, ZAlertStatistics, ZAlertStatisticsQuery } from './alerts.js';
import { FLOW_PROBLEM_CODES, type TFlowProblemCode } from './flow-problems.js';
import { ZId, ZIdText } from './input.js';
import { zPage } from './pagination.js';
import { FLOW_EDGES_MAX, FLOW_NODE_TYPES, FLOW_NODES_MAX, PLATFORM_RULE_NAME_MAX, PLATFORM_RULE_STATUSES } from './platform-rules.js';

/** A draft is saved even when it does not validate yet (only its shape is checked); apply validates it whole. */
export const ZFlowDraft = z.object({
  nodes: z.array(z.unknown()).max(FLOW_NODES_MAX),
  edges: z.array(z.unknown()).max(FLOW_EDGES_MAX),
});
export type TFlowDraft = z.infer<typeof ZFlowDraft>;

/** POST rules / PUT rules/{id}: name, description and the draft graph. */
export const ZPlatformRuleInput = z.object({
  name: z.string().trim().min(1).max(PLATFORM_RULE_NAME_MAX),
  description: z.string().trim().max(500).default(''),
  draft: ZFlowDraft.default({ nodes: [], edges: [] }),
});
export type TPlatformRuleInput = z.input<typeof ZPlatformRuleInput>;

/** A platform rule as the API answers it. Times epoch ms. */
export const ZPlatformRule = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  status: z.enum(PLATFORM_RULE_STATUSES),
  /** The applied version's number (0: never applied). */
  version: z.number().int(),
  /** The draft differs from the applied version. */
  dirty: z.boolean(),
  trigger_kind: z.enum(['telemetry', 'status', 'schedule', 'manual']).nullable(),
  draft: ZFlowDraft,
  /** Problems of the last apply that failed (empty after a good one). */
  problems: z.array(
    z.object({
      node_id: z.string().nullable(),
      code: z.enum(FLOW_PROBLEM_CODES as [TFlowProblemCode, ...TFlowProblemCode[]]).optional(),
      params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
      message: z.string(),
    }),
  ),
  last_run_at: z.number().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type TPlatformRule = z.infer<typeof ZPlatformRule>;
export const ZPlatformRuleList = zPage(ZPlatformRule.omit({ draft: true, problems: true }));
export type TPlatformRuleList = z.infer<typeof ZPlatformRuleList>;

/** What one node did in a run (the trace; spec §7 logs). `input`/`output` are the node's own, JSON. */
export const ZFlowStep = z.object({
  node_id: z.string(),
  node_type: z.enum(FLOW_NODE_TYPES),
  input: z.unknown(),
  output: z.unknown(),
  /**
   * The variables this node set (the start node: the trigger's values). The variables after a step are those of
   * every step up to it merged in order ({@link variablesAfter}); a step stores only its own, so a trace stays small.
   */
  variables: z.record(z.string(), z.unknown()),
  duration_ms: z.number(),
  error: z.string().nullable(),
});
export type TFlowStep = z.infer<typeof ZFlowStep>;

/** The variables after step `index` of a run: the variables each step set, merged in order up to it. */
export function variablesAfter(steps: readonly Pick<TFlowStep, 'variables'>[], index: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const step of steps.slice(0, index + 1)) Object.assign(out, step.variables);
  return out;
}

/** Outcomes of a run: finished, stopped by an error, or refused (over the tenant's limits). */
export const FLOW_RUN_OUTCOMES = ['ok', 'error', 'refused'] as const;
export type TFlowRunOutcome = (typeof FLOW_RUN_OUTCOMES)[number];

/**
 * Runs of one rule traced in full per second for each kind of run — did something (an alert, notification or
 * command node visited), error, nothing, refused; past it, the last run of that kind in the second is traced standing
 * for the others (its `untraced_before`). docs/platform-rules.md "What a trace costs".
 */
export const FLOW_TRACE_SAMPLE_PER_S = 20;

/** One run of a rule: its trigger's values, the steps in order, and the side effects recorded (replays send none). */
export const ZFlowRun = z.object({
  id: z.number().int(),
  rule_id: z.number().int(),
  version: z.number().int(),
  trigger: z.record(z.string(), z.unknown()),
  outcome: z.enum(FLOW_RUN_OUTCOMES),
  error: z.string().nullable(),
  replay: z.boolean(),
  started_at: z.number(),
  duration_ms: z.number(),
  steps: z.array(ZFlowStep),
  effects: z.array(z.object({ node_id: z.string(), kind: z.string(), detail: z.unknown() })),
  /** Runs of the same kind not traced (sampled out under load, FLOW_TRACE_SAMPLE_PER_S) since the one traced before this. */
  untraced_before: z.number().int(),
});
export type TFlowRun = z.infer<typeof ZFlowRun>;
/** GET rules/{id}/logs: a page of runs, and `untraced`, the runs not traced among those the trace keeps (their sum). */
export const ZFlowRunList = zPage(ZFlowRun.omit({ steps: true, effects: true })).extend({ untraced: z.number().int() });
export type TFlowRunList = z.infer<typeof ZFlowRunList>;

/** POST rules/{id}/replay: re-run a recorded run's trigger against the current draft, with no side effects. */
export const ZFlowReplayRequest = z.object({ run_id: ZId });

/** One schedule fire of a rule: due time, what happened (run, or missed while no replica ran), when claimed. */
export const ZFlowFire = z.object({ fire_at: z.number(), state: z.enum(['fired', 'missed']), claimed_at: z.number() });
export type TFlowFire = z.infer<typeof ZFlowFire>;
export const ZFlowFireList = zPage(ZFlowFire);
export type TFlowFireList = z.infer<typeof ZFlowFireList>;

/** The tenant's engine limits (engineConfig). */
export const ZEngineConfig = z.object({
  max_rules: z.number().int().min(1).max(1000),
  max_nodes: z.number().int().min(2).max(FLOW_NODES_MAX),
  runs_per_second: z.number().int().min(1).max(100_000),
  /** Runs waiting beyond the per-second rate before new ones are refused. */
  queue_max: z.number().int().min(0).max(100_000),
  trace_runs: z.number().int().min(10).max(100_000),
  trace_days: z.number().int().min(1).max(90),
});
export type TEngineConfig = z.infer<typeof ZEngineConfig>;

/** The limits a tenant starts with. */
export const DEFAULT_ENGINE_CONFIG: TEngineConfig = {
  max_rules: 50,
  max_nodes: 100,
  runs_per_second: 1000,
  queue_max: 10_000,
  trace_runs: 1000,
  trace_days: 7,
};

/** Per-rule figures of rule-metrics over the last `window_s` seconds. */
export const ZRuleMetrics = z.object({
  window_s: z.number().int(),
  rules: z.array(
    z.object({
      rule_id: z.number().int(),
      name: z.string(),
      runs: z.number().int(),
      runs_per_s: z.number(),
      errors: z.number().int(),
      refused: z.number().int(),
      p95_ms: z.number().nullable(),
      /** Runs per minute, oldest first (the list's sparkline). */
      per_minute: z.array(z.number().int()),
    }),
  ),
});
export type TRuleMetrics = z.infer<typeof ZRuleMetrics>;

/** Error codes of the rule engine API. */
export const PlatformRuleErrorCode = {
  NotStopped: 'RULE_NOT_STOPPED',
  NotApplied: 'RULE_NOT_APPLIED',
  ApplyFailed: 'RULE_APPLY_FAILED',
  LimitRules: 'RULE_LIMIT_RULES',
  LimitNodes: 'RULE_LIMIT_NODES',
  NotManual: 'RULE_NOT_MANUAL',
} as const;

/** Paths of `/rule-engine/v1` (spec §7). */
export const platformRulePaths = {
  rules: '/rule-engine/v1/rules',
  rule: (id: number) => `/rule-engine/v1/rules/${id}`,
  action: (id: number, action: 'apply' | 'start' | 'stop' | 'copy' | 'run' | 'replay') => `/rule-engine/v1/rules/${id}/${action}`,
  logs: (id: number) => `/rule-engine/v1/rules/${id}/logs`,
  fires: (id: number) => `/rule-engine/v1/rules/${id}/fires`,
  log: (id: number, runId: number) => `/rule-engine/v1/rules/${id}/logs/${runId}`,
  devices: '/rule-engine/v1/devices',
  engineConfig: '/rule-engine/v1/engineConfig',
  metrics: '/rule-engine/v1/rule-metrics',
  alertsDashboard: '/rule-engine/v1/alerts/dashboard',
  alertsSummary: '/rule-engine/v1/alerts/summary',
  alertsHistory: '/rule-engine/v1/alerts/history',
} as const;

// ---- Platform-rule alerts (spec §7 `/rule-engine/v1` "alerts dashboard, summary, history") ----

/** GET alerts/history: the alerts history's filters and paging, always of platform rules (`rule_id` narrows to one). */
export const ZPlatformAlertQuery = ZAlertListQuery.omit({ rule_kind: true });
export type TPlatformAlertQuery = z.infer<typeof ZPlatformAlertQuery>;
/** GET alerts/dashboard: the latest platform-rule alerts, optionally of one rule. */
export const ZPlatformAlertDashboardQuery = z.object({ rule_id: ZIdText.optional() });
export type TPlatformAlertDashboardQuery = z.infer<typeof ZPlatformAlertDashboardQuery>;
/** GET alerts/summary: the statistics' filters (range, level, state, project, product, device, rule). */
export const ZPlatformAlertSummaryQuery = ZAlertStatisticsQuery.omit({ rule_kind: true });
export type TPlatformAlertSummaryQuery = z.infer<typeof ZPlatformAlertSummaryQuery>;
/**
 * The summary of platform-rule alerts first seen in the range: the alert statistics plus how many are still active
 * (open or acknowledged) and the count per rule (most first).
 */
export const ZPlatformAlertSummary = ZAlertStatistics.extend({
  active: z.number().int(),
  by_rule: z.array(z.object({ id: z.number().int(), name: z.string(), count: z.number().int(), active: z.number().int() })),
});
export type TPlatformAlertSummary = z.infer<typeof ZPlatformAlertSummary>;
