/**
 * What the flow engine reads and writes of platform rules (db/schema-platform-rules.ts): a tenant's engine limits,
 * the running rules of a tenant compiled once per version, and the trace of runs, written in batches and pruned in
 * the same transaction to each rule's retention (engineConfig `trace_runs` per rule and `trace_days`; run-pruning.ts).
 */
import { DEFAULT_ENGINE_CONFIG, type TEngineConfig, type TFlowRunOutcome, ZEngineConfig } from '@tessera/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../../db/client.js';
import { platformEngineConfigs, platformRules } from '../../../db/schema.js';
import { compileFlow, type TCompiledFlow } from './compile-flow.js';
import { pruneRuleRuns, retentionOfRules } from './run-pruning.js';
import { type TFlowTriggerValues, triggerRecord } from './run-flow.js';

/** A tenant's engine limits (DEFAULT_ENGINE_CONFIG until the tenant saves its own). */
export async function engineConfigOf(db: Db, tenantId: number): Promise<TEngineConfig> {
  const [row] = await db
    .select({ config: platformEngineConfigs.config })
    .from(platformEngineConfigs)
    .where(eq(platformEngineConfigs.tenantId, tenantId));
  const parsed = ZEngineConfig.safeParse(row?.config);
  return parsed.success ? parsed.data : DEFAULT_ENGINE_CONFIG;
}

/** A deployed rule, compiled. */
export interface TDeployedRule {
  id: number;
  tenantId: number;
  name: string;
  version: number;
  flow: TCompiledFlow;
}

/** The tenant's rules in `statuses` with an applied graph, compiled (a graph that no longer compiles is skipped). */
export async function loadDeployedRules(db: Db, tenantId: number, statuses: readonly ('running' | 'stopping')[]): Promise<TDeployedRule[]> {
  const rows = await db
    .select({ id: platformRules.id, name: platformRules.name, version: platformRules.version, applied: platformRules.applied })
    .from(platformRules)
    .where(and(eq(platformRules.tenantId, tenantId), inArray(platformRules.status, [...statuses])));
  const out: TDeployedRule[] = [];
  for (const r of rows) {
    if (!r.applied) continue;
    const compiled = compileFlow(r.applied);
    if (compiled.ok) out.push({ id: r.id, tenantId, name: r.name, version: r.version, flow: compiled.flow });
  }
  return out;
}

/** One run row to write. */
export interface TRunRow {
  tenantId: number;
  ruleId: number;
  version: number;
  trigger: Record<string, unknown>;
  outcome: TFlowRunOutcome;
  error: string | null;
  replay: boolean;
  startedAt: number;
  durationMs: number;
  steps: unknown[];
  effects: unknown[];
  /** Runs of the same kind sampled out since the one traced before this (trace-sampler.ts); 0 when absent. */
  untracedBefore?: number;
}

/**
 * The row of a run of `rule` on `trigger` (not a replay, no recorded effects): what the engine traces of a triggered,
 * scheduled or refused run.
 */
export function runRow(
  rule: Pick<TDeployedRule, 'id' | 'tenantId' | 'version'>,
  trigger: TFlowTriggerValues,
  run: Pick<TRunRow, 'outcome' | 'error' | 'startedAt' | 'durationMs' | 'steps'>,
): TRunRow {
  return {
    tenantId: rule.tenantId,
    ruleId: rule.id,
    version: rule.version,
    trigger: triggerRecord(trigger),
    ...run,
    replay: false,
    effects: [],
  };
}

/** A run's fields as the API and the batched insert name them (TFlowRun without its id). */
export function runFields(r: Omit<TRunRow, 'tenantId'>) {
  return {
    rule_id: r.ruleId,
    version: r.version,
    trigger: r.trigger,
    outcome: r.outcome,
    error: r.error,
    replay: r.replay,
    started_at: r.startedAt,
    duration_ms: r.durationMs,
    steps: r.steps,
    effects: r.effects,
    untraced_before: r.untracedBefore ?? 0,
  };
}

/**
 * Writes runs in one statement — the batch travels as one JSON parameter expanded by `jsonb_to_recordset`, which is
 * several times faster than a parameter per column per row — stamps each rule's last run and prunes each rule of the
 * batch to its retention (one chunk; the minute sweep takes any rest), all in one transaction: so a rule's trace is
 * never more than its `trace_runs` plus the batch being written. Answers the new ids in order.
 */
export async function writeRuns(db: Db, rows: readonly TRunRow[], now: number = Date.now()): Promise<number[]> {
  if (rows.length === 0) return [];
  const batch = JSON.stringify(rows.map((r) => ({ tenant_id: r.tenantId, ...runFields(r) })));
  const last = new Map<number, number | null>();
  for (const r of rows) {
    const seen = last.get(r.ruleId) ?? null;
    last.set(r.ruleId, r.replay ? seen : Math.max(seen ?? 0, r.startedAt));
  }
  const ruleIds = [...last.keys()].sort((a, b) => a - b);
  return db.transaction(async (tx) => {
    const inserted = rowsOf<{ id: string | number }>(
      await tx.execute(sql`
        insert into platform_rule_runs (tenant_id, rule_id, version, trigger, outcome, error, replay, started_at, duration_ms, steps, effects, untraced_before)
        select tenant_id, rule_id, version, trigger, outcome, error, replay, started_at, duration_ms, steps, effects, untraced_before
        from jsonb_to_recordset(${batch}::jsonb) as x(tenant_id int, rule_id int, version int, trigger jsonb, outcome text, error text,
          replay boolean, started_at bigint, duration_ms float8, steps jsonb, effects jsonb, untraced_before int)
        returning id`),
    );
    // Every rule's row is locked in id order before its runs are pruned: two writers with runs of one rule prune it
    // one after the other, the second seeing the first's runs, and never wait on each other crosswise.
    await tx.execute(
      sql`select id from platform_rules where id in (${sql.join(
        ruleIds.map((id) => sql`${id}`),
        sql`, `,
      )}) order by id for no key update`,
    );
    const stamps = JSON.stringify([...last].filter(([, at]) => at !== null).map(([id, at]) => ({ id, at })));
    await tx.execute(sql`
      update platform_rules p set last_run_at = greatest(coalesce(p.last_run_at, 0), v.at)
      from jsonb_to_recordset(${stamps}::jsonb) as v(id int, at bigint) where p.id = v.id`);
    await pruneRuleRuns(tx, await retentionOfRules(tx, now, ruleIds));
    return inserted.map((r) => Number(r.id));
  });
}
