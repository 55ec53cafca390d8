/**
 * Aggregates over a window (docs/decisions/rules.md "aggregate"): fn of a key's slot over the device's raw points
 * (hot or compressed alike: telemetry-store/raw-points.ts) whose ts lies in (t − window, t], t being the evaluation
 * time. `count` counts points (0 when none); avg/min/max of no point are unknown (NaN).
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';
import { exactSum } from '../../db/exact-sum.js';
import { orderedRawPoints } from '../telemetry-store/raw-points.js';
import type { TAggregateRef } from './symbols.js';

const SLOT_COLUMNS = [sql`v1`, sql`v2`, sql`v3`];

/** One aggregate of `deviceId` at evaluation time `t`. */
export async function readAggregate(db: Db, deviceId: number, ref: TAggregateRef, t: number): Promise<number> {
  const column = SLOT_COLUMNS[ref.slot] ?? SLOT_COLUMNS[0];
  // avg in numeric: float8 avg raises "value out of range" on huge values (db/exact-sum.ts); the points come in ts
  // order, so the float8 part of the sum adds them in the same order from hot and compressed days
  const fn =
    ref.fn === 'count'
      ? sql`count(*)`
      : ref.fn === 'avg'
        ? sql`${exactSum(column)} / nullif(count(${column}), 0)`
        : ref.fn === 'min'
          ? sql`min(${column})`
          : sql`max(${column})`;
  const [row] = rowsOf<{ v: unknown }>(
    await db.execute(sql`select ${fn} as v from ${orderedRawPoints(deviceId, ref.key, t - ref.windowMs + 1, t)} as p`),
  );
  if (ref.fn === 'count') return Number(row?.v ?? 0);
  return row?.v === null || row?.v === undefined ? Number.NaN : Number(row.v);
}

/** Every aggregate of a program, in its order. */
export function readAggregates(db: Db, deviceId: number, refs: readonly TAggregateRef[], t: number): Promise<number[]> {
  return Promise.all(refs.map((ref) => readAggregate(db, deviceId, ref, t)));
}
