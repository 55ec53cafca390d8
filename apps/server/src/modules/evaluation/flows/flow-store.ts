/**
 * What the flow engine reads and writes of platform rules (db/schema-platform-rules.ts): a tenant's engine limits,
 * the running rules of a tenant compiled once per version, the trace of runs (written in batches) and its pruning
 * to each tenant's retention (engineConfig `trace_runs` per rule and `trace_days`).
 */
import { DEFAULT_ENGINE_CONFIG, type TEngineConfig, type TFlowRunOutcome, ZEngineConfig } from '@tessera/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../../db/client.js';
import { platformEngineConfigs, platformRules } from '../../../db/schema.js';
import { compileFlow, type TCompiledFlow } from './compile-flow.js';

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
  };
}

/**
 * Writes runs in one statement — the batch travels as one JSON parameter expanded by `jsonb_to_recordset`, which is
 * several times faster than a parameter per column per row — and stamps each rule's last run; answers the new ids
 * in order.
 */
export async function writeRuns(db: Db, rows: readonly TRunRow[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const batch = JSON.stringify(rows.map((r) => ({ tenant_id: r.tenantId, ...runFields(r) })));
  const inserted = rowsOf<{ id: string | number }>(
    await db.execute(sql`
      insert into platform_rule_runs (tenant_id, rule_id, version, trigger, outcome, error, replay, started_at, duration_ms, steps, effects)
      select tenant_id, rule_id, version, trigger, outcome, error, replay, started_at, duration_ms, steps, effects
      from jsonb_to_recordset(${batch}::jsonb) as x(tenant_id int, rule_id int, version int, trigger jsonb, outcome text, error text,
        replay boolean, started_at bigint, duration_ms float8, steps jsonb, effects jsonb)
      returning id`),
  );
  const last = new Map<number, number>();
  for (const r of rows) if (!r.replay) last.set(r.ruleId, Math.max(last.get(r.ruleId) ?? 0, r.startedAt));
  for (const [ruleId, at] of last) {
    await db
      .update(platformRules)
      .set({ lastRunAt: sql`greatest(coalesce(${platformRules.lastRunAt}, 0), ${at})` })
      .where(eq(platformRules.id, ruleId));
  }
  return inserted.map((r) => Number(r.id));
}

/** Runs deleted per statement when pruning (short statements: never near the statement timeout under load). */
export const PRUNE_CHUNK = 5_000;
/** Statements per prune kind in one pass; what is left goes in the next pass (every minute). */
const PRUNE_CHUNKS_PER_PASS = 40;

/**
 * Deletes runs past each tenant's retention: older than `trace_days`, or beyond the newest `trace_runs` of a rule.
 * In chunks of PRUNE_CHUNK rows per statement (at most PRUNE_CHUNKS_PER_PASS each); answers the rows deleted.
 */
export async function pruneRuns(db: Db, now: number): Promise<number> {
  const days = sql`coalesce((c.config->>'trace_days')::int, ${DEFAULT_ENGINE_CONFIG.trace_days})`;
  const keep = sql`coalesce((c.config->>'trace_runs')::int, ${DEFAULT_ENGINE_CONFIG.trace_runs})`;
  const tooOld = sql`
    select r.id from platform_rule_runs r
      join platform_rules p on p.id = r.rule_id left join platform_engine_configs c on c.tenant_id = p.tenant_id
    where r.started_at < ${now} - ${days}::bigint * 86400000 limit ${PRUNE_CHUNK}`;
  // One index probe per rule (rule_id, id) for its cut-off, then a range: not a subquery per run row.
  const beyondNewest = sql`
    select r.id from platform_rule_runs r join (
      select p.id as rule_id,
        (select x.id from platform_rule_runs x where x.rule_id = p.id order by x.id desc offset ${keep} - 1 limit 1) as cutoff
      from platform_rules p left join platform_engine_configs c on c.tenant_id = p.tenant_id
    ) k on r.rule_id = k.rule_id and r.id < k.cutoff limit ${PRUNE_CHUNK}`;
  let deleted = 0;
  for (const victims of [tooOld, beyondNewest]) {
    for (let i = 0; i < PRUNE_CHUNKS_PER_PASS; i++) {
      const gone = rowsOf(await db.execute(sql`delete from platform_rule_runs where id in (${victims}) returning 1`)).length;
      deleted += gone;
      if (gone < PRUNE_CHUNK) break;
    }
  }
  return deleted;
}
