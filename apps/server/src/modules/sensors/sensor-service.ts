/**
 * Project sensors (spec §7 sensors: GET/POST {id}/profile/sensors and their v2, GET/PUT/DELETE
 * projects/profile/sensors/{id}). Every write runs in one transaction and applies the telemetry-enable limit.
 */
import { and, asc, count, eq, inArray, notInArray } from 'drizzle-orm';
import {
  ErrorCode,
  TELEMETRY_VALUE_SLOTS,
  type TListQuery,
  type TSensorInput,
  type TSensorList,
  type TSensorSaveResult,
  type TSensorUpdate,
  telemetrySlotsUsed,
} from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { conflict, notFound } from '../../core/errors.js';
import { projectSensors } from '../../db/schema.js';
import { pageOf } from '../../db/paging.js';
import { searchAny } from '../../db/sql-helpers.js';
import { ownedProject } from './ownership.js';
import { presentSensor, type TSensorRow } from './presenters.js';
import { applyTelemetryLimit } from './telemetry-limit.js';

const byId = asc(projectSensors.id);

/** A page of project `projectId`'s sensors (oldest first), with the telemetry limit and the slots in use. */
export async function listSensors(db: Db, tenantId: number, projectId: number, query: TListQuery): Promise<TSensorList> {
  await ownedProject(db, tenantId, projectId);
  const where = and(eq(projectSensors.projectId, projectId), searchAny(query.q, [projectSensors.key, projectSensors.name]));
  const page = await pageOf(
    query,
    db.select({ total: count() }).from(projectSensors).where(where),
    (limit, offset) => db.select().from(projectSensors).where(where).orderBy(byId).limit(limit).offset(offset),
    presentSensor,
  );
  const all = await db.select().from(projectSensors).where(eq(projectSensors.projectId, projectId));
  return {
    ...page,
    telemetry_limit: TELEMETRY_VALUE_SLOTS,
    telemetry_used: telemetrySlotsUsed(all.map(presentSensor)),
  };
}

/**
 * Adds `inputs` to project `projectId`, all or nothing; those past the telemetry limit are saved disabled.
 * @throws AppError 404 (project), 409 when a key exists in the project or repeats in `inputs`.
 */
export async function createSensors(db: Db, tenantId: number, projectId: number, inputs: TSensorInput[]): Promise<TSensorSaveResult> {
  await ownedProject(db, tenantId, projectId);
  return db.transaction(async (tx) => {
    const existing = await tx.select().from(projectSensors).where(eq(projectSensors.projectId, projectId));
    assertUniqueKeys([...existing.map((s) => s.key), ...inputs.map((s) => s.key)]);
    const { sensors, disabledExcess } = applyTelemetryLimit(existing, inputs.map(fromInput));
    const rows = await tx
      .insert(projectSensors)
      .values(sensors.map((s) => ({ ...s, projectId })))
      .returning();
    return { data: rows.map(presentSensor), disabled_excess: disabledExcess, telemetry_limit: TELEMETRY_VALUE_SLOTS };
  });
}

/**
 * Updates sensors of project `projectId` by id, all or nothing; those enabled past the limit are saved disabled.
 * @throws AppError 404 when an id is not a sensor of the project, 409 when a key would repeat.
 */
export async function updateSensors(
  db: Db,
  tenantId: number,
  projectId: number,
  updates: (TSensorUpdate & { id: number })[],
): Promise<TSensorSaveResult> {
  await ownedProject(db, tenantId, projectId);
  const ids = updates.map((u) => u.id);
  return db.transaction(async (tx) => {
    const touched = await tx
      .select()
      .from(projectSensors)
      .where(and(eq(projectSensors.projectId, projectId), inArray(projectSensors.id, ids)));
    if (new Set(ids).size !== ids.length) throw conflict('a sensor is listed twice');
    if (touched.length !== ids.length) throw notFound('sensor');
    const kept = await tx
      .select()
      .from(projectSensors)
      .where(and(eq(projectSensors.projectId, projectId), notInArray(projectSensors.id, ids)));
    const merged = updates.map((u) => {
      const row = touched.find((r) => r.id === u.id) as TSensorRow;
      return { ...row, ...toColumns(u) };
    });
    assertUniqueKeys([...kept.map((s) => s.key), ...merged.map((s) => s.key)]);
    const { sensors, disabledExcess } = applyTelemetryLimit(kept, merged);
    const rows: TSensorRow[] = [];
    for (const { id, projectId: _p, ...values } of sensors) {
      const [row] = await tx.update(projectSensors).set(values).where(eq(projectSensors.id, id)).returning();
      rows.push(row);
    }
    return { data: rows.map(presentSensor), disabled_excess: disabledExcess, telemetry_limit: TELEMETRY_VALUE_SLOTS };
  });
}

/** Deletes sensor `sensorId` (its display settings go with it); the caller checked ownership. */
export async function deleteSensor(db: Db, sensorId: number): Promise<void> {
  await db.delete(projectSensors).where(eq(projectSensors.id, sensorId));
}

function assertUniqueKeys(keys: string[]): void {
  const dup = keys.find((k, i) => keys.indexOf(k) !== i);
  if (dup) throw conflict(`sensor key ${dup} already exists in this project`, ErrorCode.Conflict);
}

/** A new sensor's columns; a key of a non-numeric type takes one value slot (docs/decisions/telemetry.md). */
function fromInput(s: TSensorInput) {
  return {
    key: s.key,
    name: s.name,
    unit: s.unit,
    valueCount: s.value_type === 'number' ? s.value_count : 1,
    valueType: s.value_type,
    address: s.address,
    savePeriodMs: s.save_period,
    updatePeriodMs: s.update_period,
    uploadPeriodMs: s.upload_period,
    batch: s.batch,
    enabled: s.enabled,
  };
}

/** The API's field names → the table's columns, only for fields present. */
function toColumns(s: TSensorUpdate) {
  const out: Partial<Omit<TSensorRow, 'id' | 'projectId'>> = {};
  if (s.key !== undefined) out.key = s.key;
  if (s.name !== undefined) out.name = s.name;
  if (s.unit !== undefined) out.unit = s.unit;
  if (s.value_count !== undefined) out.valueCount = s.value_count;
  if (s.address !== undefined) out.address = s.address;
  if (s.save_period !== undefined) out.savePeriodMs = s.save_period;
  if (s.update_period !== undefined) out.updatePeriodMs = s.update_period;
  if (s.upload_period !== undefined) out.uploadPeriodMs = s.upload_period;
  if (s.batch !== undefined) out.batch = s.batch;
  if (s.enabled !== undefined) out.enabled = s.enabled;
  if (s.value_type !== undefined) out.valueType = s.value_type;
  if (s.value_type !== undefined && s.value_type !== 'number') out.valueCount = 1;
  return out;
}
