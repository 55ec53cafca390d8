/**
 * GET `/rule-engine/v1/rule-metrics` (spec §7): per rule of the tenant, over the last METRICS_WINDOW_S seconds of
 * its stored runs (replays left out): runs, runs per second, errors, refused runs, the 95th percentile duration and
 * runs per minute for the list's sparkline. Read from the trace, so every replica's runs count; a traced run counts
 * with the runs of its kind sampled out before it (`untraced_before`), the duration percentile is of traced runs.
 */
import type { TRuleMetrics } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';

/** The window of rule-metrics, in seconds (15 minutes). */
export const METRICS_WINDOW_S = 900;

interface TMetricsRow {
  rule_id: number;
  name: string;
  runs: string | number;
  errors: string | number;
  refused: string | number;
  p95: number | string | null;
}

/** The tenant's rule metrics at `now` (epoch ms). */
export async function ruleMetrics(db: Db, tenantId: number, now: number): Promise<TRuleMetrics> {
  const from = now - METRICS_WINDOW_S * 1000;
  const totals = rowsOf<TMetricsRow>(
    await db.execute(sql`
      select p.id as rule_id, p.name,
        coalesce(sum(1 + r.untraced_before), 0) as runs,
        coalesce(sum(1 + r.untraced_before) filter (where r.outcome = 'error'), 0) as errors,
        coalesce(sum(1 + r.untraced_before) filter (where r.outcome = 'refused'), 0) as refused,
        percentile_cont(0.95) within group (order by r.duration_ms) filter (where r.outcome <> 'refused') as p95
      from platform_rules p
      left join platform_rule_runs r on r.rule_id = p.id and r.started_at > ${from} and not r.replay
      where p.tenant_id = ${tenantId}
      group by p.id, p.name
      order by p.id`),
  );
  const minutes = rowsOf<{ rule_id: number; minute: string | number; n: string | number }>(
    await db.execute(sql`
      select r.rule_id, floor((r.started_at - ${from}) / 60000) as minute, sum(1 + r.untraced_before) as n
      from platform_rule_runs r join platform_rules p on p.id = r.rule_id
      where p.tenant_id = ${tenantId} and r.started_at > ${from} and not r.replay
      group by r.rule_id, minute`),
  );
  const perMinute = new Map<number, number[]>();
  const slots = METRICS_WINDOW_S / 60;
  for (const m of minutes) {
    const list = perMinute.get(Number(m.rule_id)) ?? new Array<number>(slots).fill(0);
    const i = Math.min(slots - 1, Math.max(0, Number(m.minute)));
    list[i] = (list[i] ?? 0) + Number(m.n);
    perMinute.set(Number(m.rule_id), list);
  }
  return {
    window_s: METRICS_WINDOW_S,
    rules: totals.map((r) => ({
      rule_id: Number(r.rule_id),
      name: r.name,
      runs: Number(r.runs),
      runs_per_s: Number(r.runs) / METRICS_WINDOW_S,
      errors: Number(r.errors),
      refused: Number(r.refused),
      p95_ms: r.p95 === null ? null : Number(r.p95),
      per_minute: perMinute.get(Number(r.rule_id)) ?? new Array<number>(slots).fill(0),
    })),
  };
}
