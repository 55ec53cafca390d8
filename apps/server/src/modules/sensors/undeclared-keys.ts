/**
 * Undeclared keys on the configure tab (docs/decisions/telemetry.md "Undeclared keys"): the keys ingest took while
 * the project accepted undeclared keys (modules/ingest/undeclared-keys.ts), offered for declaration — listed, declared
 * as a sensor of their type, or discarded (their later values are refused again). Vendor only, tenant-scoped.
 */
import { and, asc, eq } from 'drizzle-orm';
import {
  type TDeclareUndeclaredKey,
  type TSensorSaveResult,
  type TUndeclaredKey,
  type TUndeclaredKeyList,
  UNDECLARED_KEYS_MAX,
  ZSensorInput,
} from '@tessera/contracts';
import type { TMessageBus } from '../../core/context.js';
import { notFound } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { projectUndeclaredKeys } from '../../db/schema.js';
import { onOffer } from '../ingest/undeclared-keys.js';
import { ownedProject } from './ownership.js';
import { createSensors } from './sensor-service.js';

/**
 * The keys project `projectId` offers for declaration, oldest first, and whether it accepts undeclared keys now.
 * @throws AppError 404 when the project is not `tenantId`'s.
 */
export async function listUndeclaredKeys(db: Db, tenantId: number, projectId: number): Promise<TUndeclaredKeyList> {
  const project = await ownedProject(db, tenantId, projectId);
  const rows = await db
    .select()
    .from(projectUndeclaredKeys)
    .where(onOffer(db, projectId))
    .orderBy(asc(projectUndeclaredKeys.firstSeenAt), asc(projectUndeclaredKeys.key));
  const items = rows.map(
    (r): TUndeclaredKey => ({ key: r.key, value_type: r.valueType, value_count: r.valueCount, first_seen_at: r.firstSeenAt }),
  );
  return { items, limit: UNDECLARED_KEYS_MAX, accepts_undeclared_keys: project.acceptsUndeclaredKeys };
}

/** The offered key `key` of project `projectId`. @throws AppError 404 when it is not on offer. */
async function offeredKey(db: Db, projectId: number, key: string) {
  const [row] = await db
    .select()
    .from(projectUndeclaredKeys)
    .where(and(onOffer(db, projectId), eq(projectUndeclaredKeys.key, key)));
  if (!row) throw notFound('undeclared key');
  return row;
}

/**
 * Declares the offered key `body.key` of project `projectId` as a sensor of its type (and, for numbers, the number of
 * values its first point carried) with `body.name` and `body.unit`, other fields at the sensor defaults; the key
 * leaves the offer. Its points stored so far stay its history.
 * @throws AppError 404 (project, or a key not on offer), 409 when a sensor of the key exists.
 */
export async function declareUndeclaredKey(
  deps: { db: Db; bus: TMessageBus },
  tenantId: number,
  projectId: number,
  body: TDeclareUndeclaredKey,
): Promise<TSensorSaveResult> {
  const { key, name, unit } = body;
  await ownedProject(deps.db, tenantId, projectId);
  const row = await offeredKey(deps.db, projectId, key);
  const input = ZSensorInput.parse({ key, name, unit, value_type: row.valueType, value_count: row.valueCount });
  const saved = await createSensors(deps.db, tenantId, projectId, [input]);
  await deps.db
    .delete(projectUndeclaredKeys)
    .where(and(eq(projectUndeclaredKeys.projectId, projectId), eq(projectUndeclaredKeys.key, key)));
  await deps.bus.projectKeysChanged(projectId);
  return saved;
}

/**
 * Discards the offered key `key` of project `projectId`: it leaves the offer and ingest refuses its later values as
 * `unknown_key` (on every replica at its next message). Its points stored so far are kept until the retention expires
 * them. A sensor added later for the key takes it in again.
 * @throws AppError 404 (project, or a key not on offer).
 */
export async function discardUndeclaredKey(
  deps: { db: Db; bus: TMessageBus },
  tenantId: number,
  projectId: number,
  key: string,
): Promise<void> {
  await ownedProject(deps.db, tenantId, projectId);
  await offeredKey(deps.db, projectId, key);
  await deps.db
    .update(projectUndeclaredKeys)
    .set({ discardedAt: Date.now() })
    .where(and(eq(projectUndeclaredKeys.projectId, projectId), eq(projectUndeclaredKeys.key, key)));
  await deps.bus.projectKeysChanged(projectId);
}
