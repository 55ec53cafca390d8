/**
 * Pruning the trace of platform-rule runs to each tenant's retention (docs/platform-rules.md "Runs and the trace"):
 * a rule keeps its newest `trace_runs` runs, none older than `trace_days`. Pruning is one indexed pass per rule: the
 * id of the rule's `trace_runs`-th newest run is one probe of the (rule_id, id) index read backwards, then the rule's
 * runs below it (or too old) are deleted in chunks of PRUNE_CHUNK — a range of that same index. The old statement
 * joined every run to a per-rule subquery and ran it once per candidate row (5,000 loops, 1.31 s a chunk).
 * Many rules go in one statement, each rule its own lateral pass. The trace writer prunes the rules of each batch
 * it writes (flow-store.ts writeRuns); the engine's minute sweep catches what a setting change or a quiet rule leaves.
 */
import { DEFAULT_ENGINE_CONFIG } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../../db/client.js';

/** Runs deleted per statement (short statements: never near the statement timeout under load). */
export const PRUNE_CHUNK = 5_000;
/** Chunks per rule in one sweep; what is left goes in the next sweep (every minute). */
const PRUNE_CHUNKS_PER_RULE = 40;

/** What a rule keeps: its newest `keep` runs, none started before `oldestMs` (epoch ms). */
export interface TRunRetention {
  ruleId: number;
  keep: number;
  oldestMs: number;
}

/** Rules pruned in one statement at most. */
const PRUNE_RULES_PER_STATEMENT = 500;

/**
 * Deletes, in one statement, up to PRUNE_CHUNK runs of each rule of `retentions` past its retention; answers the
 * runs deleted per rule id. Per rule it is one indexed pass (the cut-off probe, then a range). `db` may be a
 * transaction (the trace writer prunes in the transaction that inserts).
 */
export async function pruneRuleRuns(db: Db, retentions: readonly TRunRetention[]): Promise<Map<number, number>> {
  const deleted = new Map<number, number>();
  if (retentions.length === 0) return deleted;
  const rules = JSON.stringify(retentions.map((r) => ({ rule_id: r.ruleId, keep: r.keep, oldest: r.oldestMs })));
  // No cut-off (fewer than `keep` runs) compares as 0: nothing is below it.
  const rows = rowsOf<{ rule_id: number }>(
    await db.execute(sql`
      delete from platform_rule_runs where id in (
        select r.id from jsonb_to_recordset(${rules}::jsonb) as k(rule_id int, keep int, oldest bigint)
        cross join lateral (
          select r.id from platform_rule_runs r
          where r.rule_id = k.rule_id and (r.started_at < k.oldest or r.id < coalesce((
            select x.id from platform_rule_runs x where x.rule_id = k.rule_id order by x.id desc offset k.keep - 1 limit 1), 0))
          order by r.id limit ${PRUNE_CHUNK}) r)
      returning rule_id`),
  );
  for (const r of rows) deleted.set(Number(r.rule_id), (deleted.get(Number(r.rule_id)) ?? 0) + 1);
  return deleted;
}

/** Each rule's retention from its tenant's engineConfig (DEFAULT_ENGINE_CONFIG without one) at `now` (epoch ms). */
export async function retentionOfRules(db: Db, now: number, ruleIds?: readonly number[]): Promise<TRunRetention[]> {
  const only = ruleIds
    ? sql`where p.id in (${sql.join(
        ruleIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  const rows = rowsOf<{ rule_id: number; keep: number | string; days: number | string }>(
    await db.execute(sql`
      select p.id as rule_id,
        coalesce((c.config->>'trace_runs')::int, ${DEFAULT_ENGINE_CONFIG.trace_runs}) as keep,
        coalesce((c.config->>'trace_days')::int, ${DEFAULT_ENGINE_CONFIG.trace_days}) as days
      from platform_rules p left join platform_engine_configs c on c.tenant_id = p.tenant_id ${only}
      order by p.id`),
  );
  return rows.map((r) => ({ ruleId: Number(r.rule_id), keep: Number(r.keep), oldestMs: now - Number(r.days) * 86_400_000 }));
}

/**
 * The minute sweep: prunes every rule to its retention at `now` (epoch ms), PRUNE_RULES_PER_STATEMENT rules a
 * statement, again for the rules that had a full chunk deleted (at most PRUNE_CHUNKS_PER_RULE times); `stopping`
 * ends it early (the engine's close). Answers the runs deleted.
 */
export async function pruneRuns(db: Db, now: number, stopping: () => boolean = () => false): Promise<number> {
  const all = await retentionOfRules(db, now);
  let deleted = 0;
  for (let at = 0; at < all.length && !stopping(); at += PRUNE_RULES_PER_STATEMENT) {
    let rules = all.slice(at, at + PRUNE_RULES_PER_STATEMENT);
    for (let i = 0; i < PRUNE_CHUNKS_PER_RULE && rules.length > 0 && !stopping(); i++) {
      const gone = await pruneRuleRuns(db, rules);
      for (const n of gone.values()) deleted += n;
      rules = rules.filter((r) => gone.get(r.ruleId) === PRUNE_CHUNK);
    }
  }
  return deleted;
}
