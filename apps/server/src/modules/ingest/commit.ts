/**
 * Commits one ingest batch (docs/decisions/ingest.md "Poison data"). A write that fails for a transient reason is
 * retried with backoff (100 ms → 5 s), nothing acknowledged meanwhile. A write that fails because of its data
 * (write-failure.ts) is split in halves, and halves again, until each message the database refuses stands alone:
 * those are refused as `unstorable` (acknowledged, counted, logged), everything else commits. A message is
 * accepted or refused whole, as at parse time. Each slice that commits is acknowledged and published at once.
 */
import type { Logger } from 'pino';
import type { TBatchResult, TIngestBatch, TRejectedIn } from '../telemetry/rows.js';
import { addCount, type PendingBatch, rowsOf, type TPendingMessage, type TSliceRows, toWrite } from './batch.js';
import { classifyWriteFailure, sqlStateOf } from './write-failure.js';

const BACKOFF_START_MS = 100;
const BACKOFF_MAX_MS = 5_000;
/** Write attempts while closing before the rest of the batch is given up (unacknowledged, so not lost). */
const CLOSE_ATTEMPTS = 5;

/** Thrown to a publisher whose message could not be stored before shutdown (it was not acknowledged). */
export class IngestClosedError extends Error {}

/** What committing needs from the pipeline. */
export interface TCommitDeps {
  write: (batch: TIngestBatch) => Promise<TBatchResult>;
  log: Logger;
  /** True once shutdown began: transient failures are then retried CLOSE_ATTEMPTS times only. */
  isClosing: () => boolean;
  /** A write failed and will be retried (or split). */
  onFailure: () => void;
  /** `messages` (possibly none: counters only; `rows` theirs) committed with `result`; acknowledge and publish them. */
  onCommitted: (messages: readonly TPendingMessage[], result: TBatchResult, rows: TSliceRows) => void;
  /**
   * The database refused `message` on its own (`err` says why): it is counted `unstorable` in the database and
   * acknowledged after that count is written; the pipeline counts and logs it.
   */
  onRefused: (message: TPendingMessage, err: unknown) => void;
}

type TOutcome = { kind: 'committed'; result: TBatchResult } | { kind: 'data'; err: unknown } | { kind: 'closed' };

/** Writes `batch` (see the file comment). Never throws: unwritten publishers are rejected with IngestClosedError. */
export async function commitBatch(batch: PendingBatch, deps: TCommitDeps): Promise<void> {
  let counters: TRejectedIn[] = [...batch.rejected.values()];
  // Counters written after the split, on their own: the refused messages' and any not yet committed.
  const later = new Map<string, TRejectedIn>();
  // Publishers acknowledged once the counters are written: refused before the batch, or by the database.
  const refusedWaiters = [...batch.refusedWaiters];
  // Slices still to write, the next one last (so they commit in arrival order).
  const todo: TPendingMessage[][] = [batch.messages];
  while (todo.length > 0) {
    const slice = todo.pop() as TPendingMessage[];
    const rows = rowsOf(slice);
    const outcome = await writeRetrying(deps, slice, rows, counters);
    if (outcome.kind === 'committed') {
      counters = [];
      deps.onCommitted(slice, outcome.result, rows);
    } else if (outcome.kind === 'closed') {
      for (const m of [slice, ...todo].flat()) m.waiter.reject(new IngestClosedError('batch not stored before shutdown'));
      for (const w of refusedWaiters) w.resolve();
      return;
    } else if (slice.length <= 1) {
      for (const m of slice) {
        addCount(later, m.device.id, 'unstorable', m.points);
        refusedWaiters.push(m.waiter);
        deps.onRefused(m, outcome.err);
      }
    } else {
      // Detached, so that counters the database refuses cannot take every message down with them.
      for (const c of counters) addCount(later, c.deviceId, c.reason, c.count);
      counters = [];
      const half = Math.ceil(slice.length / 2);
      todo.push(slice.slice(half), slice.slice(0, half));
    }
  }
  for (const c of counters) addCount(later, c.deviceId, c.reason, c.count);
  if (later.size > 0) {
    const none = rowsOf([]);
    const outcome = await writeRetrying(deps, [], none, [...later.values()]);
    if (outcome.kind === 'committed') deps.onCommitted([], outcome.result, none);
    else deps.log.error({ err: outcome.kind === 'data' ? outcome.err : undefined }, 'ingest refusal counters not stored');
  }
  for (const w of refusedWaiters) w.resolve();
}

async function writeRetrying(
  deps: TCommitDeps,
  messages: readonly TPendingMessage[],
  rows: TSliceRows,
  rejected: readonly TRejectedIn[],
): Promise<TOutcome> {
  for (let attempt = 1, backoff = BACKOFF_START_MS; ; attempt += 1, backoff = Math.min(backoff * 2, BACKOFF_MAX_MS)) {
    try {
      return { kind: 'committed', result: await deps.write(toWrite(rows, rejected)) };
    } catch (err) {
      deps.onFailure();
      const points = messages.reduce((n, m) => n + m.points, 0);
      if (classifyWriteFailure(err) === 'data') {
        deps.log.warn(
          { err, sqlState: sqlStateOf(err), messages: messages.length, points },
          'ingest batch refused by the database; splitting it',
        );
        return { kind: 'data', err };
      }
      deps.log.error({ err, attempt, points }, 'ingest batch write failed; retrying, nothing acknowledged');
      if (deps.isClosing() && attempt >= CLOSE_ATTEMPTS) return { kind: 'closed' };
      await new Promise((r) => setTimeout(r, backoff));
    }
  }
}
