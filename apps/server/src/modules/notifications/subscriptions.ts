/**
 * The caller's own alert subscriptions (spec §7 `/notification/v1` "device"). GET answers an unsaved subscription as empty lists
 * with `saved: false`; PUT replaces it; DELETE removes it (a device then follows the project subscription again).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { TDeviceSubscription, TSubscription, TSubscriptionSettings } from '@tessera/contracts';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { alertSubscriptions } from '../../db/schema.js';
import { presentSubscription } from './presenters.js';
import { deviceTarget, projectTarget, type TScopeTarget } from './scope.js';

async function savedFor(db: Db, accountId: number, target: TScopeTarget) {
  const where = target.device ? eq(alertSubscriptions.deviceId, target.device.id) : eq(alertSubscriptions.projectId, target.project.id);
  const [row] = await db
    .select()
    .from(alertSubscriptions)
    .where(and(eq(alertSubscriptions.accountId, accountId), where));
  return row ?? null;
}

async function save(db: Db, principal: TPrincipal, target: TScopeTarget, input: TSubscriptionSettings): Promise<TSubscription> {
  const values = {
    tenantId: principal.tenantId,
    accountId: principal.accountId,
    scope: target.device ? ('device' as const) : ('project' as const),
    projectId: target.device ? null : target.project.id,
    deviceId: target.device?.id ?? null,
    levels: input.levels,
    channels: input.channels,
    updatedAt: Date.now(),
  };
  const set = { levels: values.levels, channels: values.channels, updatedAt: values.updatedAt };
  const conflict = target.device
    ? { target: [alertSubscriptions.accountId, alertSubscriptions.deviceId], targetWhere: sql`device_id is not null`, set }
    : { target: [alertSubscriptions.accountId, alertSubscriptions.projectId], targetWhere: sql`project_id is not null`, set };
  const [row] = await db.insert(alertSubscriptions).values(values).onConflictDoUpdate(conflict).returning();
  return presentSubscription(target, row);
}

async function remove(db: Db, principal: TPrincipal, target: TScopeTarget): Promise<void> {
  const row = await savedFor(db, principal.accountId, target);
  if (row) await db.delete(alertSubscriptions).where(eq(alertSubscriptions.id, row.id));
}

/** GET device/{tangramId}: the caller's device subscription and the project one it inherits. @throws AppError 404. */
export async function getDeviceSubscription(db: Db, principal: TPrincipal, tangramId: string): Promise<TDeviceSubscription> {
  const target = await deviceTarget(db, principal, tangramId);
  const projectScope: TScopeTarget = { project: target.project, device: null };
  const inherited = await savedFor(db, principal.accountId, projectScope);
  return {
    ...presentSubscription(target, await savedFor(db, principal.accountId, target)),
    inherited: inherited ? presentSubscription(projectScope, inherited) : null,
  };
}

/** PUT device/{tangramId}. @throws AppError 404 as GET. */
export async function putDeviceSubscription(
  db: Db,
  principal: TPrincipal,
  tangramId: string,
  input: TSubscriptionSettings,
): Promise<TDeviceSubscription> {
  await save(db, principal, await deviceTarget(db, principal, tangramId), input);
  return getDeviceSubscription(db, principal, tangramId);
}

/** DELETE device/{tangramId}: the device follows the project subscription again. @throws AppError 404 as GET. */
export async function deleteDeviceSubscription(db: Db, principal: TPrincipal, tangramId: string): Promise<void> {
  await remove(db, principal, await deviceTarget(db, principal, tangramId));
}

/** GET project/{id}. @throws AppError 404 when the caller may not subscribe to the project. */
export async function getProjectSubscription(db: Db, principal: TPrincipal, projectId: number): Promise<TSubscription> {
  const target = await projectTarget(db, principal, projectId);
  return presentSubscription(target, await savedFor(db, principal.accountId, target));
}

/** PUT project/{id}. @throws AppError 404 as GET. */
export async function putProjectSubscription(
  db: Db,
  principal: TPrincipal,
  projectId: number,
  input: TSubscriptionSettings,
): Promise<TSubscription> {
  return save(db, principal, await projectTarget(db, principal, projectId), input);
}

/** DELETE project/{id}. @throws AppError 404 as GET. */
export async function deleteProjectSubscription(db: Db, principal: TPrincipal, projectId: number): Promise<void> {
  await remove(db, principal, await projectTarget(db, principal, projectId));
}
