/**
 * The ingest pipeline (issue 2 "Ingest"): device publishes → parse, rate-limit → a batch of at most
 * INGEST_BATCH_MAX points or INGEST_FLUSH_MS old → one writeIngestBatch transaction → the publishers' promises
 * resolve (their QoS 1 PUBACK goes out) → live messages. A failed write is retried with backoff and nothing is
 * acknowledged meanwhile, so the device resends if the server dies; the primary key absorbs resends. After the
 * acknowledgements, the committed rows go to the commit listener (the rule engine, docs/rules.md), which must not
 * block: evaluation happens off the acknowledgement path.
 */
import { DEVICE_RATE_BURST_POINTS, DEVICE_RATE_POINTS_PER_S, type TLiveMessage } from '@tessera/contracts';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import { type TStatusRowIn, type TTelemetryRowIn, writeIngestBatch } from '../telemetry/write.js';
import { PendingBatch } from './batch.js';
import type { DeviceDirectory, TIngestDevice } from './directory.js';
import { parseDevicePayload, type TRejectReason } from './parse.js';
import { ThrottledLog } from './throttled-log.js';
import { TokenBucket } from './token-bucket.js';

/** In-process ingest counters (since start). */
export interface TIngestCounters {
  messages: number;
  pointsAccepted: number;
  duplicates: number;
  batches: number;
  writeFailures: number;
  rejected: Record<TRejectReason, number>;
}

/** Pipeline settings and collaborators. */
export interface TPipelineOptions {
  db: Db;
  log: Logger;
  directory: DeviceDirectory;
  batchMax: number;
  flushMs: number;
  /** Publishes a live message (fire and forget; a lost live message is not a lost point). */
  publishLive: (topic: string, message: TLiveMessage) => void;
  /** Rate limit per device, points per second and burst (default: the contracts limits). */
  ratePerS?: number;
  burst?: number;
  /** The batch writer (default writeIngestBatch). */
  writeBatch?: typeof writeIngestBatch;
}

/** What a committed batch hands to the commit listener: its stored rows and their devices. */
export interface TCommittedRows {
  telemetry: readonly TTelemetryRowIn[];
  status: readonly TStatusRowIn[];
  devices: ReadonlyMap<number, TIngestDevice>;
}

/** Thrown to a publisher whose message could not be stored before shutdown (it was not acknowledged). */
export class IngestClosedError extends Error {}

/**
 * Batches written at once. Two overlap one batch's database round trips with the next one's parsing and let
 * PostgreSQL use both cores; writeIngestBatch sorts rows by key so concurrent batches lock in the same order.
 */
export const INGEST_WRITERS = 2;
const BACKOFF_START_MS = 100;
const BACKOFF_MAX_MS = 5_000;
/** Write attempts while closing before the pending batch is given up (unacknowledged, so not lost). */
const CLOSE_ATTEMPTS = 5;

/** Batches device publishes into PostgreSQL/PGlite. */
export class IngestPipeline {
  private pending = new PendingBatch();
  private timer: NodeJS.Timeout | null = null;
  private readonly writing = new Set<Promise<void>>();
  private closing = false;
  /** Publishes between arrival and joining a batch (awaiting their project's keys); drain waits for them. */
  private arriving = new Set<Promise<void>>();
  private readonly buckets = new Map<number, TokenBucket>();
  private readonly warn: ThrottledLog;
  private onCommitted: ((rows: TCommittedRows) => void) | null = null;
  readonly counters: TIngestCounters = {
    messages: 0,
    pointsAccepted: 0,
    duplicates: 0,
    batches: 0,
    writeFailures: 0,
    rejected: { malformed: 0, unknown_key: 0, rate_limited: 0, too_many_points: 0 },
  };

  constructor(private readonly opts: TPipelineOptions) {
    this.warn = new ThrottledLog(opts.log);
  }

  /**
   * Takes one publish of `device` on its telemetry or status topic. Resolves once the batch holding it (or its
   * refusal counter) has committed; rejects with IngestClosedError when shutdown gave up on it.
   */
  async submit(device: TIngestDevice, kind: 'telemetry' | 'status', payload: Buffer, svcRecvTs = Date.now()): Promise<void> {
    if (this.closing) throw new IngestClosedError('ingest is closing');
    const keysLoaded = this.opts.directory.projectKeys(device.projectId);
    const arrival = keysLoaded.then(
      () => undefined,
      () => undefined,
    );
    this.arriving.add(arrival);
    let keys: ReadonlySet<string>;
    try {
      keys = await keysLoaded;
    } finally {
      this.arriving.delete(arrival);
    }
    const parsed = parseDevicePayload(kind, payload, keys);
    this.counters.messages += 1;
    const batch = this.pending;
    if (!parsed.ok) {
      this.reject(batch, device, parsed.reason, parsed.count, parsed.detail);
    } else {
      const n = parsed.kind === 'telemetry' ? parsed.points.length : 1;
      if (!this.bucketOf(device.id).take(n, svcRecvTs)) {
        this.reject(batch, device, 'rate_limited', n, `over ${this.opts.ratePerS ?? DEVICE_RATE_POINTS_PER_S} points/s`);
      } else if (parsed.kind === 'telemetry') {
        batch.addPoints(device, parsed.points, svcRecvTs);
      } else {
        batch.addStatus(device, parsed.status, svcRecvTs);
      }
    }
    const done = new Promise<void>((resolve, reject) => batch.waiters.push({ resolve, reject }));
    this.schedule();
    return done;
  }

  /**
   * Sets the listener that receives every committed batch after its publishers were acknowledged (the rule engine).
   * It runs synchronously on the ingest path, so it must only queue work; an exception it throws is logged.
   */
  setCommitListener(listener: ((rows: TCommittedRows) => void) | null): void {
    this.onCommitted = listener;
  }

  /** Stops taking publishes and writes what is pending (retrying a few times). */
  async drain(): Promise<void> {
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.arriving.size > 0 || this.writing.size > 0 || !this.pending.isEmpty()) {
      if (this.arriving.size > 0) await Promise.all(this.arriving);
      else if (!this.pending.isEmpty() && this.writing.size < INGEST_WRITERS) this.startWrite();
      else await Promise.race(this.writing);
    }
  }

  private reject(batch: PendingBatch, device: TIngestDevice, reason: TRejectReason, count: number, detail: string): void {
    batch.addRejected(device.id, reason, count);
    this.counters.rejected[reason] += count;
    this.warn.warn(`${device.id}:${reason}`, { tangramId: device.tangramId, reason, count, detail }, 'ingest refused a message');
  }

  private bucketOf(deviceId: number): TokenBucket {
    let b = this.buckets.get(deviceId);
    if (!b) {
      b = new TokenBucket(this.opts.ratePerS ?? DEVICE_RATE_POINTS_PER_S, this.opts.burst ?? DEVICE_RATE_BURST_POINTS);
      this.buckets.set(deviceId, b);
    }
    return b;
  }

  private schedule(): void {
    if (this.writing.size >= INGEST_WRITERS || this.closing) return;
    if (this.pending.size >= this.opts.batchMax) {
      this.startWrite();
    } else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        if (this.writing.size < INGEST_WRITERS && !this.pending.isEmpty()) this.startWrite();
      }, this.opts.flushMs);
    }
  }

  private startWrite(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new PendingBatch();
    const writing: Promise<void> = this.write(batch).finally(() => {
      this.writing.delete(writing);
      if (!this.pending.isEmpty()) this.schedule();
    });
    this.writing.add(writing);
  }

  private async write(batch: PendingBatch): Promise<void> {
    for (let attempt = 1, backoff = BACKOFF_START_MS; ; attempt += 1, backoff = Math.min(backoff * 2, BACKOFF_MAX_MS)) {
      try {
        const result = await (this.opts.writeBatch ?? writeIngestBatch)(this.opts.db, batch.toWrite());
        this.counters.batches += 1;
        this.counters.pointsAccepted += result.inserted;
        this.counters.duplicates += result.duplicates;
        break;
      } catch (err) {
        this.counters.writeFailures += 1;
        this.opts.log.error({ err, attempt, points: batch.size }, 'ingest batch write failed; retrying, nothing acknowledged');
        if (this.closing && attempt >= CLOSE_ATTEMPTS) {
          for (const w of batch.waiters) w.reject(new IngestClosedError('batch not stored before shutdown'));
          return;
        }
        await new Promise((r) => setTimeout(r, backoff));
      }
    }
    for (const w of batch.waiters) w.resolve();
    for (const { topic, message } of batch.liveMessages()) this.opts.publishLive(topic, message);
    if (this.onCommitted && batch.devices.size > 0) {
      try {
        this.onCommitted({ telemetry: batch.telemetry, status: batch.status, devices: batch.devices });
      } catch (err) {
        this.opts.log.error({ err }, 'ingest commit listener failed');
      }
    }
  }
}
