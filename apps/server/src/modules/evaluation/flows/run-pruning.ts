/**
 * Pruning the trace of platform-rule runs to each tenant's retention (docs/platform-rules.md "Runs and the trace"):
 * a rule keeps its newest `trace_runs` runs, none older than `trace_days`. Pruning is one indexed pass per rule: the
 * id of the rule's `trace_runs`-th newest run is one probe of the (rule_id, id) index read backwards, then the rule's
 * runs below it (or too old) are deleted in chunks of PRUNE_CHUNK — a range of that same index. The old statement
 * joined every run to a per-rule subquery and ran it once per candidate row (5,000 loops, 1.31 s a chunk).
 * The trace writer prunes the rules of each batch it writes (flow-store.ts writeRuns); the engine's minute sweep
 * catches what a setting change or a quiet rule leaves.
 */
import { DEFAULT_ENGINE_CONFIG } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../../db/client.js';

/** Runs deleted per statement (short statements: never near the statement timeout under load). */
export const PRUNE_CHUNK = 5_000;
/** Statements per rule in one sweep; what is left goes in the next sweep (every minute). */
const PRUNE_CHUNKS_PER_RULE = 40;

/** What a rule keeps: its newest `keep` runs, none started before `oldestMs` (epoch ms). */
export interface TRunRetention {
  ruleId: number;
  keep: number;
  oldestMs: number;
}

/**
 * Deletes the runs of one rule past `retention`, at most `chunks` statements of PRUNE_CHUNK rows; answers the rows
 * deleted. `db` may be a transaction (the trace writer prunes in the transaction that inserts).
 */
export async function pruneRuleRuns(db: Db, retention: TRunRetention, chunks = PRUNE_CHUNKS_PER_RULE): Promise<number> {
  const { ruleId, keep, oldestMs } = retention;
  // No cut-off (fewer than `keep` runs) compares as 0: nothing is below it.
  const cutoff = sql`coalesce((select x.id from platform_rule_runs x where x.rule_id = ${ruleId}
    order by x.id desc offset ${keep - 1} limit 1), 0)`;
  let deleted = 0;
  for (let i = 0; i < chunks; i++) {
    const gone = rowsOf(
      await db.execute(sql`
        delete from platform_rule_runs where id in (
          select r.id from platform_rule_runs r
          where r.rule_id = ${ruleId} and (r.id < ${cutoff} or r.started_at < ${oldestMs})
          order by r.id limit ${PRUNE_CHUNK})
        returning 1`),
    ).length;
    deleted += gone;
    if (gone < PRUNE_CHUNK) break;
  }
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
 * The minute sweep: prunes every rule to its retention at `now` (epoch ms), one indexed pass per rule; answers the
 * rows deleted.
 */
export async function pruneRuns(db: Db, now: number): Promise<number> {
  let deleted = 0;
  for (const retention of await retentionOfRules(db, now)) deleted += await pruneRuleRuns(db, retention);
  return deleted;
}
