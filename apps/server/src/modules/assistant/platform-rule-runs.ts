/**
 * The assistant's `platform_rule_runs` tool (docs/decisions/ai.md "Tools"): the newest runs of one platform rule with
 * a compact trace, read through the platform-rules module's own `getRule`, `listRuns` and `getRun`. Vendors and admins
 * only, as the console's run and trace routes (`GET rules/{id}/logs…` are vendor-only; platform-rules/feature.ts:
 * "what a flow does … stays with vendors"), so a user is refused even with the platform-rule section. A trace is
 * large JSON, so the answer is cut to named bounds: at most RULE_RUNS_MAX runs, RUN_STEPS_MAX steps per run (the
 * last step, where an error stops a run, always kept), and every value at most TOOL_VALUE_CHARS_MAX characters.
 */
import { type TAssistantReference, type TFlowRun, type TFlowStep, ZId } from '@tessera/contracts';
import { z } from 'zod';
import type { TFlowRuntime } from '../../core/context.js';
import { AppError, forbidden } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { getRule, getRun, listRuns } from '../platform-rules/rule-service.js';

/** Runs answered when the model names no `limit`. */
export const RULE_RUNS_DEFAULT = 5;
/** At most this many runs in one answer (`limit` is 1 … this). */
export const RULE_RUNS_MAX = 10;
/** Steps (nodes visited) kept per run: the first RUN_STEPS_MAX − 1 and the last; the rest are counted, not sent. */
export const RUN_STEPS_MAX = 10;
/** A node's output, a run's trigger values or an error longer than this many characters (text, else JSON) is cut. */
export const TOOL_VALUE_CHARS_MAX = 200;
/** With `failed_only`, the newest this many runs are searched for failed ones (RUN_SCAN_PAGE at a time). */
export const RUN_SCAN_MAX = 200;
const RUN_SCAN_PAGE = 50;

/** The tool's arguments: the rule's id (from platform_rule_status), how many runs, only failed (error or refused) ones. */
export const ZPlatformRuleRunsArgs = z.object({
  rule_id: ZId,
  limit: z.number().int().min(1).max(RULE_RUNS_MAX).default(RULE_RUNS_DEFAULT),
  failed_only: z.boolean().default(false),
});
/** Parsed arguments of `platform_rule_runs`. */
export type TPlatformRuleRunsArgs = z.infer<typeof ZPlatformRuleRunsArgs>;

type TRunHead = Omit<TFlowRun, 'steps' | 'effects'>;

/**
 * `value` itself when its text (a string) or JSON (anything else) is at most TOOL_VALUE_CHARS_MAX characters, else
 * that text's beginning followed by "… (+N chars)", a string, so the model sees it was cut. Undefined stays undefined
 * (left out of the answer's JSON).
 */
export function clipValue(value: unknown): unknown {
  if (value === undefined) return undefined;
  const json = typeof value === 'string' ? value : JSON.stringify(value);
  if (json === undefined || json.length <= TOOL_VALUE_CHARS_MAX) return value;
  return `${json.slice(0, TOOL_VALUE_CHARS_MAX)}… (+${json.length - TOOL_VALUE_CHARS_MAX} chars)`;
}

/** A step as the model gets it: node, outcome, the error if any, the output (cut) if any. */
function presentStep(step: TFlowStep) {
  return {
    node_id: step.node_id,
    node_type: step.node_type,
    outcome: step.error === null ? ('ok' as const) : ('error' as const),
    ...(step.error === null ? {} : { error: clipValue(step.error) }),
    ...(step.output === null || step.output === undefined ? {} : { output: clipValue(step.output) }),
  };
}

/** The trigger's fields that are set: device, key, values (cut), status word, schedule fire time. */
function presentTrigger(trigger: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const field of ['tangram_id', 'key', 'values', 'status', 'fire_at']) {
    const value = trigger[field];
    if (value !== null && value !== undefined) out[field] = clipValue(value);
  }
  return out;
}

/** One run, compact: times, trigger, outcome, its error and at most RUN_STEPS_MAX steps. */
function presentRun(run: TFlowRun) {
  const steps = run.steps.length > RUN_STEPS_MAX ? [...run.steps.slice(0, RUN_STEPS_MAX - 1), ...run.steps.slice(-1)] : run.steps;
  return {
    id: run.id,
    started_at: run.started_at,
    finished_at: run.started_at + Math.round(run.duration_ms),
    trigger: presentTrigger(run.trigger),
    outcome: run.outcome,
    ...(run.error === null ? {} : { error: clipValue(run.error) }),
    ...(run.replay ? { replay: true } : {}),
    version: run.version,
    steps_total: run.steps.length,
    steps: steps.map(presentStep),
    ...(run.steps.length > steps.length ? { steps_omitted: run.steps.length - steps.length } : {}),
  };
}

/**
 * The runs to answer, newest first, and `total` (the runs kept for the rule): the newest `limit`, or with
 * `failed_only` the newest `limit` failed ones (outcome error or refused) among the newest RUN_SCAN_MAX, with
 * `scanned`, how many were searched. The list has no outcome filter, so failed runs are picked page by page.
 */
async function pickRuns(
  db: Db,
  tenantId: number,
  ruleId: number,
  args: TPlatformRuleRunsArgs,
): Promise<{ total: number; runs: TRunHead[]; scanned?: number }> {
  if (!args.failed_only) {
    const page = await listRuns(db, tenantId, ruleId, { page: 1, limit: args.limit });
    return { total: page.total_items, runs: page.data };
  }
  // Runs started while paging shift the pages by as many rows: a run seen twice is kept once.
  const runs = new Map<number, TRunHead>();
  let total = 0;
  let scanned = 0;
  for (let page = 1; scanned < RUN_SCAN_MAX && runs.size < args.limit; page += 1) {
    const { data, total_items } = await listRuns(db, tenantId, ruleId, { page, limit: RUN_SCAN_PAGE });
    total = total_items;
    scanned += data.length;
    for (const r of data) if (r.outcome !== 'ok') runs.set(r.id, r);
    if (data.length < RUN_SCAN_PAGE) break;
  }
  return { total, runs: [...runs.values()].slice(0, args.limit), scanned };
}

/**
 * Runs `platform_rule_runs` for `principal`: the rule `{ id, name, status }`, `total_runs` (kept for it), and its
 * newest `limit` runs — or, with `failed_only`, its newest failed ones among the newest RUN_SCAN_MAX (`scanned` says
 * how many were searched) — each with `id, started_at, finished_at` (epoch ms), `trigger`, `outcome`, `error`,
 * `version`, `steps_total`, `steps [{ node_id, node_type, outcome, error?, output? }]` and `steps_omitted`. One
 * reference: the rule's page, where the editor shows a run's whole trace.
 * @throws AppError 403 FORBIDDEN for a user; 404 NOT_FOUND for another tenant's or a missing rule.
 */
export async function platformRuleRuns(
  db: Db,
  flows: TFlowRuntime,
  principal: TPrincipal,
  args: TPlatformRuleRunsArgs,
): Promise<{ data: unknown; references: TAssistantReference[] }> {
  if (principal.level === 'user') throw forbidden('platform-rule runs and traces are for vendors only');
  const { tenantId } = principal;
  const rule = await getRule(db, flows, tenantId, args.rule_id);
  const picked = await pickRuns(db, tenantId, rule.id, args);
  const runs: ReturnType<typeof presentRun>[] = [];
  for (const head of picked.runs) {
    try {
      runs.push(presentRun(await getRun(db, tenantId, rule.id, head.id)));
    } catch (err) {
      // Pruned to the tenant's retention since it was listed: it is simply no longer there.
      if (!(err instanceof AppError && err.statusCode === 404)) throw err;
    }
  }
  return {
    data: {
      rule: { id: rule.id, name: rule.name, status: rule.status },
      total_runs: picked.total,
      ...(picked.scanned === undefined ? {} : { scanned: picked.scanned }),
      runs,
    },
    references: [{ kind: 'rule', label: rule.name, path: `/platform_rule/detail/${rule.id}` }],
  };
}
