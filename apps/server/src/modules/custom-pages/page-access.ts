/**
 * Who may see a project's custom page (spec §6; docs/decisions/custom-pages.md): the project's vendor (any vendor or
 * admin of its tenant) and every user authorised for at least one of the project's devices — the same device
 * visibility as the device pages (`devices/access.ts`). Writing is for the vendor only.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import { accounts, devices, projects } from '../../db/schema.js';
import { visibleDevicesCondition } from '../devices/access.js';

/**
 * Checks that project `projectId` belongs to `tenantId`.
 * @throws AppError 404 when it does not exist or belongs to another tenant (indistinguishable on purpose).
 */
export async function assertOwnedProject(db: Db, tenantId: number, projectId: number): Promise<void> {
  const [row] = await db
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.tenantId, tenantId)));
  if (!row) throw notFound('project');
}

/**
 * Checks that `principal` may view the custom page of `projectId`: a vendor/admin of the project's tenant, or a user
 * who may see one of its devices.
 * @throws AppError 404 otherwise — a project a caller may not see looks like a missing one.
 */
export async function assertCanViewPage(db: Db, principal: TPrincipal, projectId: number): Promise<void> {
  if (principal.level !== 'user') return assertOwnedProject(db, principal.tenantId, projectId);
  const [row] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.projectId, projectId), visibleDevicesCondition(principal)))
    .limit(1);
  if (!row) throw notFound('project');
}

/** The principal of account `accountId` as it is now (level and tenant from the database), or null when it is gone. */
export async function principalOfAccount(db: Db, accountId: number): Promise<TPrincipal | null> {
  const [a] = await db
    .select({ id: accounts.id, tenantId: accounts.tenantId, email: accounts.email, level: accounts.level, fea: accounts.features })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return a ? { accountId: a.id, tenantId: a.tenantId, email: a.email, level: a.level, fea: a.fea, via: 'jwt' } : null;
}
