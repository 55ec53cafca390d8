/**
 * The tenant's plan and what it allows (spec §7 User API `GET authz/package-policy`: "tells the console what the
 * tenant's plan allows"; docs/decisions/roles.md "Plans"). The server enforces every limit listed here when a role,
 * machine configure or machine is created; the console reads the policy to hide what the plan does not include and to
 * show how much of each limit is used.
 */
import { z } from 'zod';
import { API } from './api-paths.js';
import { ROLE_KINDS, type TRoleKind } from './project-roles.js';

/** `GET authz/package-policy` (vendors and users of the tenant). */
export const packagePolicyPath = `${API.user}/authz/package-policy`;

/** The plans a tenant can be on; new tenants start on `standard`. */
export const TENANT_PLANS = ['basic', 'standard', 'enterprise'] as const;
/** One of {@link TENANT_PLANS}. */
export type TTenantPlan = (typeof TENANT_PLANS)[number];

/** What a plan allows: the kinds of role a vendor may define and the most of each entity the tenant may hold. */
export interface TPlanPolicy {
  role_kinds: readonly TRoleKind[];
  /** Roles of every kind together. */
  roles_max: number;
  machine_configures_max: number;
  machines_max: number;
}

/** The plans' allowances. `basic` has no machines (so no machine roles); `enterprise` raises every limit. */
export const PLAN_POLICIES: Record<TTenantPlan, TPlanPolicy> = {
  basic: { role_kinds: ['project', 'device'], roles_max: 20, machine_configures_max: 0, machines_max: 0 },
  standard: { role_kinds: ROLE_KINDS, roles_max: 200, machine_configures_max: 50, machines_max: 500 },
  enterprise: { role_kinds: ROLE_KINDS, roles_max: 5_000, machine_configures_max: 1_000, machines_max: 50_000 },
};

/** How much of each limit the tenant uses now. */
export const ZPlanUsage = z.object({ roles: z.number().int(), machine_configures: z.number().int(), machines: z.number().int() });

/** 200 of `GET authz/package-policy`: the plan, its allowances, the tenant's usage and the caller's feature codes. */
export const ZPackagePolicy = z.object({
  plan: z.enum(TENANT_PLANS),
  role_kinds: z.array(z.enum(ROLE_KINDS)),
  roles_max: z.number().int(),
  machine_configures_max: z.number().int(),
  machines_max: z.number().int(),
  usage: ZPlanUsage,
  /** The caller's granted feature codes (the token's `fea`; "13:25" is the AI assistant). */
  features: z.array(z.string()),
});
export type TPackagePolicy = z.infer<typeof ZPackagePolicy>;
