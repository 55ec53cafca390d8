/**
 * The tenant's plan (spec §7 `GET authz/package-policy`; docs/decisions/roles.md "Plans"): what it allows
 * (PLAN_POLICIES in contracts), how much of it the tenant uses, and the check every create route runs before it
 * writes a role, a machine configure or a machine.
 */
import { ErrorCode, PLAN_POLICIES, type TPackagePolicy, type TPlanPolicy, type TRoleKind, type TTenantPlan } from '@tessera/contracts';
import { count, eq } from 'drizzle-orm';
import { AppError, notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import { machineConfigures, machines, projectRoles, tenants } from '../../db/schema.js';
import type { TDbOrTx } from '../auth/db-types.js';

/** What a plan limit counts: the tenant's roles (of every kind), machine configures or machines. */
export type TPlanCounted = 'roles' | 'machine_configures' | 'machines';

const counted = { roles: projectRoles, machine_configures: machineConfigures, machines } as const;
const limitOf: Record<TPlanCounted, keyof TPlanPolicy> = {
  roles: 'roles_max',
  machine_configures: 'machine_configures_max',
  machines: 'machines_max',
};

/** The plan of tenant `tenantId`. @throws AppError 404 when there is no such tenant. */
export async function tenantPlan(db: TDbOrTx, tenantId: number): Promise<TTenantPlan> {
  const [row] = await db.select({ plan: tenants.plan }).from(tenants).where(eq(tenants.id, tenantId));
  if (!row) throw notFound('tenant');
  return row.plan;
}

async function usageOf(db: TDbOrTx, tenantId: number, what: TPlanCounted): Promise<number> {
  const table = counted[what];
  const [{ n }] = await db.select({ n: count() }).from(table).where(eq(table.tenantId, tenantId));
  return Number(n);
}

/**
 * Checks that tenant `tenantId` may create one more `what` (and, for a role, one of kind `roleKind`). Run inside the
 * creating transaction; two creates racing for the last slot may both pass (the limit is a plan allowance, not an
 * invariant the data depends on).
 * @throws AppError 403 PLAN_LIMIT when the plan excludes the role kind or the limit is reached.
 */
export async function requireWithinPlan(db: TDbOrTx, tenantId: number, what: TPlanCounted, roleKind?: TRoleKind): Promise<void> {
  const plan = await tenantPlan(db, tenantId);
  const policy = PLAN_POLICIES[plan];
  if (roleKind && !policy.role_kinds.includes(roleKind)) {
    throw new AppError(403, ErrorCode.PlanLimit, `the ${plan} plan does not include ${roleKind} roles`);
  }
  const max = policy[limitOf[what]] as number;
  if ((await usageOf(db, tenantId, what)) >= max) {
    throw new AppError(403, ErrorCode.PlanLimit, `the ${plan} plan allows at most ${max} ${what.replace('_', ' ')}`);
  }
}

/** GET authz/package-policy: `principal`'s tenant's plan, its allowances and usage, and the caller's feature codes. */
export async function packagePolicyOf(db: TDbOrTx, principal: TPrincipal): Promise<TPackagePolicy> {
  const plan = await tenantPlan(db, principal.tenantId);
  const policy = PLAN_POLICIES[plan];
  const [roles, configures, machineCount] = await Promise.all(
    (['roles', 'machine_configures', 'machines'] as const).map((w) => usageOf(db, principal.tenantId, w)),
  );
  return {
    plan,
    role_kinds: [...policy.role_kinds],
    roles_max: policy.roles_max,
    machine_configures_max: policy.machine_configures_max,
    machines_max: policy.machines_max,
    usage: { roles, machine_configures: configures, machines: machineCount },
    features: [...principal.fea],
  };
}
