/**
 * bench/flows: platform rules measured on PostgreSQL. Not part of `npm test`.
 *
 * Part 0 — what the demo's platform rule on a hot key costs 1-point ingest, beside the same load on a key no rule
 * reads; the trace's rows against its bound, its size and one pruning pass (ingest-cost.ts; target ≤ 20 %).
 * Part 1 — runs/s of a 6-node telemetry-triggered flow (start → variable → condition → true → variable, false →
 * variable) through the real flow engine with the trace on (sampled under load: every run counted in the trace,
 * trace-sampler.ts), fed committed batches as ingest hands them over; beside, in the same run, a hand-written JS
 * function doing the same arithmetic and building the same trace objects in memory (target ≥ 10,000 runs/s).
 * Part 2 — schedule precision: 1,000 rules with the schedule `* * * * *`, all due at the next minute; how long after
 * the due time each fire's run started, and that each fired once (target: all within 2 s).
 * Part 3 — point → platform-rule alert p99 over MQTT at 5,000 points/s (alert-latency.ts; target ≤ 1 s).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:flows -w @tessera/bench
 *   env: BENCH_COST_ROUNDS (3; 0 skips part 0, ingest-cost.ts has the rest), BENCH_RUNS (50000), BENCH_SCHEDULES
 *   (1000; 0 skips part 2), BENCH_ALERT_POINTS_PER_S (5000; 0 skips part 3), BENCH_ALERT_SECONDS (15),
 *   BENCH_ALERT_DEVICES (500)
 */
import { DEFAULT_ENGINE_CONFIG, type TFlowGraphInput, ZFlowGraph } from '@tessera/contracts';
import pino from 'pino';
import { loadConfig, platformEngineConfigs, platformRuleFires, platformRuleRuns, platformRules, startServer } from '@tessera/server';
import { buildDeviceProject, openScratchPostgres } from '@tessera/server/testing';
import { eq, inArray, sql } from 'drizzle-orm';
import { measureAlertLatency } from './alert-latency.js';
import { measureIngestCost } from './ingest-cost.js';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const RUNS = Number(process.env.BENCH_RUNS ?? 50_000);
const SCHEDULES = Number(process.env.BENCH_SCHEDULES ?? 1_000);
const COST_ROUNDS = Number(process.env.BENCH_COST_ROUNDS ?? 3);
const ALERT_POINTS_PER_S = Number(process.env.BENCH_ALERT_POINTS_PER_S ?? 5_000);
const ALERT_SECONDS = Number(process.env.BENCH_ALERT_SECONDS ?? 15);
const ALERT_DEVICES = Number(process.env.BENCH_ALERT_DEVICES ?? 500);
const at = { x: 0, y: 0 };

function sixNodes(projectId: number): TFlowGraphInput {
  return {
    nodes: [
      {
        id: 'n1',
        type: 'start',
        position: at,
        data: { trigger: { kind: 'telemetry', scope: { kind: 'projects', ids: [projectId] }, keys: ['temperature'] } },
      },
      { id: 'n2', type: 'variable', position: at, data: { name: 'f', var_type: 'float', expression: 'value * 1.8 + 32' } },
      { id: 'n3', type: 'condition', position: at, data: { expression: 'f > 90 && key == "temperature"' } },
      { id: 'n4', type: 'conditionResult', position: at, data: { result: true } },
      { id: 'n5', type: 'variable', position: at, data: { name: 'hot', var_type: 'string', expression: 'tangramId + " hot"' } },
      { id: 'n6', type: 'conditionResult', position: at, data: { result: false } },
    ],
    edges: [
      { id: 'a', source: 'n1', target: 'n2' },
      { id: 'b', source: 'n2', target: 'n3' },
      { id: 'c', source: 'n3', target: 'n4' },
      { id: 'd', source: 'n4', target: 'n5' },
      { id: 'e', source: 'n3', target: 'n6' },
    ],
  };
}

/** The same work written by hand: the arithmetic, the branch and a trace of the same shape, kept in memory. */
function handWritten(runs: number, values: number[], tangramId: string): number {
  const traces: unknown[] = [];
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) {
    const value = values[i % values.length] as number;
    const vars: Record<string, unknown> = { value, key: 'temperature', ts: i, tangramId };
    const steps: unknown[] = [{ node_id: 'n1', output: { ...vars } }];
    const f = value * 1.8 + 32;
    vars.f = f;
    steps.push({ node_id: 'n2', input: f, output: f, variables: { ...vars } });
    const hot = f > 90;
    steps.push({ node_id: 'n3', output: hot, variables: { ...vars } });
    if (hot) {
      vars.hot = `${tangramId} hot`;
      steps.push({ node_id: 'n4', output: true, variables: { ...vars } }, { node_id: 'n5', output: vars.hot, variables: { ...vars } });
    } else steps.push({ node_id: 'n6', output: false, variables: { ...vars } });
    traces.push({ steps });
    if (traces.length >= 500) traces.length = 0;
  }
  return runs / ((performance.now() - t0) / 1000);
}

async function main(): Promise<void> {
  if (COST_ROUNDS > 0) await measureIngestCost();
  const database = await openScratchPostgres(ADMIN_URL, 10, 'tessera_bench');
  const config = { ...loadConfig({ ...process.env, DEMO: '0' }), port: 0, mqttPort: 0, host: '127.0.0.1', webDist: '/nonexistent' };
  const server = await startServer(config, { database, log: pino({ level: 'warn' }) });
  try {
    const db = database.db;
    const { tenantId, projectId, devices } = await buildDeviceProject(db, { count: 20 });
    await db.insert(platformEngineConfigs).values({
      tenantId,
      config: { ...DEFAULT_ENGINE_CONFIG, max_rules: 1000, runs_per_second: 100_000, queue_max: 100_000, trace_runs: 100_000 },
    });

    // Part 1: the engine with the trace on, fed as ingest feeds it.
    const graph = ZFlowGraph.parse(sixNodes(projectId));
    const [rule] = await db
      .insert(platformRules)
      .values({ tenantId, name: 'six nodes', status: 'running', draft: graph, applied: graph, version: 1, triggerKind: 'telemetry' })
      .returning();
    const ingestDevices = new Map(devices.map((d) => [d.id, { id: d.id, tenantId, projectId, tangramId: d.tangramId, secretHash: '' }]));
    const values = Array.from({ length: 100 }, (_, i) => 20 + (i % 20));
    const flows = server.flows;
    const BATCH = 500;
    const t0 = performance.now();
    for (let sent = 0; sent < RUNS; sent += BATCH) {
      const telemetry = Array.from({ length: Math.min(BATCH, RUNS - sent) }, (_, i) => {
        const d = devices[(sent + i) % devices.length] as { id: number };
        return {
          deviceId: d.id,
          key: 'temperature',
          ts: sent + i,
          svcRecvTs: 0,
          v1: values[(sent + i) % values.length] as number,
          v2: null,
          v3: null,
        };
      });
      flows.accept({ telemetry, status: [], devices: ingestDevices });
      // Hand over as ingest does, a committed batch at a time; the engine queues what it cannot start yet.
      await new Promise((r) => setImmediate(r));
    }
    await flows.idle();
    const engineS = (performance.now() - t0) / 1000;
    // Every run is in a traced row or counted on one (untraced_before): sampling hides none.
    const [traced] = await db
      .select({ rows: sql<string>`count(*)`, runs: sql<string>`coalesce(sum(1 + ${platformRuleRuns.untracedBefore}), 0)` })
      .from(platformRuleRuns)
      .where(eq(platformRuleRuns.ruleId, rule!.id));
    const stored = Number(traced?.runs ?? 0);
    const enginePerS = stored / engineS;
    const handPerS = handWritten(RUNS, values, devices[0]!.tangramId);
    console.log(
      `flows: ${enginePerS.toFixed(0)} runs/s through the engine, trace stored (${stored} of ${RUNS} runs counted, ${traced?.rows} rows, ${engineS.toFixed(1)} s; ≥ 10,000: ${enginePerS >= 10_000 ? 'met' : 'NOT met'}) — baseline hand-written JS, trace in memory: ${handPerS.toFixed(0)} runs/s`,
    );
    await db.update(platformRules).set({ status: 'stopped' }).where(eq(platformRules.id, rule!.id));
    flows.tenantChanged(tenantId);

    if (ALERT_POINTS_PER_S > 0) await measureAlertLatency(server, ALERT_POINTS_PER_S, ALERT_SECONDS, ALERT_DEVICES);

    if (SCHEDULES === 0) return;
    // Part 2: 1,000 schedules due in the same minute.
    const scheduled = ZFlowGraph.parse({
      nodes: [
        { id: 'n1', type: 'start', position: at, data: { trigger: { kind: 'schedule', cron: '* * * * *', time_zone: 'UTC' } } },
        { id: 'n2', type: 'variable', position: at, data: { name: 'at', var_type: 'time', expression: 'ts' } },
      ],
      edges: [{ id: 'a', source: 'n1', target: 'n2' }],
    });
    const rows = await db
      .insert(platformRules)
      .values(
        Array.from({ length: SCHEDULES }, (_, i) => ({
          tenantId,
          name: `schedule ${i}`,
          status: 'running' as const,
          draft: scheduled,
          applied: scheduled,
          version: 1,
          triggerKind: 'schedule' as const,
        })),
      )
      .returning({ id: platformRules.id });
    const ids = rows.map((r) => r.id);
    flows.scheduler.changed();
    const due = Math.ceil((Date.now() + 2_000) / 60_000) * 60_000;
    console.log(`flows: waiting ${((due - Date.now()) / 1000).toFixed(0)} s for the minute ${new Date(due).toISOString()} …`);
    // Baseline in the same run: a plain timer set for the same instant in this process, and how late it fires.
    let timerLateMs = Number.NaN;
    setTimeout(() => {
      timerLateMs = Date.now() - due;
    }, due - Date.now());
    await new Promise((r) => setTimeout(r, due - Date.now() + 5_000));
    await flows.idle();
    const fires = await db.select().from(platformRuleFires).where(inArray(platformRuleFires.ruleId, ids));
    const atDue = fires.filter((f) => f.fireAt === due);
    const runs = await db
      .select({ ruleId: platformRuleRuns.ruleId, startedAt: platformRuleRuns.startedAt, trigger: platformRuleRuns.trigger })
      .from(platformRuleRuns)
      .where(inArray(platformRuleRuns.ruleId, ids));
    const ofDue = runs.filter((r) => (r.trigger as { fire_at: number | null }).fire_at === due);
    const lags = ofDue.map((r) => r.startedAt - due).sort((a, b) => a - b);
    const perRule = new Map<number, number>();
    for (const r of ofDue) perRule.set(r.ruleId, (perRule.get(r.ruleId) ?? 0) + 1);
    const once = [...perRule.values()].every((n) => n === 1);
    const worst = lags.at(-1) ?? Number.NaN;
    console.log(
      `flows: ${ofDue.length} of ${ids.length} schedules fired for the same minute (${atDue.length} claims, each rule once: ${once}); ` +
        `start after the due time p50 ${lags[Math.floor(lags.length / 2)] ?? Number.NaN} ms, max ${worst} ms (all ≤ 2,000 ms: ${worst <= 2000 && ofDue.length === ids.length ? 'met' : 'NOT met'}) — baseline: a setTimeout for the same instant fired ${timerLateMs} ms late`,
    );
  } finally {
    await server.close();
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
