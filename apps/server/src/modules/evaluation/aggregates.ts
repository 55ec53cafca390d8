/**
 * Aggregates over a window (docs/decisions/rules.md "aggregate"): fn of a key's slot over the device's raw points
 * (`telemetry`) whose ts lies in (t − window, t], t being the evaluation time. `count` counts points (0 when none);
 * avg/min/max of no point are unknown (NaN).
 */
import { and, count, eq, gt, lte, max, min, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { exactSum } from '../../db/exact-sum.js';
import { telemetry } from '../../db/schema.js';
import type { TAggregateRef } from './symbols.js';

function slotColumn(slot: number) {
  if (slot === 1) return telemetry.v2;
  if (slot === 2) return telemetry.v3;
  return telemetry.v1;
}

/** One aggregate of `deviceId` at evaluation time `t`. */
export async function readAggregate(db: Db, deviceId: number, ref: TAggregateRef, t: number): Promise<number> {
  const column = slotColumn(ref.slot);
  const where = and(eq(telemetry.deviceId, deviceId), eq(telemetry.key, ref.key), gt(telemetry.ts, t - ref.windowMs), lte(telemetry.ts, t));
  if (ref.fn === 'count') {
    const [row] = await db.select({ n: count() }).from(telemetry).where(where);
    return Number(row?.n ?? 0);
  }
  // avg in numeric: float8 avg raises "value out of range" on huge values (db/exact-sum.ts)
  const fn =
    ref.fn === 'avg' ? sql`${exactSum(sql`${column}`)} / nullif(count(${column}), 0)` : ref.fn === 'min' ? min(column) : max(column);
  const [row] = await db.select({ v: fn }).from(telemetry).where(where);
  return row?.v === null || row?.v === undefined ? Number.NaN : Number(row.v);
}

/** Every aggregate of a program, in its order. */
export function readAggregates(db: Db, deviceId: number, refs: readonly TAggregateRef[], t: number): Promise<number[]> {
  return Promise.all(refs.map((ref) => readAggregate(db, deviceId, ref, t)));
}
