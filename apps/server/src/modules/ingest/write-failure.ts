/**
 * Why an ingest batch write failed, which decides what the pipeline does (docs/decisions/ingest.md "Poison data"):
 * a failure caused by the batch's data will fail again however often it is retried, so the batch is split until the
 * messages the database refuses are isolated; any other failure (connection lost, administrator shutdown, out of
 * resources, serialization failure or deadlock, a timeout, or an error without a SQLSTATE) is retried with backoff
 * and nothing is acknowledged meanwhile — and so is a row that met a partition attached while it was being routed.
 */

/** `data`: split the batch and refuse what the database will not store; `transient`: retry the same batch. */
export type TWriteFailureKind = 'data' | 'transient';

/**
 * SQLSTATE classes (PostgreSQL Appendix A) that a retry cannot fix because the data is the cause: 21 cardinality
 * violation, 22 data exception (e.g. 22003 numeric value out of range), 23 integrity constraint violation, 27
 * triggered data change violation. Class 08 (connection), 40 (rollback: 40001, 40P01), 53 (resources), 57
 * (operator intervention: 57014 statement timeout, 57P01 admin shutdown) and everything else are transient.
 */
const DATA_CLASSES: ReadonlySet<string> = new Set(['21', '22', '23', '27']);
const SQLSTATE = /^[0-9A-Z]{5}$/;
/** How deep wrapped errors are searched (Drizzle wraps the driver's error in `cause`). */
const CAUSE_DEPTH = 5;

/** The SQLSTATE of `err` or of an error in its `cause` chain, or null when none carries one. */
export function sqlStateOf(err: unknown): string | null {
  let e: unknown = err;
  for (let depth = 0; depth < CAUSE_DEPTH && typeof e === 'object' && e !== null; depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && SQLSTATE.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * Whether `err` (or an error in its `cause` chain) is PostgreSQL's "new row for relation … violates partition
 * constraint" (23514, raised by ExecPartitionCheckEmitError): a row routed to `telemetry_default` while the storage job
 * attached its day's partition (docs/decisions/telemetry-storage.md "Partitions"). Routed again, it goes to the new
 * partition, so it is retried, not refused.
 */
function isPartitionRerouting(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < CAUSE_DEPTH && typeof e === 'object' && e !== null; depth += 1) {
    const { routine, message } = e as { routine?: unknown; message?: unknown };
    if (routine === 'ExecPartitionCheckEmitError') return true;
    if (typeof message === 'string' && message.includes('violates partition constraint')) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Classifies a failed batch write (see {@link TWriteFailureKind}). */
export function classifyWriteFailure(err: unknown): TWriteFailureKind {
  const state = sqlStateOf(err);
  if (state === null || !DATA_CLASSES.has(state.slice(0, 2))) return 'transient';
  return isPartitionRerouting(err) ? 'transient' : 'data';
}
