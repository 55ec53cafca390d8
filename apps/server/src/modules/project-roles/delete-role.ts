/** Deleting a role of any kind (spec §6 "a role in use cannot be deleted"; §7 "project-role DELETE {id}", device-role, machine-role). */
import { count, eq } from 'drizzle-orm';
import { ErrorCode, type TRoleKind } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { conflict } from '../../core/errors.js';
import { projectRoleMembers, projectRoles } from '../../db/schema.js';
import { ownedRole } from './role-queries.js';

/**
 * Deletes the tenant's `kind` role `id` with its device and machine links. A role is in use while it has members.
 * @throws AppError 404 when the role is missing, another tenant's or of another kind; 409 IN_USE while it has members.
 */
export async function deleteRole(db: Db, tenantId: number, kind: TRoleKind, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const role = await ownedRole(tx, tenantId, kind, id, true);
    const [{ n }] = await tx.select({ n: count() }).from(projectRoleMembers).where(eq(projectRoleMembers.roleId, id));
    if (n > 0) {
      throw conflict(`the role "${role.name}" is held by ${n} member(s); remove them before deleting it`, ErrorCode.InUse);
    }
    await tx.delete(projectRoles).where(eq(projectRoles.id, id));
  });
}
