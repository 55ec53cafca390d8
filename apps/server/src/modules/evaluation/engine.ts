/**
 * The rule engine (docs/rules.md "Where evaluation runs"). Ingest hands it each committed
 * batch after the publishers were acknowledged ({@link RuleEngine.accept}, synchronous and cheap); it keeps, per
 * device, only the newest committed point of each key and status word until it gets to the device — so when it is
 * behind, its backlog is bounded by devices × keys, never by the point rate — and evaluates at most
 * RULE_ENGINE_CONCURRENCY devices at once, one evaluation per device at a time.
 */
import type { Logger } from 'pino';
import type { TAppContext } from '../../core/context.js';
import type { TRuleNotifier } from '../notifications/types.js';
import type { TIngestDevice } from '../ingest/directory.js';
import type { TCommittedRows } from '../ingest/pipeline.js';
import { RuleCommands } from './commands.js';
import {
  applyPending,
  freshTs,
  loadDeviceValues,
  loadRuntimes,
  mergeNewer,
  unitsFor,
  type TDeviceState,
  type TPendingDevice,
} from './device-state.js';
import { valueOrNaN, type TLatestPoint } from './device-values.js';
import { emptyCounters, evaluateDevice, type TRuleEngineCounters } from './evaluate-device.js';
import { AlertPublisher } from '../alerts/live-publisher.js';
import { AlertRefresher } from './flows/alert-refresher.js';
import type { TEngineDeps } from './outcome.js';
import { ProjectRuleCache } from './project-cache.js';
import type { RuleChangeHub } from './rule-changes.js';
import { hasNoRulesFor } from './rule-set.js';

/** Devices evaluated at once (each evaluation is a few database round trips). */
export const RULE_ENGINE_CONCURRENCY = 8;
/** How long a device's values and rule states are trusted before being read again (other replicas' points), ms. */
export const DEVICE_STATE_REFRESH_MS = 10_000;
/** How long close() waits for rule commands still waiting for their reply, ms. */
const COMMAND_SETTLE_MS = 1_000;

/** Engine settings and collaborators. */
export interface TRuleEngineOptions {
  notifier: TRuleNotifier;
  /** Publishes an alert's change on the live channel (alerts/publish.ts publishAlertChange). */
  publishAlert: (alertId: number) => Promise<void>;
  /** Server clock for alerts, intervals and flapping (tests inject one). */
  now?: () => number;
  concurrency?: number;
}

interface TQueued {
  device: TIngestDevice;
  pending: TPendingDevice;
}

/** Evaluates project rules and app rules on committed telemetry. */
export class RuleEngine {
  readonly counters: TRuleEngineCounters = emptyCounters();
  private readonly cache: ProjectRuleCache;
  private readonly states = new Map<number, TDeviceState>();
  private readonly queue = new Map<number, TQueued>();
  private readonly running = new Set<number>();
  private readonly publisher: AlertPublisher;
  private readonly commands: RuleCommands;
  private readonly deps: TEngineDeps;
  private readonly log: Logger;
  private readonly concurrency: number;
  private idleWaiters: (() => void)[] = [];
  private unsubscribe: () => void;

  constructor(ctx: Pick<TAppContext, 'db' | 'bus' | 'log' | 'config'>, changes: RuleChangeHub, opts: TRuleEngineOptions) {
    this.log = ctx.log;
    this.concurrency = opts.concurrency ?? RULE_ENGINE_CONCURRENCY;
    this.cache = new ProjectRuleCache(ctx.db, ctx.log);
    this.unsubscribe = changes.subscribe((projectId) => this.cache.invalidate(projectId));
    this.publisher = new AlertPublisher(opts.publishAlert);
    this.commands = new RuleCommands({ db: ctx.db, bus: ctx.bus, log: ctx.log, timeoutMs: ctx.config.commandTimeoutMs });
    this.deps = {
      db: ctx.db,
      log: ctx.log,
      alerts: new AlertRefresher(ctx.db),
      now: opts.now ?? Date.now,
      notifier: opts.notifier,
      publishAlert: (id) => this.publisher.changed(id),
      sendCommand: (device, ruleName, command) => this.commands.send(device, ruleName, command),
    };
  }

  /**
   * Takes a committed batch (called by ingest after the acknowledgements; never throws, never waits). Devices of a
   * project known to have no rule are skipped at once.
   */
  accept(batch: TCommittedRows): void {
    // One look-up per device of the batch, not per row.
    const seen = new Map<number, TQueued | null>();
    const queuedOf = (deviceId: number) => {
      let q = seen.get(deviceId);
      if (q === undefined) {
        q = this.queuedOf(batch.devices.get(deviceId));
        seen.set(deviceId, q);
      }
      return q;
    };
    for (const row of batch.telemetry) {
      const queued = queuedOf(row.deviceId);
      if (!queued) continue;
      const prev = queued.pending.points.get(row.key);
      if (prev !== undefined && prev.ts >= row.ts) {
        this.counters.coalesced += 1;
        continue;
      }
      if (prev !== undefined) this.counters.coalesced += 1;
      const point: TLatestPoint = { ts: row.ts, vs: [valueOrNaN(row.v1), valueOrNaN(row.v2), valueOrNaN(row.v3)] };
      if (row.value !== undefined) {
        point.value = row.value;
        // `changed` compares with the point just before, even when the engine never evaluates that one.
        if (prev?.value !== undefined) point.prev = prev.value;
      }
      queued.pending.points.set(row.key, point);
    }
    for (const row of batch.status) {
      const queued = queuedOf(row.deviceId);
      if (!queued) continue;
      const prev = queued.pending.status;
      if (prev) this.counters.coalesced += 1;
      if (!prev || row.ts > prev.ts) queued.pending.status = { ts: row.ts, value: row.value };
    }
    this.pump();
  }

  /**
   * Resolves once nothing is queued or being evaluated: every committed point so far has been evaluated and its
   * alert rows written (tests; live publishes may still be on their way).
   */
  async idle(): Promise<void> {
    while (this.queue.size > 0 || this.running.size > 0) await new Promise<void>((r) => this.idleWaiters.push(r));
  }

  /** Finishes what is queued and its live publishes, waits briefly for commands in flight, stops listening to rule changes. */
  async close(): Promise<void> {
    await this.idle();
    await this.publisher.idle();
    await this.commands.settle(COMMAND_SETTLE_MS);
    this.unsubscribe();
  }

  private queuedOf(device: TIngestDevice | undefined): TQueued | null {
    if (!device) return null;
    const known = this.cache.peek(device.projectId);
    if (known === null || (known !== undefined && hasNoRulesFor(known, device.id))) return null;
    let q = this.queue.get(device.id);
    if (!q) {
      q = { device, pending: { points: new Map(), status: null } };
      this.queue.set(device.id, q);
    }
    return q;
  }

  private pump(): void {
    for (const [deviceId, queued] of this.queue) {
      if (this.running.size >= this.concurrency) return;
      if (this.running.has(deviceId)) continue;
      this.queue.delete(deviceId);
      this.running.add(deviceId);
      this.run(queued)
        .catch((err: unknown) => {
          this.counters.errors += 1;
          this.states.delete(deviceId);
          this.log.error({ err, deviceId }, 'rule engine: evaluation failed');
        })
        .finally(() => {
          this.running.delete(deviceId);
          this.pump();
          if (this.queue.size === 0 && this.running.size === 0) {
            const waiters = this.idleWaiters;
            this.idleWaiters = [];
            for (const w of waiters) w();
          }
        });
    }
  }

  private async run({ device, pending }: TQueued): Promise<void> {
    const { db } = this.deps;
    const rules = await this.cache.get(device.projectId);
    if (!rules || hasNoRulesFor(rules, device.id)) {
      this.states.delete(device.id);
      return;
    }
    const now = Date.now();
    let state = this.states.get(device.id);
    let fresh: ReturnType<typeof applyPending>;
    if (!state) {
      state = {
        values: await loadDeviceValues(db, device.id, rules.usesChanged),
        rules: null,
        runtimes: new Map(),
        loadedAt: now,
        t: Number.NEGATIVE_INFINITY,
      };
      this.states.set(device.id, state);
      fresh = applyPending(state.values, pending, true);
    } else {
      fresh = applyPending(state.values, pending, false);
      if (now - state.loadedAt >= DEVICE_STATE_REFRESH_MS) {
        mergeNewer(state.values, await loadDeviceValues(db, device.id, rules.usesChanged));
        state.rules = null;
        state.loadedAt = now;
      }
    }
    if (state.rules !== rules) {
      state.runtimes = await loadRuntimes(db, device.id, unitsFor(rules, device.id));
      state.rules = rules;
    }
    this.counters.outOfOrder += pending.points.size + (pending.status ? 1 : 0) - fresh.keys.size - (fresh.status ? 1 : 0);
    if (fresh.keys.size === 0 && !fresh.status) return;
    state.t = Math.max(state.t, freshTs(state.values, fresh));
    await evaluateDevice(this.deps, rules, state, device, fresh, this.counters);
  }
}
