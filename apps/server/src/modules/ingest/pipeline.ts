/**
 * The ingest pipeline (docs/decisions/ingest.md): device publish → admission (a bound on the points held; a publish
 * waits before it is parsed, so the broker stops reading that device's socket) → parse, timestamp window, rate
 * allowance → a batch of at most INGEST_BATCH_MAX points or INGEST_FLUSH_MS old → commitBatch (retries transient
 * failures with backoff, splits a batch whose data the database refuses) → the publishers' promises resolve (their
 * QoS 1 PUBACK goes out) → live messages → the commit listener (the rule engine, docs/rules.md), which must not
 * block: evaluation happens off the acknowledgement path. Nothing is acknowledged before it is committed, so a device
 * resends what a dying server never stored; the primary key absorbs resends.
 */
import { DEVICE_RATE_BURST_POINTS, DEVICE_RATE_POINTS_PER_S, type TLiveMessage } from '@tessera/contracts';
import type { Logger } from 'pino';
import type { TIngestBacklog } from '../../core/context.js';
import { type Db, INGEST_POOL_SIZE } from '../../db/client.js';
import { type TBatchResult, writeIngestBatch } from '../telemetry/write.js';
import { LastSeenWrites } from '../telemetry/last-seen-writes.js';
import { AckOrder, type TAckTurn } from './ack-order.js';
import { AdmissionGate } from './admission.js';
import {
  committedRowsOf,
  liveMessagesOf,
  PendingBatch,
  type TCommittedRows,
  type TPendingMessage,
  type TSliceRows,
  type TFiledReport,
  type TWaiter,
} from './batch.js';
import { commitBatch, IngestClosedError } from './commit.js';
import type { DeviceDirectory, TIngestDevice, TProjectKeys } from './directory.js';
import { FlushClock } from './flush-clock.js';
import { emptyIngestCounters, type TIngestCounters, type TIngestWay } from './ingest-counters.js';
import { parseDevicePayload, type TRejectReason } from './parse.js';
import { PublishWaiter } from './publish-waiter.js';
import { ReadGate, type TReadGate } from './read-gate.js';
import { refileAfter } from './refile.js';
import { ThrottledLog } from '../../core/throttled-log.js';
import { DeviceBuckets, newestTsOf } from './token-bucket.js';
export { IngestClosedError } from './commit.js';
export type { TCommittedRows } from './batch.js';
export { INGEST_WAYS, type TIngestCounters, type TIngestWay } from './ingest-counters.js';
export type { TIngestBacklog } from '../../core/context.js';

/** Told of every committed batch slice: its rows (points and status words) and milliseconds from write start to commit. */
export type TBatchObserver = (rows: number, commitMs: number) => void;

/** Pipeline settings and collaborators. */
export interface TPipelineOptions {
  db: Db;
  log: Logger;
  directory: DeviceDirectory;
  batchMax: number;
  flushMs: number;
  /** How long publishes may wait with no batch committing before the backlog reports `stalled`, in ms. */
  stallMs: number;
  /** Publishes a live message (fire and forget; a lost live message is not a lost point). */
  publishLive: (topic: string, message: TLiveMessage) => void;
  /**
   * Whether anyone may receive a live message on `topic` (default: always). A device nobody watches gets no live
   * message built and published for each batch of it.
   */
  isLiveWatched?: (topic: string) => boolean;
  /** Rate limit per device, points per second and burst (default: the contracts limits). */
  ratePerS?: number;
  burst?: number;
  /** The batch writer (default writeIngestBatch). */
  writeBatch?: typeof writeIngestBatch;
}

/**
 * Batches written at once. Each batch is one statement (telemetry/write.ts) whose row locks (latest, rollups, device
 * rows: every batch touches the same devices) last until its commit is flushed, so concurrent batches queue on
 * each other's locks in PostgreSQL while the others parse, answer and wait for WAL; four kept 1-point ingest
 * 1.4–2× above two on a shared 2-core machine (docs/decisions/ingest.md "1-point ingest"), six measured no better.
 * On PostgreSQL the writers have a pool of their own of as many connections (Database.ingestDb), apart from the
 * API's and the rule engines'. writeIngestBatch sorts rows by key
 * so that concurrent batches lock in the same order.
 */
export const INGEST_WRITERS = INGEST_POOL_SIZE;
/** Batches' worth of points held at most: one per writer, one ready for the next free writer, one filling. */
export const INGEST_QUEUED_BATCHES = INGEST_WRITERS + 2;
/**
 * Publishes open (handed to ingest, not yet answered) at most before devices' sockets stop being read, in batches'
 * worth (INGEST_BATCH_MAX each, so 5,000 by default): enough 1-point messages to keep both writers busy (measured:
 * 31,000 points/s committed at 3× overload, as with 10,000), few enough that their objects stay within tens of MB
 * (read-gate.ts).
 */
export const INGEST_READ_BATCHES = 1;
/** Payload bytes open at most before devices' sockets stop being read (read-gate.ts). */
export const INGEST_READ_BYTES_MAX = 32 * 1024 * 1024;

/** Batches device publishes into PostgreSQL/PGlite. */
export class IngestPipeline {
  private filling = new PendingBatch();
  private readonly ready: PendingBatch[] = [];
  private readonly writing = new Set<Promise<void>>();
  /** Acknowledgements released in the order the writes started (ack-order.ts). */
  private readonly ackOrder = new AckOrder();
  /** When the filling batch is due (flush-clock.ts). */
  private readonly clock: FlushClock;
  private closing = false;
  /** Publishes awaiting their project's keys; drain waits for them. */
  private readonly arriving = new Set<Promise<void>>();
  /** Project keys by the directory's promise of them, once it resolved (a new promise after the directory's TTL). */
  private readonly loadedKeys = new WeakMap<Promise<TProjectKeys>, TProjectKeys>();
  private readonly gate: AdmissionGate;
  private readonly reading: ReadGate;
  private readonly buckets: DeviceBuckets;
  private readonly warn: ThrottledLog;
  private readonly lastSeen = new LastSeenWrites(); // a batch writes a device's row only when it is due
  private onCommitted: ((rows: TCommittedRows) => void) | null = null;
  private observeBatch: TBatchObserver | null = null;
  private open = 0;
  private busySince = 0;
  private lastCommitAt = 0;
  readonly counters: TIngestCounters = emptyIngestCounters();

  constructor(private readonly opts: TPipelineOptions) {
    this.warn = new ThrottledLog(opts.log);
    this.buckets = new DeviceBuckets(opts.ratePerS ?? DEVICE_RATE_POINTS_PER_S, opts.burst ?? DEVICE_RATE_BURST_POINTS);
    this.clock = new FlushClock(opts.flushMs, INGEST_WRITERS, () => this.schedule());
    this.gate = new AdmissionGate(opts.batchMax * INGEST_QUEUED_BATCHES);
    this.reading = new ReadGate(opts.batchMax * INGEST_READ_BATCHES, INGEST_READ_BYTES_MAX);
  }

  /**
   * Takes one publish of `device` on its telemetry or status topic, received at `svcRecvTs` by `way`. Resolves once the batch
   * holding it (or its refusal counter) has committed; rejects with IngestClosedError when shutdown gave up on it.
   * `report`, when given, is told as the publish is filed whether its points were accepted or refused, and why.
   * When its project's keys are known and admission has room (nearly always), the publish is parsed and filed at
   * once, and the one promise it costs is the one answered.
   */
  submit(
    device: TIngestDevice,
    kind: 'telemetry' | 'status',
    payload: Buffer,
    svcRecvTs = Date.now(),
    way: TIngestWay = 'mqtt',
    report?: TFiledReport,
  ): Promise<void> {
    if (this.closing) return Promise.reject(new IngestClosedError('ingest is closing'));
    this.counters.messagesByWay[way] += 1;
    if (this.open++ === 0) this.busySince = Date.now();
    this.reading.enter(payload.length);
    const loading = this.opts.directory.projectKeys(device.projectId);
    const keys = this.loadedKeys.get(loading);
    const turn = keys ? this.gate.enter() : undefined;
    if (keys && turn === null) return this.admit(device, kind, payload, keys, svcRecvTs, way, report);
    return this.submitWaiting(device, kind, payload, svcRecvTs, way, loading, turn ?? undefined, report);
  }

  /** {@link submit} of a publish that waits for its project's keys (`turn` undefined) or for its admission `turn`. */
  private async submitWaiting(
    device: TIngestDevice,
    kind: 'telemetry' | 'status',
    payload: Buffer,
    svcRecvTs: number,
    way: TIngestWay,
    loading: Promise<TProjectKeys>,
    turn: Promise<void> | undefined,
    report: TFiledReport | undefined,
  ): Promise<void> {
    let keys: TProjectKeys;
    try {
      if (turn) {
        keys = this.loadedKeys.get(loading) as TProjectKeys;
        await turn;
      } else {
        keys = await this.keysOf(loading);
        const next = this.gate.enter();
        if (next) await next;
      }
    } catch (err) {
      this.answered(payload.length);
      throw err;
    }
    return this.admit(device, kind, payload, keys, svcRecvTs, way, report);
  }

  /**
   * Files an admitted publish (the caller holds the admission gate, released here): answers the promise its
   * publisher waits on, which also ends its count as an open publish.
   */
  private admit(
    device: TIngestDevice,
    kind: 'telemetry' | 'status',
    payload: Buffer,
    keys: TProjectKeys,
    svcRecvTs: number,
    way: TIngestWay,
    report?: TFiledReport,
  ): Promise<void> {
    if (this.closing) {
      this.gate.added(0);
      this.answered(payload.length);
      return Promise.reject(new IngestClosedError('ingest is closing'));
    }
    const { waiter, done } = PublishWaiter.create(this, payload.length);
    let held = 0;
    try {
      held = this.take(device, kind, payload, keys, svcRecvTs, waiter, way, report);
    } catch (err) {
      // Unexpected (parsing refuses, it does not throw): the publisher is answered with it, never left open.
      waiter.reject(err instanceof Error ? err : new Error(String(err)));
    } finally {
      this.gate.added(held);
    }
    this.schedule();
    return done;
  }

  /**
   * A publish of `bytes` handed to ingest was answered (acknowledged or given up): it is no longer open and no longer
   * holds the read gate. Called once per publish, by its waiter.
   */
  answered(bytes: number): void {
    this.open -= 1;
    this.reading.leave(bytes);
  }

  /**
   * Sets the listener that receives every committed batch after its publishers were acknowledged (the rule engine).
   * It runs synchronously on the ingest path, so it must only queue work; an exception it throws is logged.
   */
  setCommitListener(listener: ((rows: TCommittedRows) => void) | null): void {
    this.onCommitted = listener;
  }

  /** Sets the observer told of every committed batch slice (metrics: batch size and commit latency). */
  setBatchObserver(observer: TBatchObserver | null): void {
    this.observeBatch = observer;
  }

  /** The backlog and whether ingest is stalled, at `nowMs`. */
  backlog(nowMs = Date.now()): TIngestBacklog {
    const stalledForMs = this.open === 0 ? 0 : nowMs - Math.max(this.lastCommitAt, this.busySince);
    return {
      queuedPoints: this.gate.heldPoints,
      waitingPublishes: this.gate.waiting,
      openPublishes: this.open,
      stalledForMs,
      stalled: stalledForMs >= this.opts.stallMs,
    };
  }

  /** Whether devices' connections may read their next chunk (read-gate.ts; asked by read-ahead.ts). */
  get readGate(): TReadGate {
    return this.reading;
  }

  /** Stops taking publishes (those waiting for admission stay unacknowledged) and writes what is held. */
  async drain(): Promise<void> {
    this.closing = true;
    this.clock.stop();
    this.gate.close(new IngestClosedError('ingest is closing'));
    while (this.arriving.size > 0 || this.writing.size > 0 || this.ready.length > 0 || !this.filling.isEmpty()) {
      if (this.arriving.size > 0) await Promise.all(this.arriving);
      else if (this.writing.size < INGEST_WRITERS && (this.ready.length > 0 || !this.filling.isEmpty())) this.schedule();
      else await Promise.race(this.writing);
    }
  }

  /** Waits for a project's keys (drain waits for such publishes) and remembers `loading` as loaded. */
  private async keysOf(loading: Promise<TProjectKeys>): Promise<TProjectKeys> {
    const arrival = loading.then(
      () => undefined,
      () => undefined,
    );
    this.arriving.add(arrival);
    try {
      const keys = await loading;
      this.loadedKeys.set(loading, keys);
      return keys;
    } finally {
      this.arriving.delete(arrival);
    }
  }

  /** Parses and files one admitted publish whose publisher waits on `waiter`; answers the points it holds. */
  private take(
    device: TIngestDevice,
    kind: 'telemetry' | 'status',
    payload: Buffer,
    keys: TProjectKeys,
    svcRecvTs: number,
    waiter: TWaiter,
    way: TIngestWay,
    report: TFiledReport | undefined,
    mayOffer = true,
  ): number {
    const batch = this.filling;
    const before = batch.size;
    const parsed = parseDevicePayload(kind, payload, keys, svcRecvTs);
    if (!parsed.ok && parsed.newKeys && keys.undeclared && mayOffer) {
      const offered = keys.undeclared.offer(this.opts.db, device.tenantId, parsed.newKeys, svcRecvTs);
      this.takeAfter(offered, () => this.take(device, kind, payload, keys, svcRecvTs, waiter, way, report, false), waiter);
      return 0;
    }
    this.counters.messages += 1;
    if (!parsed.ok) {
      this.reject(batch, device, parsed.reason, parsed.count, parsed.detail, waiter);
      report?.({ kind: 'refused', reason: parsed.reason, detail: parsed.detail });
    } else {
      const n = parsed.kind === 'telemetry' ? parsed.points.length : 1;
      const newestTs = parsed.kind === 'telemetry' ? newestTsOf(parsed.points) : parsed.status.ts;
      if (!this.buckets.of(device.id).take(n, newestTs, svcRecvTs)) {
        const rate = this.opts.ratePerS ?? DEVICE_RATE_POINTS_PER_S;
        const detail = `over ${rate} points/s by the device's clock`;
        this.reject(batch, device, 'rate_limited', n, detail, waiter);
        report?.({ kind: 'refused', reason: 'rate_limited', detail });
      } else {
        if (parsed.kind === 'telemetry') batch.addPoints(device, parsed.points, svcRecvTs, waiter);
        else batch.addStatus(device, parsed.status, svcRecvTs, waiter);
        this.counters.pointsByWay[way] += n;
        report?.({ kind: 'stored', points: n });
      }
    }
    if (batch.size >= this.opts.batchMax) {
      this.ready.push(batch);
      this.filling = new PendingBatch();
    }
    return batch.size - before;
  }

  /** Files a publish again once the undeclared keys it brought were offered (refile.ts); drain waits for it. */
  private takeAfter(offered: Promise<void>, retake: () => number, waiter: TWaiter): void {
    const arrival = refileAfter(offered, this.gate, retake, () => this.schedule(), waiter);
    this.arriving.add(arrival);
    void arrival.finally(() => this.arriving.delete(arrival));
  }

  private reject(batch: PendingBatch, device: TIngestDevice, reason: TRejectReason, count: number, detail: string, waiter: TWaiter): void {
    batch.addRejected(device.id, reason, count, waiter);
    this.countRefusal(device, reason, count, detail);
  }

  /** Counts and logs (at most one line per device and reason every 10 s) a refused message. */
  private countRefusal(device: TIngestDevice, reason: TRejectReason, count: number, detail: string): void {
    this.counters.rejected[reason] += count;
    this.warn.warn(`${device.id}:${reason}`, { tangramId: device.tangramId, reason, count, detail }, 'ingest refused a message');
  }

  /**
   * Starts writes while a writer is free: full batches first, then the filling one once it is due. How long the
   * filling batch gathers grows with the writes in flight (flush-clock.ts): with none, it is written once the event
   * loop's current turn has filed what it read; with every writer busy, it fills until one is free.
   */
  private schedule(): void {
    while (this.writing.size < INGEST_WRITERS) {
      let batch = this.ready.shift();
      if (!batch) {
        const openedAt = this.filling.openedAt;
        if (openedAt === null) return;
        if (!this.closing && !this.clock.due(openedAt, this.writing.size)) return;
        batch = this.filling;
        this.filling = new PendingBatch();
      }
      this.startWrite(batch);
    }
  }

  private startWrite(batch: PendingBatch): void {
    const turn = this.ackOrder.begin();
    const startedAt = performance.now();
    const writing: Promise<void> = commitBatch(batch, {
      write: (b) => (this.opts.writeBatch ?? writeIngestBatch)(this.opts.db, b, { lastSeen: this.lastSeen }),
      log: this.opts.log,
      isClosing: () => this.closing,
      onFailure: () => {
        this.counters.writeFailures += 1;
      },
      onCommitted: (messages, result, rows) => {
        this.observeBatch?.(rows.telemetry.length + rows.status.length, performance.now() - startedAt);
        this.committed(turn, messages, result, rows);
      },
      onRefused: (m, err) => this.countRefusal(m.device, 'unstorable', m.points, `the database refused it: ${String(err)}`),
    }).finally(() => {
      this.ackOrder.finished(turn);
      this.writing.delete(writing);
      this.gate.release(batch.size);
      this.schedule();
    });
    this.writing.add(writing);
  }

  private committed(turn: TAckTurn, messages: readonly TPendingMessage[], result: TBatchResult, rows: TSliceRows): void {
    this.lastCommitAt = Date.now();
    this.counters.batches += 1;
    this.counters.pointsAccepted += result.inserted;
    this.counters.duplicates += result.duplicates;
    this.ackOrder.committed(turn, messages);
    if (messages.length === 0) return;
    for (const { topic, message } of liveMessagesOf(messages, this.opts.isLiveWatched)) this.opts.publishLive(topic, message);
    if (!this.onCommitted) return;
    try {
      this.onCommitted(committedRowsOf(messages, rows));
    } catch (err) {
      this.opts.log.error({ err }, 'ingest commit listener failed');
    }
  }
}
