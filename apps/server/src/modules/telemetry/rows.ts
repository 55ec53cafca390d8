/**
 * The rows an ingest batch stores (write.ts writes them; ingest builds them): telemetry points, status words, refusal
 * counters. Shared types only, so that the writer and its statements, and ingest, depend on this file and not on
 * each other.
 */
import type { TIngestRejectReason, TTelemetryValue } from '@tessera/contracts';

/**
 * One telemetry point to store. Times epoch ms; values null where absent. A point of a key whose values are not
 * numbers has `value` (and v1..v3 null): it is stored in telemetry_values (write-values.ts), the others in telemetry.
 */
export interface TTelemetryRowIn {
  deviceId: number;
  key: string;
  ts: number;
  svcRecvTs: number;
  v1: number | null;
  v2: number | null;
  v3: number | null;
  value?: TTelemetryValue;
}
/** One status word to store. */
export interface TStatusRowIn {
  deviceId: number;
  ts: number;
  svcRecvTs: number;
  value: number;
}
/** Points ingest refused, to count per device and reason. */
export interface TRejectedIn {
  deviceId: number;
  reason: TIngestRejectReason;
  count: number;
}
/** One batch. */
export interface TIngestBatch {
  telemetry: TTelemetryRowIn[];
  status: TStatusRowIn[];
  rejected: TRejectedIn[];
}
/** What the batch did: how many raw rows were new (the rest were resends absorbed by the primary key). */
export interface TBatchResult {
  inserted: number;
  duplicates: number;
}
