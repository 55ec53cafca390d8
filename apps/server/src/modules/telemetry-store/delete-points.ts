/**
 * Deleting every raw point of a device wherever it lives — hot partitions, days waiting for compression (and the
 * earlier layout's tables of both, migration 0032), chunks, and the points of its non-numeric keys (telemetry_values) —
 * for the device's clean-data (spec §7 devices "POST clean-data").
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';

/**
 * Deletes the raw points of `deviceId` inside the caller's transaction `tx`.
 * @returns the number of points deleted (a chunk counts its points).
 */
export async function deleteRawPoints(tx: Pick<Db, 'execute'>, deviceId: number): Promise<number> {
  const res = await tx.execute(sql`with hot as (delete from telemetry where device_id = ${deviceId} returning 1),
    pending as (delete from telemetry_cold_pending where device_id = ${deviceId} returning 1),
    text_hot as (delete from telemetry_text_keys where device_id = ${deviceId} returning 1),
    text_pending as (delete from telemetry_text_keys_pending where device_id = ${deviceId} returning 1),
    chunks as (delete from telemetry_chunk where device_id = ${deviceId} returning n),
    valued as (delete from telemetry_values where device_id = ${deviceId} returning 1)
    select ((select count(*) from hot) + (select count(*) from pending) + (select count(*) from text_hot)
      + (select count(*) from text_pending) + (select coalesce(sum(n), 0) from chunks)
      + (select count(*) from valued))::int as n`);
  return rowsOf<{ n: number }>(res)[0].n;
}
