/**
 * Platform rules of a tenant (spec §7 `/rule-engine/v1` rules; docs/platform-rules.md "Statuses"): create, edit the
 * draft, apply, start, stop, copy, delete, and the runs (logs). Every query is scoped to the caller's tenant; another
 * tenant's rule is "not found". Each change that alters what runs tells the flow engine (`ctx.flows`).
 */
import {
  DEFAULT_ENGINE_CONFIG,
  flowProblem,
  flowProblems,
  PlatformRuleErrorCode,
  type TEngineConfig,
  type TFlowGraph,
  type TFlowFire,
  type TFlowProblem,
  type TFlowRun,
  type TFlowRunList,
  type TListQuery,
  type TPage,
  type TPlatformRule,
  type TPlatformRuleInput,
  type TPlatformRuleStatus,
  ZEngineConfig,
  ZFlowGraph,
  ZTelemetryValue,
  ZPlatformRuleInput,
} from '@tessera/contracts';
import { and, count, desc, eq, ilike, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { TFlowRuntime } from '../../core/context.js';
import { AppError, conflict, notFound } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { pageOf } from '../../db/paging.js';
import { platformEngineConfigs, platformRuleFires, platformRuleRuns, platformRules } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/sql-helpers.js';
import { applyFailed, compileFlow } from '../evaluation/flows/compile-flow.js';
import { engineConfigOf, runFields } from '../evaluation/flows/flow-store.js';
import { initialStopHold } from '../evaluation/flows/stop-settler.js';
import { RULE_CACHE_MS } from '../evaluation/flows/tenant-rules.js';

type TRuleRow = typeof platformRules.$inferSelect;

/** Statuses in which a rule may be deleted (nothing of it runs). */
const DELETABLE: readonly TPlatformRuleStatus[] = ['pending', 'good', 'error', 'stopped'];

function present(row: TRuleRow, flows: TFlowRuntime): TPlatformRule {
  const status = row.status === 'running' && flows.queued(row.id) > 0 ? 'queuing' : row.status;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status,
    version: row.version,
    dirty: row.applied === null || JSON.stringify(row.applied) !== JSON.stringify(row.draft),
    trigger_kind: row.triggerKind ?? null,
    draft: row.draft,
    problems: row.problems,
    last_run_at: row.lastRunAt ?? null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

async function ruleOf(db: Db, tenantId: number, id: number): Promise<TRuleRow> {
  const [row] = await db
    .select()
    .from(platformRules)
    .where(and(eq(platformRules.tenantId, tenantId), eq(platformRules.id, id)));
  if (!row) throw notFound('platform rule');
  return row;
}

/** GET rules: a page of the tenant's rules, newest first, `q` searching names. */
export async function listRules(
  db: Db,
  flows: TFlowRuntime,
  tenantId: number,
  query: TListQuery,
): Promise<TPage<Omit<TPlatformRule, 'draft' | 'problems'>>> {
  const where = and(eq(platformRules.tenantId, tenantId), query.q ? ilike(platformRules.name, `%${query.q}%`) : undefined);
  return pageOf(
    query,
    db.select({ total: count() }).from(platformRules).where(where),
    (limit, offset) => db.select().from(platformRules).where(where).orderBy(desc(platformRules.id)).limit(limit).offset(offset),
    (row) => {
      const { draft: _d, problems: _p, ...rest } = present(row, flows);
      return rest;
    },
  );
}

/** GET rules/{id}. @throws 404 for another tenant's or a missing rule. */
export async function getRule(db: Db, flows: TFlowRuntime, tenantId: number, id: number): Promise<TPlatformRule> {
  return present(await ruleOf(db, tenantId, id), flows);
}

async function withUniqueName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('a platform rule of this name exists');
    throw err;
  }
}

/** POST rules. @throws 409 for a taken name, 409 RULE_LIMIT_RULES past the tenant's `max_rules`. */
export async function createRule(db: Db, flows: TFlowRuntime, tenantId: number, input: TPlatformRuleInput): Promise<TPlatformRule> {
  const body = ZPlatformRuleInput.parse(input);
  const config = await engineConfigOf(db, tenantId);
  const [n] = await db.select({ n: count() }).from(platformRules).where(eq(platformRules.tenantId, tenantId));
  if (Number(n?.n ?? 0) >= config.max_rules)
    throw conflict(`this tenant may keep ${config.max_rules} platform rules`, PlatformRuleErrorCode.LimitRules);
  const [row] = await withUniqueName(() =>
    db.insert(platformRules).values({ tenantId, name: body.name, description: body.description, draft: body.draft }).returning(),
  );
  return present(row as TRuleRow, flows);
}

/** PUT rules/{id}: name, description and draft (the applied version keeps running until the next apply). */
export async function updateRule(
  db: Db,
  flows: TFlowRuntime,
  tenantId: number,
  id: number,
  input: TPlatformRuleInput,
): Promise<TPlatformRule> {
  const body = ZPlatformRuleInput.parse(input);
  await ruleOf(db, tenantId, id);
  const [row] = await withUniqueName(() =>
    db
      .update(platformRules)
      .set({ name: body.name, description: body.description, draft: body.draft, updatedAt: Date.now() })
      .where(and(eq(platformRules.tenantId, tenantId), eq(platformRules.id, id)))
      .returning(),
  );
  flows.tenantChanged(tenantId);
  return present(row as TRuleRow, flows);
}

/** DELETE rules/{id}: only a rule that does not run. @throws 409 RULE_NOT_STOPPED while it runs or stops. */
export async function deleteRule(db: Db, flows: TFlowRuntime, tenantId: number, id: number): Promise<void> {
  const row = await ruleOf(db, tenantId, id);
  if (!DELETABLE.includes(row.status)) throw conflict('stop the rule before deleting it', PlatformRuleErrorCode.NotStopped);
  await db.delete(platformRules).where(and(eq(platformRules.tenantId, tenantId), eq(platformRules.id, id)));
  flows.tenantChanged(tenantId);
}

/** POST rules/{id}/copy: a new pending rule with the draft, named "<name> (copy)" (or "(copy 2)" …). */
export async function copyRule(db: Db, flows: TFlowRuntime, tenantId: number, id: number): Promise<TPlatformRule> {
  const source = await ruleOf(db, tenantId, id);
  for (let i = 1; i <= 20; i++) {
    const name = `${source.name.slice(0, 50)} (copy${i > 1 ? ` ${i}` : ''})`;
    try {
      return await createRule(db, flows, tenantId, { name, description: source.description, draft: source.draft });
    } catch (err) {
      if (!(err instanceof AppError) || err.code === PlatformRuleErrorCode.LimitRules) throw err;
    }
  }
  throw conflict('too many copies of this rule; rename one first');
}

/**
 * What the console needs to say a schema issue in the reader's language: zod's issue code (`issue`), and the bound
 * and what it bounds (`minimum`/`maximum`, `origin`: string, number, array) or the expected format.
 */
function issueParams(issue: z.core.$ZodIssue): Record<string, string | number> {
  const params: Record<string, string | number> = { issue: issue.code };
  if (issue.code === 'too_small') Object.assign(params, { minimum: Number(issue.minimum), origin: issue.origin });
  if (issue.code === 'too_big') Object.assign(params, { maximum: Number(issue.maximum), origin: issue.origin });
  if (issue.code === 'invalid_format') params.format = issue.format;
  return params;
}

/** The problems of `draft` against the schema, the graph rules, the node limit and the compiler (per node). */
export function draftProblems(draft: unknown, config: TEngineConfig): { graph: TFlowGraph | null; problems: TFlowProblem[] } {
  const nodes = (draft as { nodes?: unknown[] }).nodes ?? [];
  if (nodes.length > config.max_nodes) return { graph: null, problems: [flowProblem(null, 'too_many_nodes', { max: config.max_nodes })] };
  const parsed = ZFlowGraph.safeParse(draft);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const [where, at] = issue.path;
      const nodeId =
        where === 'nodes' && typeof at === 'number'
          ? ((nodes[at] as { id?: unknown } | undefined)?.id ?? null)
          : where === 'nodes'
            ? at
            : null;
      const field = (where === 'nodes' ? issue.path.slice(3) : issue.path).join('_') || String(where ?? 'draft');
      return flowProblem(typeof nodeId === 'string' ? nodeId : null, 'invalid_field', {
        field,
        detail: issue.message,
        ...issueParams(issue),
      });
    });
    return { graph: null, problems };
  }
  const structural = flowProblems(parsed.data);
  if (structural.length > 0) return { graph: null, problems: structural };
  const compiled = compileFlow(parsed.data);
  return compiled.ok ? { graph: parsed.data, problems: [] } : { graph: null, problems: compiled.problems };
}

/**
 * POST rules/{id}/apply: validates and compiles the draft and deploys it as the next version. A running rule runs
 * the new version from its next trigger. A draft that fails leaves what runs untouched; its problems are stored
 * (shown on their nodes) and a rule never applied becomes `error`.
 * @throws 422 RULE_APPLY_FAILED with the problems as details (path: node id).
 */
export async function applyRule(db: Db, flows: TFlowRuntime, tenantId: number, id: number): Promise<TPlatformRule> {
  const row = await ruleOf(db, tenantId, id);
  const { graph, problems } = draftProblems(row.draft, await engineConfigOf(db, tenantId));
  const now = Date.now();
  if (!graph) {
    const status: TPlatformRuleStatus = row.version === 0 ? 'error' : row.status;
    await db.update(platformRules).set({ problems, status, updatedAt: now }).where(eq(platformRules.id, id));
    throw applyFailed(problems);
  }
  const start = graph.nodes.find((n) => n.type === 'start');
  const triggerKind = start?.type === 'start' ? start.data.trigger.kind : null;
  const status: TPlatformRuleStatus = row.status === 'pending' || row.status === 'error' ? 'good' : row.status;
  const [updated] = await db
    .update(platformRules)
    .set({ applied: graph, draft: graph, version: row.version + 1, triggerKind, problems: [], status, updatedAt: now })
    .where(eq(platformRules.id, id))
    .returning();
  flows.tenantChanged(tenantId);
  return present(updated as TRuleRow, flows);
}

/** POST rules/{id}/start. @throws 409 RULE_NOT_APPLIED before a good apply. */
export async function startRule(db: Db, flows: TFlowRuntime, tenantId: number, id: number): Promise<TPlatformRule> {
  const row = await ruleOf(db, tenantId, id);
  if (row.version === 0) throw conflict('apply the rule before starting it', PlatformRuleErrorCode.NotApplied);
  const [updated] = await db
    .update(platformRules)
    .set({ status: 'running', heldUntil: null, updatedAt: Date.now() })
    .where(eq(platformRules.id, id))
    .returning();
  flows.tenantChanged(tenantId);
  return present(updated as TRuleRow, flows);
}

/**
 * POST rules/{id}/stop: no new run starts (this replica at once, the others within their cache time); runs in flight
 * and queued finish. A running rule answers `stopping` and becomes `stopped` once no replica holds it
 * (evaluation/flows/stop-settler.ts; docs/platform-rules.md "Statuses"). Stopping a rule that does not run changes
 * nothing.
 */
export async function stopRule(db: Db, flows: TFlowRuntime, tenantId: number, id: number): Promise<TPlatformRule> {
  const row = await ruleOf(db, tenantId, id);
  if (row.status !== 'running') return present(row, flows);
  const now = Date.now();
  const [updated] = await db
    .update(platformRules)
    .set({ status: 'stopping', heldUntil: initialStopHold(now, RULE_CACHE_MS), updatedAt: now })
    .where(eq(platformRules.id, id))
    .returning();
  flows.tenantChanged(tenantId);
  return present(updated as TRuleRow, flows);
}

/** POST rules/{id}/run: runs the applied version now with no trigger values (manual start nodes). */
export async function runRule(db: Db, flows: TFlowRuntime, tenantId: number, id: number): Promise<{ run_id: number }> {
  const row = await ruleOf(db, tenantId, id);
  if (!row.applied) throw conflict('apply the rule before running it', PlatformRuleErrorCode.NotApplied);
  const { runId } = await flows.runNow(
    { id, tenantId, name: row.name, version: row.version },
    row.applied,
    { tangram_id: null, key: null, ts: null, values: null, status: null },
    false,
  );
  return { run_id: runId };
}

/**
 * POST rules/{id}/replay: re-runs recorded run `runId`'s trigger against the current draft with no side effects
 * (alerts, notifications and commands are recorded in the new run's `effects`, not done).
 * @throws 404 for a run of another rule; 422 RULE_APPLY_FAILED when the draft does not compile.
 */
export async function replayRun(db: Db, flows: TFlowRuntime, tenantId: number, id: number, runId: number): Promise<{ run_id: number }> {
  const row = await ruleOf(db, tenantId, id);
  const [run] = await db
    .select({ trigger: platformRuleRuns.trigger })
    .from(platformRuleRuns)
    .where(and(eq(platformRuleRuns.ruleId, id), eq(platformRuleRuns.id, runId)));
  if (!run) throw notFound('run');
  const { graph, problems } = draftProblems(row.draft, await engineConfigOf(db, tenantId));
  if (!graph) throw applyFailed(problems, 'the draft does not compile');
  const t = run.trigger as Record<string, unknown>;
  const r = await flows.runNow(
    { id, tenantId, name: row.name, version: row.version },
    graph,
    {
      tangram_id: typeof t.tangram_id === 'string' ? t.tangram_id : null,
      key: typeof t.key === 'string' ? t.key : null,
      ts: typeof t.ts === 'number' ? t.ts : null,
      values: Array.isArray(t.values) ? (t.values as (number | null)[]) : null,
      value: ZTelemetryValue.safeParse(t.value).data ?? null,
      status: typeof t.status === 'number' ? t.status : null,
    },
    true,
  );
  return { run_id: r.runId };
}

function presentRun(r: typeof platformRuleRuns.$inferSelect): TFlowRun {
  const fields = runFields(r);
  return { id: r.id, ...fields, steps: fields.steps as TFlowRun['steps'], effects: fields.effects as TFlowRun['effects'] };
}

/**
 * GET rules/{id}/logs: a page of the rule's runs, newest first (without their steps), and `untraced`: how many runs
 * the kept ones stand for beyond themselves (sampled out under load; flows/trace-sampler.ts).
 */
export async function listRuns(db: Db, tenantId: number, id: number, query: TListQuery): Promise<TFlowRunList> {
  await ruleOf(db, tenantId, id);
  const where = and(eq(platformRuleRuns.tenantId, tenantId), eq(platformRuleRuns.ruleId, id));
  const [page, [sums]] = await Promise.all([
    pageOf(
      query,
      db.select({ total: count() }).from(platformRuleRuns).where(where),
      (limit, offset) => db.select().from(platformRuleRuns).where(where).orderBy(desc(platformRuleRuns.id)).limit(limit).offset(offset),
      (r) => {
        const { steps: _s, effects: _e, ...rest } = presentRun(r);
        return rest;
      },
    ),
    db
      .select({ untraced: sql<string | number | null>`sum(${platformRuleRuns.untracedBefore})` })
      .from(platformRuleRuns)
      .where(where),
  ]);
  return { ...page, untraced: Number(sums?.untraced ?? 0) };
}

/** GET rules/{id}/logs/{runId}: one run with its trace. */
export async function getRun(db: Db, tenantId: number, id: number, runId: number): Promise<TFlowRun> {
  const [r] = await db
    .select()
    .from(platformRuleRuns)
    .where(and(eq(platformRuleRuns.tenantId, tenantId), eq(platformRuleRuns.ruleId, id), eq(platformRuleRuns.id, runId)));
  if (!r) throw notFound('run');
  return presentRun(r);
}

/** GET rules/{id}/fires: a page of the rule's schedule fires, newest first. */
export async function listFires(db: Db, tenantId: number, id: number, query: TListQuery): Promise<TPage<TFlowFire>> {
  await ruleOf(db, tenantId, id);
  const where = eq(platformRuleFires.ruleId, id);
  return pageOf(
    query,
    db.select({ total: count() }).from(platformRuleFires).where(where),
    (limit, offset) => db.select().from(platformRuleFires).where(where).orderBy(desc(platformRuleFires.fireAt)).limit(limit).offset(offset),
    (f) => ({ fire_at: f.fireAt, state: f.state, claimed_at: f.claimedAt }),
  );
}

/** GET engineConfig. */
export function getEngineConfig(db: Db, tenantId: number): Promise<TEngineConfig> {
  return engineConfigOf(db, tenantId);
}

/** PUT engineConfig: the tenant's limits (validated by ZEngineConfig). */
export async function putEngineConfig(db: Db, flows: TFlowRuntime, tenantId: number, config: TEngineConfig): Promise<TEngineConfig> {
  const value = ZEngineConfig.parse({ ...DEFAULT_ENGINE_CONFIG, ...config });
  await db
    .insert(platformEngineConfigs)
    .values({ tenantId, config: value })
    .onConflictDoUpdate({ target: platformEngineConfigs.tenantId, set: { config: value, updatedAt: Date.now() } });
  flows.tenantChanged(tenantId);
  return value;
}
