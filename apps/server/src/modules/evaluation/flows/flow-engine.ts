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
import type { TEngineConfig, TFlowGraph } from '@tessera/contracts';
import type { Logger } from 'pino';
import type { TFlowRunTrigger } from '../../../core/context.js';
import type { Db } from '../../../db/client.js';
import { settlesWithin } from '../../../core/deadline.js';
import type { TCommittedRows } from '../../ingest/pipeline.js';
import type { TRuleNotifier } from '../../notifications/types.js';
import type { RuleCommands } from '../commands.js';
import { AlertRefresher } from './alert-refresher.js';
import { BatchMatcher, eventsByTenant } from './batch-matcher.js';
import type { TClaimedSend } from './command-schedules.js';
import type { TFlowEffects } from './effects.js';
import { runRow, type TDeployedRule } from './flow-store.js';
import { InFlightRuns } from './in-flight.js';
import { liveEffects, type TFlowRuleRef, type TLiveEffectsDeps } from './live-effects.js';
import { runGraph, runNow, type TFlowRunAnswer, type TManualRunDeps } from './manual-runs.js';
import { RollupReader } from './rollup-reader.js';
import { runFlow, type TFlowTriggerValues } from './run-flow.js';
import { pruneRuns } from './run-pruning.js';
import { RunQueue } from './run-queue.js';
import { sendClaimed } from './scheduled-sends.js';
import { FlowScheduler } from './scheduler.js';
import { settleStops, STOP_SETTLE_EVERY_MS } from './stop-settler.js';
import { TenantRuleCache } from './tenant-rules.js';
import { runKind, TraceSampler } from './trace-sampler.js';
import { TraceWriter } from './trace-writer.js';

export type { TFlowRunAnswer } from './manual-runs.js';

/**
 * Runs in progress at once across tenants. A run in progress mostly waits for a batched write (its alert joins the
 * next upsert statement of every run waiting, alert-refresher.ts), so the bound is on memory, not on database work:
 * with 256 a level rule on 5,000 points/s was held to 256 runs per alert statement and queued behind it.
 */
export const FLOW_CONCURRENCY = 4_096;
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
  /** The schedule side (tests drive it with `scheduler.tick()`). */
  readonly scheduler: FlowScheduler;
  private readonly now: () => number;
  private readonly tenants: TenantRuleCache;
  private readonly matcher: BatchMatcher;
  private readonly runQueue = new RunQueue<TQueuedRun>(
    (run) => this.execute(run),
    FLOW_CONCURRENCY,
    () => this.wakeIdle(),
  );
  private readonly trace: TraceWriter;
  private readonly sampler: TraceSampler;
  private readonly effectDeps: TLiveEffectsDeps;
  private readonly manualDeps: TManualRunDeps;
  /** Runs queued or running in this process: they hold a stop of their rule. */
  private readonly inFlight = new InFlightRuns();
  private readonly pruneTimer: NodeJS.Timeout;
  private readonly settleTimer: NodeJS.Timeout;
  /** Housekeeping in progress (pruning, settling), awaited by close() before the database goes. */
  private readonly housekeeping = new Set<Promise<void>>();
  /** Batches being matched and scheduled sends in progress. */
  private pending = 0;
  private idleWaiters: (() => void)[] = [];
  private closed = false;

  constructor(private readonly opts: TFlowEngineOptions) {
    this.now = opts.now ?? Date.now;
    this.trace = new TraceWriter(opts.db, opts.log);
    this.sampler = new TraceSampler((row) => this.trace.record(row));
    this.effectDeps = {
      db: opts.db,
      notifier: opts.notifier,
      commands: opts.commands,
      publishAlert: opts.publishAlert,
      alerts: new AlertRefresher(opts.db),
      rollups: new RollupReader(opts.db),
      now: this.now,
    };
    const liveEffectsOf = (rule: TFlowRuleRef) => liveEffects(this.effectDeps, rule);
    this.manualDeps = { db: opts.db, liveEffectsOf, track: (ruleId) => this.track(ruleId), now: this.now };
    this.tenants = new TenantRuleCache(opts.db, liveEffectsOf);
    this.matcher = new BatchMatcher({
      tenants: this.tenants,
      log: opts.log,
      lookUp: (rule, tangramId) => rule.effects.device(tangramId),
      offer: (config, rule, trigger) => this.enqueue(config, { rule, trigger }),
    });
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

  private background(work: Promise<void>): void {
    this.housekeeping.add(work);
    void work.finally(() => this.housekeeping.delete(work));
  }

  /** One stop-settling tick (docs/platform-rules.md "Statuses"); tests call it to settle without waiting. */
  async settleStops(): Promise<void> {
    try {
      const tenants = await settleStops(this.opts.db, this.inFlight.ruleIds(), Date.now());
      for (const t of tenants) this.tenantChanged(t);
    } catch (err) {
      this.opts.log.warn({ err }, 'platform rules: settling stops failed');
    }
  }

  /** Runs of `ruleId` queued or running in this process. */
  inFlightRuns(ruleId: number): number {
    return this.inFlight.count(ruleId);
  }

  /** Marks a run of `ruleId` in flight until the returned release is called (once). */
  track(ruleId: number): () => void {
    return this.inFlight.track(ruleId);
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
    void sendClaimed(this.effectDeps, claimed)
      .then((run) => {
        if (run) this.trace.record(run);
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
    for (const [tenantId, events] of eventsByTenant(batch)) {
      this.pending += 1;
      void this.matcher.match(tenantId, events).finally(() => {
        this.pending -= 1;
        this.wakeIdle();
      });
    }
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
    const startedAt = this.now();
    this.sampler.offerMade(run.rule.id, 'refused', () => {
      const error = `over the tenant's limit: ${config.runs_per_second} runs/s with ${config.queue_max} waiting`;
      return runRow(run.rule, run.trigger, { outcome: 'refused', error, startedAt, durationMs: 0, steps: [] });
    });
  }

  private async execute(run: TQueuedRun): Promise<void> {
    const startedAt = this.now();
    const result = await runFlow(run.rule.flow, run.trigger, run.rule.effects ?? liveEffects(this.effectDeps, run.rule), this.now).finally(
      () => run.release?.(),
    );
    this.counters.runs += 1;
    if (result.outcome === 'error') this.counters.errors += 1;
    this.sampler.offer(runRow(run.rule, run.trigger, { ...result, startedAt }), runKind(result.outcome, result.steps));
  }

  /** Runs `rule` now for the API, or replays a trigger against a draft (manual-runs.ts `runNow`). */
  runNow(rule: TDeployedRule, trigger: TFlowTriggerValues, replay: boolean): Promise<TFlowRunAnswer> {
    return runNow(this.manualDeps, rule, trigger, replay);
  }

  /**
   * The {@link TFlowRuntime} seam's run (manual-runs.ts `runGraph`).
   * @throws AppError 422 RULE_APPLY_FAILED when the graph does not compile.
   */
  runGraph(
    rule: TFlowRuleRef & { version: number },
    graph: TFlowGraph,
    trigger: TFlowRunTrigger,
    replay: boolean,
  ): Promise<{ runId: number }> {
    return runGraph(this.manualDeps, rule, graph, trigger, replay);
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
