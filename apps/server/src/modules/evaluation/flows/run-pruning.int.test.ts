/**
 * The trace's retention (run-pruning.ts, flow-store.ts writeRuns): the minute sweep keeps exactly each rule's newest
 * `trace_runs` runs and none older than `trace_days`, rule by rule, leaving other rules and tenants alone; and a
 * rule's trace written batch after batch, two writers at once, never holds more than `trace_runs` plus one batch.
 */
import { DEFAULT_ENGINE_CONFIG } from '@tessera/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB_KIND } from '../../../../test/helpers.js';
import { rowsOf, type Database, type Db } from '../../../db/client.js';
import { runMigrations } from '../../../db/migrate.js';
import { platformEngineConfigs, platformRuleRuns, platformRules, tenants } from '../../../db/schema.js';
import { type TRunRow, writeRuns } from './flow-store.js';
import { PRUNE_CHUNK, pruneRuns } from './run-pruning.js';

const DAY_MS = 86_400_000;

async function tenantWith(db: Db, traceRuns: number | null): Promise<number> {
  const [t] = await db
    .insert(tenants)
    .values({ name: `prune ${Math.random()}` })
    .returning({ id: tenants.id });
  const tenantId = t?.id as number;
  if (traceRuns !== null)
    await db.insert(platformEngineConfigs).values({ tenantId, config: { ...DEFAULT_ENGINE_CONFIG, trace_runs: traceRuns } });
  return tenantId;
}

async function ruleOf(db: Db, tenantId: number, name: string): Promise<number> {
  const [r] = await db
    .insert(platformRules)
    .values({ tenantId, name, status: 'running', draft: { nodes: [], edges: [] } })
    .returning({ id: platformRules.id });
  return r?.id as number;
}

/** Inserts `n` runs of a rule started at `from`, `from + 1`, … in one statement (faster than the writer). */
async function insertRuns(db: Db, tenantId: number, ruleId: number, n: number, from: number): Promise<void> {
  await db.execute(sql`
    insert into platform_rule_runs (tenant_id, rule_id, version, trigger, outcome, started_at, duration_ms, steps)
    select ${tenantId}, ${ruleId}, 1, '{}'::jsonb, 'ok', ${from}::bigint + g, 0, '[]'::jsonb from generate_series(0, ${n - 1}) g`);
}

const idsOf = async (db: Db, ruleId: number) =>
  (await db.select({ id: platformRuleRuns.id }).from(platformRuleRuns).where(eq(platformRuleRuns.ruleId, ruleId)))
    .map((r) => r.id)
    .sort((a, b) => a - b);

describe(`platform-rule trace retention (${TEST_DB_KIND})`, () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
    await runMigrations(database);
  });
  afterAll(() => database?.close());

  it('keeps exactly the newest trace_runs of each rule, none older than trace_days, and leaves other rules alone', async () => {
    const db = database.db;
    const now = Date.now();
    const small = await tenantWith(db, 10);
    const hot = await ruleOf(db, small, 'hot');
    const quiet = await ruleOf(db, small, 'quiet');
    const other = await tenantWith(db, null);
    const big = await ruleOf(db, other, 'big');
    // More than two delete statements' worth for the hot rule; the quiet one has 5 recent runs and 3 too old.
    await insertRuns(db, small, hot, 2 * PRUNE_CHUNK + 7, now - 100_000);
    await insertRuns(db, small, quiet, 3, now - 9 * DAY_MS);
    await insertRuns(db, small, quiet, 5, now - 1_000);
    await insertRuns(db, other, big, 1_200, now - 50_000);
    const hotBefore = await idsOf(db, hot);
    const quietBefore = await idsOf(db, quiet);
    const bigBefore = await idsOf(db, big);

    expect(await pruneRuns(db, now)).toBe(2 * PRUNE_CHUNK + 7 - 10 + 3 + 200);

    expect(await idsOf(db, hot)).toEqual(hotBefore.slice(-10));
    expect(await idsOf(db, quiet)).toEqual(quietBefore.slice(-5));
    expect(await idsOf(db, big)).toEqual(bigBefore.slice(-DEFAULT_ENGINE_CONFIG.trace_runs));
    // A second sweep finds nothing left to do.
    expect(await pruneRuns(db, now)).toBe(0);
  });

  it('never lets a rule hold more than trace_runs plus one batch, written two batches at a time', async () => {
    const db = database.db;
    const tenantId = await tenantWith(db, 10);
    const ruleId = await ruleOf(db, tenantId, 'written');
    const neighbour = await ruleOf(db, tenantId, 'neighbour');
    const batch = 7;
    const row = (rule: number, i: number): TRunRow => ({
      tenantId,
      ruleId: rule,
      version: 1,
      trigger: { i },
      outcome: 'ok',
      error: null,
      replay: false,
      startedAt: Date.now(),
      durationMs: 0,
      steps: [],
      effects: [],
    });
    const count = async () =>
      Number(
        rowsOf<{ n: string | number }>(await db.execute(sql`select count(*) as n from platform_rule_runs where rule_id = ${ruleId}`))[0]?.n,
      );
    let most = 0;
    let writing = true;
    const watcher = (async () => {
      while (writing) {
        most = Math.max(most, await count());
        await new Promise((r) => setTimeout(r, 1));
      }
    })();
    let written = 0;
    for (let round = 0; round < 15; round++) {
      const batches = [0, 1].map(() =>
        Array.from({ length: batch }, () => row(ruleId, written++)).concat(round === 0 ? [row(neighbour, written)] : []),
      );
      await Promise.all(batches.map((b) => writeRuns(db, b)));
      expect(await count()).toBeLessThanOrEqual(10);
    }
    writing = false;
    await watcher;
    expect(written).toBe(15 * 2 * batch);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(10 + batch);
    // Ten of the last round's runs are kept (the two batches' ids interleave, newest is highest id); the neighbour's
    // runs are untouched.
    const kept = await db.select({ trigger: platformRuleRuns.trigger }).from(platformRuleRuns).where(eq(platformRuleRuns.ruleId, ruleId));
    expect(kept).toHaveLength(10);
    for (const r of kept) expect((r.trigger as { i: number }).i).toBeGreaterThanOrEqual(written - 2 * batch);
    expect(await idsOf(db, neighbour)).toHaveLength(2);
  });
});
