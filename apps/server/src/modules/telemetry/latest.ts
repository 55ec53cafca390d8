/**
 * Latest values (spec §7 `latest`, `latestN`, `telemetries/metadata`): the newest point per key from
 * telemetry_latest, the newest n raw rows of one key, and the device project's sensors.
 */
import { asc, desc, eq, and } from 'drizzle-orm';
import type { TLatestNQuery, TLatestValue, TTelemetryMetadata, TTelemetryRow } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import type { TPrincipal } from '../../core/principal.js';
import { projectSensors, telemetry, telemetryLatest } from '../../db/schema.js';
import { visibleDeviceOr404 } from './device.js';
import { presentLatest, presentRow } from './presenters.js';

/**
 * Latest value of every key of a visible device, by key.
 * @throws AppError 404 for an invisible device.
 */
export async function getLatest(db: Db, principal: TPrincipal, tangramId: string): Promise<TLatestValue[]> {
  const device = await visibleDeviceOr404(db, principal, tangramId);
  const rows = await db.select().from(telemetryLatest).where(eq(telemetryLatest.deviceId, device.id)).orderBy(asc(telemetryLatest.key));
  return rows.map(presentLatest);
}

/**
 * The newest `n` raw rows of one key, newest first.
 * @throws AppError 404 for an invisible device.
 */
export async function getLatestN(db: Db, principal: TPrincipal, q: TLatestNQuery): Promise<TTelemetryRow[]> {
  const device = await visibleDeviceOr404(db, principal, q.tangramId);
  const rows = await db
    .select()
    .from(telemetry)
    .where(and(eq(telemetry.deviceId, device.id), eq(telemetry.key, q.key)))
    .orderBy(desc(telemetry.ts))
    .limit(q.n);
  return rows.map(presentRow);
}

/**
 * The sensors (telemetry keys) of the device's project, in configuration order.
 * @throws AppError 404 for an invisible device.
 */
export async function getMetadata(db: Db, principal: TPrincipal, tangramId: string): Promise<TTelemetryMetadata> {
  const device = await visibleDeviceOr404(db, principal, tangramId);
  const rows = await db.select().from(projectSensors).where(eq(projectSensors.projectId, device.projectId)).orderBy(asc(projectSensors.id));
  return rows.map((s) => ({ key: s.key, name: s.name, unit: s.unit, value_count: s.valueCount, enabled: s.enabled }));
}
