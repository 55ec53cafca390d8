/**
 * Who holds a machine (docs/decisions/machines.md "Who sees what"): the accounts granted it by an allowed machine
 * request and the members of the machine roles that hold it — the accounts whose devices change when its bindings do.
 */
import { eq } from 'drizzle-orm';
import { machineAuthz, projectRoleMachines, projectRoleMembers } from '../../db/schema.js';
import type { TDbOrTx } from '../auth/db-types.js';

/** The account ids holding machine `machineId` (each once). */
export async function machineHolderIds(db: TDbOrTx, machineId: number): Promise<number[]> {
  const [granted, members] = await Promise.all([
    db.select({ accountId: machineAuthz.accountId }).from(machineAuthz).where(eq(machineAuthz.machineId, machineId)),
    db
      .select({ accountId: projectRoleMembers.accountId })
      .from(projectRoleMembers)
      .innerJoin(projectRoleMachines, eq(projectRoleMachines.roleId, projectRoleMembers.roleId))
      .where(eq(projectRoleMachines.machineId, machineId)),
  ]);
  return [...new Set([...granted, ...members].map((r) => r.accountId))];
}
