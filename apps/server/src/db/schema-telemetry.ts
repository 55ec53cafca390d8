/**
 * Telemetry: raw points, latest values, rollups, status words, rejected-point
 * counters.
 * Part of the one Drizzle schema (schema.ts re-exports every schema file); times are epoch ms in `bigint` columns.
 */
import { bigint, doublePrecision, integer, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { epochMs } from './columns.js';

/**
 * Raw telemetry: one row per (device, key, device ts). The primary key absorbs a resent point (at-least-once).
 * `svcRecvTs` is when the server received it.
 */
export const telemetry = pgTable(
  'telemetry',
  {
    deviceId: integer('device_id').notNull(),
    key: text('key').notNull(),
    ts: epochMs('ts').notNull(),
    svcRecvTs: epochMs('svc_recv_ts').notNull(),
    v1: doublePrecision('v1'),
    v2: doublePrecision('v2'),
    v3: doublePrecision('v3'),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.key, t.ts] })],
);

/** The latest point per device and key. */
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
