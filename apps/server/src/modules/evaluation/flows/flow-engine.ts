/**
 * The platform-rule engine (docs/platform-rules.md "Runs"): the evaluation stage's second evaluator. Ingest hands it
 * each committed batch ({@link FlowEngine.accept}, synchronous); it matches the points and status words against the
 * running telemetry and status rules of their tenant (compiled once per version, cached RULE_CACHE_MS, dropped at
 * once when this process changes them) and runs each match. A tenant's runs are held to its engineConfig: at most
 * `runs_per_second` start per second, the rest wait in the tenant's queue (the rule shows `queuing`); a trigger
 * arriving when `queue_max` runs already wait is refused and recorded as a refused run, never dropped silently.
 * Traces are sampled under load (trace-sampler.ts: every run counted, a few a second per rule traced in full) and
 * written in batches.
 */
import type { TEngineConfig, TFlowGraph, TFlowStep } from '@tessera/contracts';
import type { Logger } from 'pino';
import type { TFlowRunTrigger } from '../../../core/context.js';
import type { Db } from '../../../db/client.js';
import { applyFailed, compileFlow } from './compile-flow.js';
import type { TClaimedSend } from './command-schedules.js';
import { sendClaimed } from './scheduled-sends.js';
import type { TCommittedRows } from '../../ingest/pipeline.js';
import type { TIngestDevice } from '../../ingest/directory.js';
import type { RuleCommands } from '../commands.js';
import { type TFlowEffectRecord, type TFlowEffects, recordingEffects } from './effects.js';
import { runRow, type TDeployedRule, type TRunRow, writeRuns } from './flow-store.js';
import { pruneRuns } from './run-pruning.js';
import { runKind, TraceSampler } from './trace-sampler.js';
import { liveEffects, type TLiveEffectsDeps } from './live-effects.js';
import { AlertRefresher } from './alert-refresher.js';
import { RollupReader } from './rollup-reader.js';
import { TraceWriter } from './trace-writer.js';
import { deviceFields, runFlow, type TFlowTriggerValues, triggerRecord } from './run-flow.js';
import type { TRuleNotifier } from '../../notifications/types.js';
import { TenantRuleCache } from './tenant-rules.js';
import { RunQueue } from './run-queue.js';
import { FlowScheduler } from './scheduler.js';
import { settleStops, STOP_SETTLE_EVERY_MS } from './stop-settler.js';
import { settlesWithin } from '../../../core/deadline.js';

/** Runs in progress at once across tenants. */
export const FLOW_CONCURRENCY = 256;
/**
 * The most close() takes by default, ms: the first half waits for runs in progress (and matching, scheduled sends,
 * housekeeping), the rest writes the trace waiting. Well inside SHUTDOWN_TIMEOUT_MS's default (8 s).
 */
export const FLOW_CLOSE_WAIT_MS = 2_000;
/** Retention pruning interval, ms. */
const PRUNE_EVERY_MS = 60_000;

/** Engine collaborators. */
export interface TFlowEngineOptions {
  db: Db;
  log: Logger;
  notifier: TRuleNotifier;
  commands: RuleCommands;
  publishAlert: (alertId: number) => void;
  now?: () => number;
}

interface TQueuedRun {
  rule: TDeployedRule & { effects?: TFlowEffects };
  trigger: TFlowTriggerValues;
  /** Ends the run's hold on a stop of its rule. */
  release?: () => void;
}

/** The result of a run the API asked for (manual run or replay). */
export interface TFlowRunAnswer {
  runId: number;
  outcome: 'ok' | 'error';
  error: string | null;
  steps: TFlowStep[];
  effects: TFlowEffectRecord[];
}

/** Counters for health and benchmarks; `skipped`: runs queued or triggered once close() began, never started. */
export interface TFlowEngineCounters {
  runs: number;
  errors: number;
  refused: number;
  skipped: number;
}

/** Runs platform rules on committed telemetry, on schedule fires and on request. */
export class FlowEngine {
  readonly counters: TFlowEngineCounters = { runs: 0, errors: 0, refused: 0, skipped: 0 };
  private readonly now: () => number;
  private readonly tenants: TenantRuleCache;
  private readonly runQueue = new RunQueue<TQueuedRun>(
    (run) => this.execute(run),
    FLOW_CONCURRENCY,
    () => this.wakeIdle(),
  );
  private readonly trace: TraceWriter;
  private readonly sampler: TraceSampler;
  private readonly pruneTimer: NodeJS.Timeout;
  private readonly settleTimer: NodeJS.Timeout;
  /** Runs of each rule queued or running in this process (rule id → count): they hold a stop. */
  private readonly inFlight = new Map<number, number>();
  private pending = 0;
  private idleWaiters: (() => void)[] = [];
  private closed = false;
  /** The schedule side (tests drive it with `scheduler.tick()`). */
  readonly scheduler: FlowScheduler;

  constructor(private readonly opts: TFlowEngineOptions) {
    this.now = opts.now ?? Date.now;
    this.trace = new TraceWriter(opts.db, opts.log);
    this.sampler = new TraceSampler((row) => this.record(row));
    this.alertRefresher = new AlertRefresher(opts.db);
    this.rollups = new RollupReader(opts.db);
    this.tenants = new TenantRuleCache(opts.db, (rule) => liveEffects(this.effectDeps(), rule));
    this.scheduler = new FlowScheduler({
      db: opts.db,
      log: opts.log,
      now: this.now,
      fire: (rule, fireAt) => this.fire(rule, fireAt),
      send: (claimed) => this.send(claimed),
    });
    this.scheduler.start();
    this.pruneTimer = setInterval(() => {
      this.background(
        pruneRuns(opts.db, this.now(), () => this.closed).then(
          () => undefined,
          (err: unknown) => opts.log.warn({ err }, 'platform rules: pruning runs failed'),
        ),
      );
    }, PRUNE_EVERY_MS);
    this.pruneTimer.unref();
    this.settleTimer = setInterval(() => this.background(this.settleStops()), STOP_SETTLE_EVERY_MS);
    this.settleTimer.unref();
  }

  /** Housekeeping in progress (pruning, settling), awaited by close() before the database goes. */
  private readonly housekeeping = new Set<Promise<void>>();

  private background(work: Promise<void>): void {
    this.housekeeping.add(work);
    void work.finally(() => this.housekeeping.delete(work));
  }

  /** One stop-settling tick (docs/platform-rules.md "Statuses"); tests call it to settle without waiting. */
  async settleStops(): Promise<void> {
    try {
      const tenants = await settleStops(this.opts.db, [...this.inFlight.keys()], Date.now());
      for (const t of tenants) this.tenantChanged(t);
    } catch (err) {
      this.opts.log.warn({ err }, 'platform rules: settling stops failed');
    }
  }

  /** Runs of `ruleId` queued or running in this process. */
  inFlightRuns(ruleId: number): number {
    return this.inFlight.get(ruleId) ?? 0;
  }

  /** Marks a run of `ruleId` in flight until the returned release is called (once). */
  track(ruleId: number): () => void {
    this.inFlight.set(ruleId, (this.inFlight.get(ruleId) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = (this.inFlight.get(ruleId) ?? 1) - 1;
      if (n <= 0) this.inFlight.delete(ruleId);
      else this.inFlight.set(ruleId, n);
    };
  }

  /** Drops this process's cached rules of `tenantId` (they changed). */
  tenantChanged(tenantId: number): void {
    this.tenants.drop(tenantId);
    this.scheduler.changed();
  }

  /** Queues the run of a claimed schedule fire (the tenant's rate and queue apply). */
  async fire(rule: TDeployedRule, fireAt: number): Promise<void> {
    const tenant = await this.tenants.get(rule.tenantId);
    this.enqueue(tenant.config, { rule, trigger: { device: null, fireAt } });
  }

  /** Sends a claimed scheduled command in the background and records its run (a send holds a stop of its rule). */
  private send(claimed: TClaimedSend): void {
    this.pending += 1;
    const release = this.track(claimed.rule.id);
    void sendClaimed(this.effectDeps(), claimed)
      .then((run) => {
        if (run) this.record(run);
        else this.opts.log.info({ ruleId: claimed.rule.id, node: claimed.schedule.nodeId }, 'platform rules: a scheduled send was skipped');
      })
      .catch((err: unknown) => this.opts.log.warn({ err, ruleId: claimed.rule.id }, 'platform rules: a scheduled send failed'))
      .finally(() => {
        release();
        this.pending -= 1;
        this.wakeIdle();
      });
  }

  /** Runs of `ruleId` waiting for the tenant's rate (its `queuing` state). */
  queued(ruleId: number): number {
    return this.runQueue.count((r) => r.rule.id === ruleId);
  }

  /** Takes a committed batch (called by ingest after the acknowledgements; never throws, never waits). */
  accept(batch: TCommittedRows): void {
    if (this.closed) return;
    const byTenant = new Map<number, { device: TIngestDevice; trigger: TFlowTriggerValues; key: string | null }[]>();
    const add = (deviceId: number, key: string | null, trigger: Omit<TFlowTriggerValues, 'device'>) => {
      const device = batch.devices.get(deviceId);
      if (!device) return;
      const list = byTenant.get(device.tenantId) ?? [];
      list.push({ device, key, trigger: { ...trigger, device: null } });
      byTenant.set(device.tenantId, list);
    };
    for (const row of batch.telemetry)
      add(row.deviceId, row.key, { key: row.key, ts: row.ts, values: [row.v1 ?? Number.NaN, row.v2 ?? Number.NaN, row.v3 ?? Number.NaN] });
    for (const row of batch.status) add(row.deviceId, null, { ts: row.ts, status: row.value });
    for (const [tenantId, events] of byTenant) {
      this.pending += 1;
      void this.dispatch(tenantId, events).finally(() => {
        this.pending -= 1;
        this.wakeIdle();
      });
    }
  }

  private async dispatch(
    tenantId: number,
    events: { device: TIngestDevice; trigger: TFlowTriggerValues; key: string | null }[],
  ): Promise<void> {
    try {
      const tenant = await this.tenants.get(tenantId);
      if (tenant.rules.length === 0) return;
      for (const ev of events) {
        for (const rule of tenant.rules) {
          const kind = rule.flow.trigger.kind;
          if ((kind === 'telemetry') !== (ev.key !== null)) continue;
          // Matchers and the device's product answer at once from their caches; only a miss waits for the database.
          const match = rule.matches(ev.device, ev.key);
          if (!(typeof match === 'boolean' ? match : await match)) continue;
          const known = this.productOfProject.get(ev.device.projectId);
          const device = known === undefined ? await this.deviceOf(rule, ev.device) : { ...deviceFields(ev.device), productId: known };
          if (!device) continue;
          this.enqueue(tenant.config, { rule, trigger: { ...ev.trigger, device } });
        }
      }
    } catch (err) {
      this.opts.log.warn({ err, tenantId }, 'platform rules: a batch could not be matched');
    }
  }

  private readonly productOfProject = new Map<number, number>();

  private async deviceOf(rule: TDeployedRule, d: TIngestDevice) {
    let productId = this.productOfProject.get(d.projectId);
    if (productId === undefined) {
      const full = await liveEffects(this.effectDeps(), rule).device(d.tangramId);
      if (!full) return null;
      productId = full.productId;
      this.productOfProject.set(d.projectId, productId);
    }
    return { ...deviceFields(d), productId };
  }

  private enqueue(config: TEngineConfig, run: TQueuedRun): void {
    if (this.closed) {
      this.counters.skipped += 1;
      return;
    }
    const release = this.track(run.rule.id);
    if (this.runQueue.offer(run.rule.tenantId, config, { ...run, release })) return;
    release();
    this.counters.refused += 1;
    const error = `over the tenant's limit: ${config.runs_per_second} runs/s with ${config.queue_max} waiting`;
    const refusal = { outcome: 'refused' as const, error, startedAt: this.now(), durationMs: 0, steps: [] };
    this.sampler.offer(runRow(run.rule, run.trigger, refusal), 'refused');
  }

  private readonly alertRefresher: AlertRefresher;
  private readonly rollups: RollupReader;

  private effectDeps(): TLiveEffectsDeps {
    return {
      db: this.opts.db,
      notifier: this.opts.notifier,
      commands: this.opts.commands,
      publishAlert: this.opts.publishAlert,
      alerts: this.alertRefresher,
      rollups: this.rollups,
      now: this.now,
    };
  }

  private async execute(run: TQueuedRun): Promise<void> {
    const startedAt = this.now();
    const result = await runFlow(
      run.rule.flow,
      run.trigger,
      run.rule.effects ?? liveEffects(this.effectDeps(), run.rule),
      this.now,
    ).finally(() => run.release?.());
    this.counters.runs += 1;
    if (result.outcome === 'error') this.counters.errors += 1;
    this.sampler.offer(runRow(run.rule, run.trigger, { ...result, startedAt }), runKind(result.outcome, result.steps));
  }

  /**
   * Runs `rule` now for the API (manual run) or replays a recorded trigger against a draft (`replay`: reads are
   * real, alerts, notifications and commands are only recorded). The run is written at once and its id answered.
   */
  async runNow(rule: TDeployedRule, trigger: TFlowTriggerValues, replay: boolean): Promise<TFlowRunAnswer> {
    const records: TFlowEffectRecord[] = [];
    const live = liveEffects(this.effectDeps(), rule);
    const effects: TFlowEffects = replay ? recordingEffects(live, records) : live;
    const startedAt = this.now();
    const release = this.track(rule.id);
    const result = await runFlow(rule.flow, trigger, effects, this.now).finally(release);
    const [runId] = await writeRuns(this.opts.db, [
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
   * The {@link TFlowRuntime} seam's run: compiles `graph` and runs it on the recorded trigger (its device looked up
   * in the rule's tenant), live or as a replay.
   * @throws AppError 422 RULE_APPLY_FAILED when the graph does not compile.
   */
  async runGraph(
    rule: { id: number; tenantId: number; name: string; version: number },
    graph: TFlowGraph,
    trigger: TFlowRunTrigger,
    replay: boolean,
  ): Promise<{ runId: number }> {
    const compiled = compileFlow(graph);
    if (!compiled.ok) throw applyFailed(compiled.problems, 'the flow does not compile');
    const device = trigger.tangram_id ? await liveEffects(this.effectDeps(), rule).device(trigger.tangram_id) : null;
    const values: TFlowTriggerValues = {
      device,
      ...(trigger.key !== null ? { key: trigger.key } : {}),
      ...(trigger.ts !== null ? { ts: trigger.ts } : {}),
      ...(trigger.values ? { values: trigger.values.map((v) => v ?? Number.NaN) } : {}),
      ...(trigger.status !== null ? { status: trigger.status } : {}),
    };
    const answer = await this.runNow({ ...rule, flow: compiled.flow }, values, replay);
    return { runId: answer.runId };
  }

  private record(row: TRunRow): void {
    this.trace.record(row);
  }

  /** Writes the trace rows waiting (see TraceWriter.flush). */
  flush(): Promise<void> {
    return this.trace.flush();
  }

  /** Resolves once nothing is being matched, queued or run, and the trace is written, held samples too (tests). */
  async idle(): Promise<void> {
    await this.settled();
    this.sampler.sweep(Number.POSITIVE_INFINITY);
    await this.flush();
  }

  /** Resolves once nothing is being matched, queued or run. */
  private async settled(): Promise<void> {
    while (this.pending > 0 || this.runQueue.busy) {
      await new Promise<void>((r) => this.idleWaiters.push(r));
    }
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  /**
   * Stops the engine for a server stop (docs/deployment.md "Stopping") within `budgetMs`: takes no new trigger and
   * skips every queued run — runs are derived from points already stored, not acknowledged data, and a full queue at
   * the tenant's rate (10,000 at 1,000/s by default) would take seconds to work off. It waits for the runs in progress
   * at most half the budget, writes the trace waiting until the budget ends (rows still waiting then are dropped),
   * stops the timers and logs what was skipped, left unfinished and not traced. Never throws.
   */
  async close(budgetMs: number = FLOW_CLOSE_WAIT_MS): Promise<void> {
    this.closed = true;
    const startedAt = Date.now();
    const runsUntil = startedAt + budgetMs / 2;
    await settlesWithin(this.scheduler.stop(), runsUntil - Date.now());
    for (const run of this.runQueue.clear()) {
      run.release?.();
      this.counters.skipped += 1;
    }
    clearInterval(this.pruneTimer);
    clearInterval(this.settleTimer);
    await settlesWithin(Promise.all([this.settled(), ...this.housekeeping]), runsUntil - Date.now());
    this.sampler.close();
    const unfinishedRuns = this.runQueue.inProgress;
    await settlesWithin(this.flush(), startedAt + budgetMs - Date.now());
    const untracedRuns = this.trace.stop();
    this.runQueue.stop();
    this.opts.log.info({ skippedRuns: this.counters.skipped, unfinishedRuns, untracedRuns }, 'platform rules: stopped');
  }
}
