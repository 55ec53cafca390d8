/**
 * Evaluation of platform telemetry as points arrive (docs/platform-telemetry.md "Evaluation"): a commit listener
 * beside the rule engines. After a batch commits, every platform telemetry that reads one of the batch's device keys
 * is evaluated on the latest values (telemetry_latest) of what its formula reads; the value (× coefficient) becomes
 * its latest value and time (the newest input's time) and the point of that minute in its stored series — or, when
 * it cannot be computed (an input without a value yet, ÷ 0), `latest_error` says why.
 *
 * Batches that arrive while an evaluation runs are merged and evaluated once it ends, so a burst costs one evaluation
 * per platform telemetry, not one per batch, and the work held is bounded by the number of devices.
 */
import { PLATFORM_TELEMETRY_POINT_MS, type TLivePlatformTelemetry, topics } from '@tessera/contracts';
import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { TAppContext, TMessageBus, TPlatformTelemetryRuntime } from '../../core/context.js';
import { platformTelemetries, platformTelemetryDevices, platformTelemetryPoints } from '../../db/schema.js';
import type { TCommittedRows } from '../ingest/pipeline.js';
import { compileFormula, FormulaError, type TCompiledFormula } from './formula.js';
import { evaluateOnLatest, mountsOf } from './service.js';

/** Keys written per device id. */
type TTouched = Map<number, Set<string>>;

/** How long the set of mounted devices is trusted before it is read again (another replica's changes). */
const MOUNTS_TTL_MS = 10_000;

/** The evaluator. `accept` never throws; `close` waits for the evaluation in progress. */
export class PlatformTelemetryEvaluator implements TPlatformTelemetryRuntime {
  /** Every mounted device id, read at `mountsReadAt`; a batch of none of them costs nothing. */
  private mounted: Set<number> | null = null;
  private mountsReadAt = 0;
  private queued: TTouched | null = null;
  private running: Promise<void> | null = null;
  private closed = false;
  /** Compiled formulas by `id:updated_at` (a change makes a new entry; old ones are dropped past 1,000). */
  private readonly compiled = new Map<string, TCompiledFormula | FormulaError>();

  /** Where new values go live (`live/platform-telemetry/{id}`); none until the messaging side exists. */
  private bus: Pick<TMessageBus, 'publish'> | null = null;

  constructor(private readonly deps: Pick<TAppContext, 'db' | 'log'>) {}

  /** Publishes each new latest value on `bus` from now on. */
  attachBus(bus: Pick<TMessageBus, 'publish'>): void {
    this.bus = bus;
  }

  /** Mounted devices changed here (a create, an update, a delete): the next batch reads them again. */
  mountsChanged(): void {
    this.mounted = null;
  }

  /** Takes a committed batch (the ingest commit listener). */
  accept(batch: TCommittedRows): void {
    if (this.closed || batch.telemetry.length === 0) return;
    const fresh = this.mounted !== null && Date.now() - this.mountsReadAt < MOUNTS_TTL_MS;
    if (fresh && !batch.telemetry.some((row) => this.mounted?.has(row.deviceId))) return;
    this.queued ??= new Map();
    for (const row of batch.telemetry) {
      const keys = this.queued.get(row.deviceId) ?? new Set<string>();
      keys.add(row.key);
      this.queued.set(row.deviceId, keys);
    }
    this.running ??= this.drain();
  }

  /** Stops taking batches and waits for the evaluation in progress (and what was queued before). */
  async close(): Promise<void> {
    this.closed = true;
    await this.running;
  }

  /** Resolves when nothing is queued or running (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queued) {
        const touched = this.queued;
        this.queued = null;
        try {
          await this.evaluate(touched);
        } catch (err) {
          this.deps.log.warn({ err }, 'platform telemetry evaluation failed');
        }
      }
    } finally {
      this.running = null;
    }
  }

  private async evaluate(touched: TTouched): Promise<void> {
    const { db } = this.deps;
    if (this.mounted === null || Date.now() - this.mountsReadAt >= MOUNTS_TTL_MS) {
      this.mountsReadAt = Date.now();
      const rows = await db.selectDistinct({ deviceId: platformTelemetryDevices.deviceId }).from(platformTelemetryDevices);
      this.mounted = new Set(rows.map((r) => r.deviceId));
    }
    if (![...touched.keys()].some((id) => this.mounted?.has(id))) return;
    const mounted = await db
      .selectDistinct({ id: platformTelemetryDevices.platformTelemetryId })
      .from(platformTelemetryDevices)
      .where(inArray(platformTelemetryDevices.deviceId, [...touched.keys()]));
    if (mounted.length === 0) return;
    const ids = mounted.map((m) => m.id);
    const [rows, mounts] = await Promise.all([
      db.select().from(platformTelemetries).where(inArray(platformTelemetries.id, ids)),
      mountsOf(db, ids),
    ]);
    for (const pt of rows) {
      const ptMounts = mounts.get(pt.id) ?? [];
      const compiled = this.compile(pt.id, pt.updatedAt, pt.formula, ptMounts);
      if (compiled instanceof FormulaError) {
        await this.fail(pt.id, `formula: ${compiled.message}`);
        continue;
      }
      const reads = ptMounts.some((m) => [...(touched.get(m.deviceId) ?? [])].some((key) => compiled.reads.has(`${m.alias}.${key}`)));
      if (!reads) continue;
      const result = await evaluateOnLatest(db, compiled, ptMounts, pt.coefficient);
      if (result.value === null || result.ts === null) {
        await this.fail(pt.id, result.run_error ?? 'no value');
        continue;
      }
      await this.store(pt.id, result.value, result.ts);
    }
  }

  private compile(id: number, updatedAt: number, formula: string, mounts: Parameters<typeof compileFormula>[1]) {
    const cacheKey = `${id}:${updatedAt}`;
    let compiled = this.compiled.get(cacheKey);
    if (!compiled) {
      try {
        compiled = compileFormula(formula, mounts);
      } catch (err) {
        if (!(err instanceof FormulaError)) throw err;
        compiled = err;
      }
      if (this.compiled.size >= 1_000) this.compiled.clear();
      this.compiled.set(cacheKey, compiled);
    }
    return compiled;
  }

  /** The latest value (unless a newer one is stored) and the point of its minute; a newer value goes live. */
  private async store(id: number, value: number, ts: number): Promise<void> {
    const { db } = this.deps;
    const newer = await db.transaction(async (tx) => {
      const updated = await tx
        .update(platformTelemetries)
        .set({ latestValue: value, latestTs: ts, latestError: null })
        .where(and(eq(platformTelemetries.id, id), or(isNull(platformTelemetries.latestTs), lte(platformTelemetries.latestTs, ts))))
        .returning({ id: platformTelemetries.id });
      await tx
        .insert(platformTelemetryPoints)
        .values({ platformTelemetryId: id, ts: Math.floor(ts / PLATFORM_TELEMETRY_POINT_MS) * PLATFORM_TELEMETRY_POINT_MS, value })
        .onConflictDoUpdate({
          target: [platformTelemetryPoints.platformTelemetryId, platformTelemetryPoints.ts],
          set: { value: sql`excluded.value` },
        });
      return updated.length > 0;
    });
    if (!newer || !this.bus) return;
    const message: TLivePlatformTelemetry = { id, value, ts };
    await this.bus.publish(topics.livePlatformTelemetry(id), JSON.stringify(message), { qos: 0 }).catch((err: unknown) => {
      this.deps.log.debug({ err, id }, 'platform telemetry live publish failed');
    });
  }

  private async fail(id: number, reason: string): Promise<void> {
    await this.deps.db
      .update(platformTelemetries)
      .set({ latestError: reason.slice(0, 500) })
      .where(eq(platformTelemetries.id, id));
  }
}
