/**
 * Runs the API asks for (docs/platform-rules.md "Runs and the trace"): a manual run of a rule, or a replay of a
 * recorded trigger against a draft — reads are real, alerts, notifications and commands only recorded. Unlike
 * triggered runs they skip the tenant's queue and are written at once, so the caller gets the run's id.
 */
import type { TFlowGraph, TFlowStep } from '@tessera/contracts';
import type { TFlowRunTrigger } from '../../../core/context.js';
import type { Db } from '../../../db/client.js';
import { applyFailed, compileFlow } from './compile-flow.js';
import { type TFlowEffectRecord, type TFlowEffects, recordingEffects } from './effects.js';
import { type TDeployedRule, writeRuns } from './flow-store.js';
import type { TFlowRuleRef } from './live-effects.js';
import { runFlow, type TFlowTriggerValues, triggerRecord } from './run-flow.js';

/** The result of a run the API asked for (manual run or replay). */
export interface TFlowRunAnswer {
  runId: number;
  outcome: 'ok' | 'error';
  error: string | null;
  steps: TFlowStep[];
  effects: TFlowEffectRecord[];
}

/** What a manual run needs of the engine: the database, a rule's live effects, the stop hold, the clock. */
export interface TManualRunDeps {
  db: Db;
  liveEffectsOf: (rule: TFlowRuleRef) => TFlowEffects;
  /** Holds a stop of the rule while the run is in progress; answers the release. */
  track: (ruleId: number) => () => void;
  now: () => number;
}

/**
 * Runs `rule` now (manual run), or as a replay when `replay` (writes recorded, not done); writes the run at once.
 * Answers its id, outcome, steps and recorded effects. @throws what writing the run throws.
 */
export async function runNow(
  deps: TManualRunDeps,
  rule: TDeployedRule,
  trigger: TFlowTriggerValues,
  replay: boolean,
): Promise<TFlowRunAnswer> {
  const records: TFlowEffectRecord[] = [];
  const live = deps.liveEffectsOf(rule);
  const effects = replay ? recordingEffects(live, records) : live;
  const startedAt = deps.now();
  const release = deps.track(rule.id);
  const result = await runFlow(rule.flow, trigger, effects, deps.now).finally(release);
  const [runId] = await writeRuns(deps.db, [
    {
      tenantId: rule.tenantId,
      ruleId: rule.id,
      version: rule.version,
      trigger: triggerRecord(trigger),
      outcome: result.outcome,
      error: result.error,
      replay,
      startedAt,
      durationMs: result.durationMs,
      steps: result.steps,
      effects: records,
    },
  ]);
  return { runId: runId as number, outcome: result.outcome, error: result.error, steps: result.steps, effects: records };
}

/**
 * Compiles `graph` and runs it on the recorded `trigger` (its device looked up in the rule's tenant), live or as a
 * replay ({@link runNow}). @throws AppError 422 RULE_APPLY_FAILED when the graph does not compile.
 */
export async function runGraph(
  deps: TManualRunDeps,
  rule: TFlowRuleRef & { version: number },
  graph: TFlowGraph,
  trigger: TFlowRunTrigger,
  replay: boolean,
): Promise<{ runId: number }> {
  const compiled = compileFlow(graph);
  if (!compiled.ok) throw applyFailed(compiled.problems, 'the flow does not compile');
  const device = trigger.tangram_id ? await deps.liveEffectsOf(rule).device(trigger.tangram_id) : null;
  const values: TFlowTriggerValues = {
    device,
    ...(trigger.key !== null ? { key: trigger.key } : {}),
    ...(trigger.ts !== null ? { ts: trigger.ts } : {}),
    ...(trigger.values ? { values: trigger.values.map((v) => v ?? Number.NaN) } : {}),
    ...(trigger.value != null ? { value: trigger.value } : {}),
    ...(trigger.status !== null ? { status: trigger.status } : {}),
  };
  const answer = await runNow(deps, { ...rule, flow: compiled.flow }, values, replay);
  return { runId: answer.runId };
}
