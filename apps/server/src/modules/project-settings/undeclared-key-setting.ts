/**
 * The project's undeclared-key setting (docs/decisions/telemetry.md "Undeclared keys"): whether ingest stores a
 * telemetry key no sensor of the project declares, typed by its first value, and offers it for declaration. Off by
 * default: such a key is refused and counted as `unknown_key`.
 */
import { and, eq } from 'drizzle-orm';
import type { TUndeclaredKeySetting } from '@tessera/contracts';
import type { TMessageBus } from '../../core/context.js';
import type { Db } from '../../db/client.js';
import { projects } from '../../db/schema.js';
import { ownedProject } from './owned-project.js';

/**
 * Project `id`'s undeclared-key setting.
 * @throws AppError 404 when the project is not `tenantId`'s.
 */
export async function getUndeclaredKeySetting(db: Db, tenantId: number, id: number): Promise<TUndeclaredKeySetting> {
  await ownedProject(db, tenantId, id);
  const [row] = await db.select({ accepts: projects.acceptsUndeclaredKeys }).from(projects).where(eq(projects.id, id));
  return { accepts_undeclared_keys: row?.accepts ?? false };
}

/**
 * Sets project `id`'s undeclared-key setting; ingest on every replica sees it at the project's next message
 * (`bus.projectKeysChanged`).
 * @throws AppError 404 when the project is not `tenantId`'s; the database error when the replicas could not be told
 *   (the setting is saved; they see it within the key cache's TTL).
 */
export async function putUndeclaredKeySetting(
  deps: { db: Db; bus: TMessageBus },
  tenantId: number,
  id: number,
  body: TUndeclaredKeySetting,
): Promise<TUndeclaredKeySetting> {
  await ownedProject(deps.db, tenantId, id);
  await deps.db
    .update(projects)
    .set({ acceptsUndeclaredKeys: body.accepts_undeclared_keys })
    .where(and(eq(projects.id, id), eq(projects.tenantId, tenantId)));
  await deps.bus.projectKeysChanged(id);
  return { accepts_undeclared_keys: body.accepts_undeclared_keys };
}
