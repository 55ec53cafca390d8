/**
 * Latest values (spec §7 `latest`, `latestN`, `telemetries/metadata`): the newest point per key from
 * telemetry_latest, the newest n raw rows of one key, and the device project's sensors.
 */
import { asc, desc, eq, and, sql } from 'drizzle-orm';
import { DAY_MS, type TLatestNQuery, type TLatestValue, type TTelemetryMetadata, type TTelemetryRow } from '@tessera/contracts';
import { rowsOf, type Db } from '../../db/client.js';
import type { TPrincipal } from '../../core/principal.js';
import { projectSensors, telemetry, telemetryKeys, telemetryLatest } from '../../db/schema.js';
import { deviceFor } from '../devices/access.js';
import { rawPoints } from '../telemetry-store/raw-points.js';
import { presentLatest, presentRow } from './presenters.js';

/**
 * Latest value of every key of a visible device, by key.
 * @throws AppError 404 for an invisible device, 403 DEVICE_PERMISSION_DENIED without view_telemetry.
 */
export async function getLatest(db: Db, principal: TPrincipal, tangramId: string): Promise<TLatestValue[]> {
  const device = await deviceFor(db, principal, tangramId, 'view_telemetry');
  const rows = await db.select().from(telemetryLatest).where(eq(telemetryLatest.deviceId, device.id)).orderBy(asc(telemetryLatest.key));
  return rows.map(presentLatest);
}

/**
 * The newest `n` raw rows of one key, newest first.
 * @throws AppError 404 for an invisible device, 403 DEVICE_PERMISSION_DENIED without view_telemetry.
 */
export async function getLatestN(db: Db, principal: TPrincipal, q: TLatestNQuery): Promise<TTelemetryRow[]> {
  const device = await deviceFor(db, principal, q.tangramId, 'view_telemetry');
  const rows = await db
    .select({ ts: telemetry.ts, svcRecvTs: telemetry.svcRecvTs, v1: telemetry.v1, v2: telemetry.v2, v3: telemetry.v3 })
    .from(telemetry)
    .innerJoin(telemetryKeys, eq(telemetryKeys.id, telemetry.keyId))
    .where(and(eq(telemetry.deviceId, device.id), eq(telemetryKeys.key, q.key)))
    .orderBy(desc(telemetry.ts))
    .limit(q.n);
  if (rows.length === q.n) return rows.map((r) => presentRow({ ...r, key: q.key }));
  // Fewer hot rows than asked: the older points (or all of them) may be merged into compressed chunks by now
  // (docs/decisions/telemetry-storage.md), so read the points as the store holds them, hot and merged alike — over
  // the days before the key's newest point first, widening until n are found, so that a device with years of chunks
  // is not read whole. The newest point is the newest hot row, else the key's latest value (a device silent for
  // months is not looked for in empty weeks); with neither, every stored point is read once.
  const newestTs = rows[0]?.ts ?? (await latestTsOf(db, device.id, q.key));
  if (newestTs !== null) {
    for (const days of LATEST_N_LOOKBACK_DAYS) {
      const newest = await newestStoredRows(db, device.id, q.key, newestTs - days * DAY_MS, q.n);
      if (newest.length === q.n) return newest;
    }
  }
  return newestStoredRows(db, device.id, q.key, -Number.MAX_SAFE_INTEGER, q.n);
}

/** The ts (epoch ms) of `deviceId`'s latest value of `key` (telemetry_latest), or null when it has none. */
async function latestTsOf(db: Db, deviceId: number, key: string): Promise<number | null> {
  const [row] = await db
    .select({ ts: telemetryLatest.ts })
    .from(telemetryLatest)
    .where(and(eq(telemetryLatest.deviceId, deviceId), eq(telemetryLatest.key, key)));
  return row?.ts ?? null;
}

/**
 * How far back (days before the key's newest point) {@link getLatestN} looks in turn for the newest n stored points,
 * before it reads all of them: every point after the bound is in the range, so n found are the newest n.
 */
export const LATEST_N_LOOKBACK_DAYS = [7, 90, 730] as const;

/** The newest `n` stored points (hot and compressed) of `deviceId`'s `key` with ts ≥ `fromTs` (epoch ms), newest first. */
async function newestStoredRows(db: Db, deviceId: number, key: string, fromTs: number, n: number): Promise<TTelemetryRow[]> {
  const stored = rowsOf<{ ts: number; svc_recv_ts: number; v1: number | null; v2: number | null; v3: number | null }>(
    await db.execute(sql`select ts, svc_recv_ts, v1, v2, v3 from ${rawPoints(deviceId, key, fromTs, Number.MAX_SAFE_INTEGER)} as p
      order by ts desc limit ${n}`),
  );
  return stored.map((r) => presentRow({ key, ts: r.ts, svcRecvTs: r.svc_recv_ts, v1: r.v1, v2: r.v2, v3: r.v3 }));
}

/**
 * The sensors (telemetry keys) of the device's project, in configuration order.
 * @throws AppError 404 for an invisible device.
 */
export async function getMetadata(db: Db, principal: TPrincipal, tangramId: string): Promise<TTelemetryMetadata> {
  const device = await deviceFor(db, principal, tangramId);
  const rows = await db.select().from(projectSensors).where(eq(projectSensors.projectId, device.projectId)).orderBy(asc(projectSensors.id));
  return rows.map((s) => ({
    key: s.key,
    name: s.name,
    unit: s.unit,
    value_count: s.valueCount,
    enabled: s.enabled,
    value_type: s.valueType,
  }));
}
