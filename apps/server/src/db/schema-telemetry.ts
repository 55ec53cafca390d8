/**
 * Telemetry: raw points, latest values, rollups, status words, rejected-point
 * counters.
 * Part of the one Drizzle schema (schema.ts re-exports every schema file); times are epoch ms in `bigint` columns.
 */
import type { TTelemetryValue } from '@tessera/contracts';
import { bigint, doublePrecision, integer, jsonb, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { epochMs } from './columns.js';

/**
 * The columns of a hot raw point (hot partitions and days waiting for compression alike), in the order that wastes
 * no alignment padding: the 8-byte columns, then `device_id` (4) and `key_id` (2) — a 56-byte tuple
 * (docs/decisions/telemetry-storage.md "The layout").
 */
function rawPointColumns() {
  return {
    ts: epochMs('ts').notNull(),
    svcRecvTs: epochMs('svc_recv_ts').notNull(),
    v1: doublePrecision('v1'),
    v2: doublePrecision('v2'),
    v3: doublePrecision('v3'),
    deviceId: integer('device_id').notNull(),
    /** {@link telemetryKeys}' id of the point's key. */
    keyId: integer('key_id').notNull(),
  };
}

/**
 * The telemetry keys raw hot rows name by an integer id instead of their text: one row per key ever stored, never
 * removed (hot rows refer to it; no foreign key, which would cost ingest a probe per point). The ingest writer adds a
 * key on first sight (telemetry/key-ids.ts). An integer rather than a smallint: a hot row and its index entry round up
 * to 8 bytes either way, and a platform's distinct keys are not bounded by 32,767.
 */
export const telemetryKeys = pgTable('telemetry_keys', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  key: text('key').notNull().unique(),
});

/**
 * Raw telemetry: one row per (device, key, device ts), the key as its {@link telemetryKeys} id. The primary key
 * absorbs a resent point (at-least-once). `svcRecvTs` is when the server received it. In the database this is the hot
 * part of raw telemetry, partitioned by range of `ts` — one partition per UTC day (`telemetry_YYYYMMDD`) plus
 * `telemetry_default` for a point whose day has none — which drizzle does not model: the migrations create the
 * partitions and modules/telemetry-store manages them. Cold days live in {@link telemetryChunk}; read raw points
 * through `telemetry_points()` (docs/decisions/telemetry-storage.md). Rows stored before key ids (migration 0032) wait
 * in `telemetry_text_keys` and `telemetry_text_keys_pending` (the earlier layout, key as text) until compressed.
 */
export const telemetry = pgTable('telemetry', rawPointColumns(), (t) => [primaryKey({ columns: [t.deviceId, t.keyId, t.ts] })]);

/**
 * Days of raw telemetry gone cold and waiting for compression: the hot partitions of those days, detached from
 * `telemetry` and attached here (partitioned by range of `ts` like it, in the migration), until modules/telemetry-store
 * has merged them into {@link telemetryChunk} and dropped them. Same columns as {@link telemetry}.
 */
export const telemetryColdPending = pgTable('telemetry_cold_pending', rawPointColumns(), (t) => [
  primaryKey({ name: 'telemetry_cold_pending_pk', columns: [t.deviceId, t.keyId, t.ts] }),
]);

/**
 * Cold raw telemetry: one row per (device, key, UTC day) holding that day's points as arrays in ts order, each array
 * a TOAST-compressed column (lz4 where the server has it, else pglz). `ts` of point i (1-based) is
 * `tsFirst + round((i − 1) × tsStep) + tsSteps[i]` — the residual from a straight line through the day's first and
 * last point, small for a periodic sensor; `svc_recv_ts` is `ts + recvLags[i]` (int4 ms), or `ts + recvLagsWide[i]`
 * when some lag of the day does not fit int4 (a backlog older than 24.8 days); v1..v3 as they are, null when the
 * key carried no such value that day. Written only by modules/telemetry-store; docs/decisions/telemetry-storage.md.
 */
export const telemetryChunk = pgTable(
  'telemetry_chunk',
  {
    deviceId: integer('device_id').notNull(),
    key: text('key').notNull(),
    /** Midnight UTC of the chunk's day, epoch ms. */
    dayStart: epochMs('day_start').notNull(),
    /** Points in the chunk (the length of every array). */
    n: integer('n').notNull(),
    tsFirst: epochMs('ts_first').notNull(),
    /** ms between points on the straight line from the first to the last point. */
    tsStep: doublePrecision('ts_step').notNull(),
    tsSteps: integer('ts_steps').array().notNull(),
    recvLags: integer('recv_lags').array(),
    recvLagsWide: bigint('recv_lags_wide', { mode: 'number' }).array(),
    v1: doublePrecision('v1').array(),
    v2: doublePrecision('v2').array(),
    v3: doublePrecision('v3').array(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.key, t.dayStart] })],
);

/**
 * Raw points of keys whose values are not numbers (a string, a boolean, a JSON object or array; the key's
 * `project_sensors.value_type`, docs/decisions/telemetry.md "Values that are not numbers"): one row per (device, key,
 * device ts), the primary key absorbing a resent point as {@link telemetry}'s does. Not partitioned and never
 * compressed: the numeric path's storage stays as it is; retention and deletion (modules/telemetry-store) cover it.
 */
export const telemetryValues = pgTable(
  'telemetry_values',
  {
    deviceId: integer('device_id').notNull(),
    key: text('key').notNull(),
    ts: epochMs('ts').notNull(),
    svcRecvTs: epochMs('svc_recv_ts').notNull(),
    value: jsonb('value').$type<TTelemetryValue>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.key, t.ts] })],
);

/** The latest point per device and key: v1..v3 for a numeric key, `value` for any other (v1..v3 null then). */
export const telemetryLatest = pgTable(
  'telemetry_latest',
  {
    deviceId: integer('device_id').notNull(),
    key: text('key').notNull(),
    ts: epochMs('ts').notNull(),
    svcRecvTs: epochMs('svc_recv_ts').notNull(),
    v1: doublePrecision('v1'),
    v2: doublePrecision('v2'),
    v3: doublePrecision('v3'),
    value: jsonb('value').$type<TTelemetryValue>(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.key] })],
);

/**
 * Rollups of telemetry per bucket (1 min and 1 h): count, min/max/sum of v1..v3, and first/last v1 by ts
 * (for `diff`). Maintained by ingest in the same transaction as the raw rows; a resent point is not counted
 * twice because only newly inserted raw rows feed it. Sums are `numeric`: a float8 sum of finite doubles can
 * overflow (db/exact-sum.ts), a numeric one cannot.
 */
export const telemetryRollup = pgTable(
  'telemetry_rollup',
  {
    deviceId: integer('device_id').notNull(),
    key: text('key').notNull(),
    bucketMs: integer('bucket_ms').notNull(),
    bucketTs: epochMs('bucket_ts').notNull(),
    count: integer('count').notNull(),
    v1Min: doublePrecision('v1_min'),
    v1Max: doublePrecision('v1_max'),
    v1Sum: numeric('v1_sum', { mode: 'number' }),
    v2Min: doublePrecision('v2_min'),
    v2Max: doublePrecision('v2_max'),
    v2Sum: numeric('v2_sum', { mode: 'number' }),
    v3Min: doublePrecision('v3_min'),
    v3Max: doublePrecision('v3_max'),
    v3Sum: numeric('v3_sum', { mode: 'number' }),
    firstTs: epochMs('first_ts').notNull(),
    firstV1: doublePrecision('first_v1'),
    lastTs: epochMs('last_ts').notNull(),
    lastV1: doublePrecision('last_v1'),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.key, t.bucketMs, t.bucketTs] })],
);

/** Status words as received (40-bit value in a bigint). */
export const deviceStatus = pgTable(
  'device_status',
  {
    deviceId: integer('device_id').notNull(),
    ts: epochMs('ts').notNull(),
    svcRecvTs: epochMs('svc_recv_ts').notNull(),
    value: bigint('value', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.ts] })],
);

/** Points rejected by ingest per device and reason (INGEST_REJECT_REASONS of the contracts). */
export const deviceIngestStats = pgTable(
  'device_ingest_stats',
  {
    deviceId: integer('device_id').notNull(),
    reason: text('reason').notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
    lastAt: epochMs('last_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.reason] })],
);
