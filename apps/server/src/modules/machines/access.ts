/**
 * Which machines a user holds (docs/decisions/machines.md "Who sees what"): the machines granted to it by an allowed
 * authorisation request (`machine_authz`) and the machines of the machine roles it is a member of
 * (`project_role_machines` ⋈ `project_role_members`). Read through a join at query time, like project roles' device
 * grants, so taking a grant or a role membership away takes exactly that machine away. Used by the machine routes,
 * and by the roles and authorisation modules; imports nothing but the schema, so any module may import it.
 */
import { sql, type SQL } from 'drizzle-orm';
import { machineAuthz, projectRoleMachines, projectRoleMembers } from '../../db/schema.js';

/**
 * A `select machine_id …` subquery: the ids of the machines user account `accountId` holds — its `machine_authz` rows
 * and the machines of its machine roles. Callers keep their own tenant condition on `machines` (grants and roles only
 * ever hold their tenant's machines and users), e.g. `and(eq(machines.tenantId, t), sql\`${machines.id} in (${visibleMachineIds(a)})\`)`.
 */
export function visibleMachineIds(accountId: number): SQL {
  return sql`select ${machineAuthz.machineId} from ${machineAuthz} where ${machineAuthz.accountId} = ${accountId}
    union select ${projectRoleMachines.machineId} from ${projectRoleMachines}
    inner join ${projectRoleMembers} on ${projectRoleMembers.roleId} = ${projectRoleMachines.roleId}
    where ${projectRoleMembers.accountId} = ${accountId}`;
}
