/**
 * Sensor display settings (spec §7 `sensorDisplay` add/get/put/delete; fields decided in docs/decisions/sensors.md):
 * one row per sensor, keyed by the sensor id.
 */
import { eq } from 'drizzle-orm';
import type { TSensorDisplay, TSensorDisplayInput } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { conflict, notFound } from '../../core/errors.js';
import { sensorDisplay } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/sql-helpers.js';
import { ownedSensor } from './ownership.js';
import { presentDisplay } from './presenters.js';

const columns = (d: TSensorDisplayInput) => ({ decimals: d.decimals, gaugeMin: d.gauge_min, gaugeMax: d.gauge_max, color: d.color });

/** Adds display settings to the tenant's sensor. @throws AppError 404 (sensor), 409 when it has some already. */
export async function addDisplay(db: Db, tenantId: number, sensorId: number, d: TSensorDisplayInput): Promise<TSensorDisplay> {
  await ownedSensor(db, tenantId, sensorId);
  try {
    const [row] = await db
      .insert(sensorDisplay)
      .values({ sensorId, ...columns(d) })
      .returning();
    return presentDisplay(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('this sensor already has display settings');
    throw err;
  }
}

/** The display settings of the tenant's sensor. @throws AppError 404 when the sensor or its settings are missing. */
export async function getDisplay(db: Db, tenantId: number, sensorId: number): Promise<TSensorDisplay> {
  await ownedSensor(db, tenantId, sensorId);
  const [row] = await db.select().from(sensorDisplay).where(eq(sensorDisplay.sensorId, sensorId));
  if (!row) throw notFound('sensor display');
  return presentDisplay(row);
}

/** Replaces the display settings of the tenant's sensor. @throws AppError 404 when the sensor or settings are missing. */
export async function putDisplay(db: Db, tenantId: number, sensorId: number, d: TSensorDisplayInput): Promise<TSensorDisplay> {
  await ownedSensor(db, tenantId, sensorId);
  const [row] = await db.update(sensorDisplay).set(columns(d)).where(eq(sensorDisplay.sensorId, sensorId)).returning();
  if (!row) throw notFound('sensor display');
  return presentDisplay(row);
}

/** Deletes the display settings of the tenant's sensor. @throws AppError 404 when the sensor or settings are missing. */
export async function deleteDisplay(db: Db, tenantId: number, sensorId: number): Promise<void> {
  await ownedSensor(db, tenantId, sensorId);
  const rows = await db.delete(sensorDisplay).where(eq(sensorDisplay.sensorId, sensorId)).returning();
  if (rows.length === 0) throw notFound('sensor display');
}
