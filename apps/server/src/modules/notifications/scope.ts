/**
 * What a caller may subscribe to (docs/decisions/notifications.md "Who may subscribe"): a device it may see
 * (devices/access.ts), or a project — for vendors and admins a project of their tenant, for users a project with at
 * least one device they may see. Anything else answers 404, like a missing one, so other tenants cannot be probed.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { devices, projects } from '../../db/schema.js';
import { deviceFor, visibleDevicesCondition } from '../devices/access.js';

/** A subscription's target: a project, or a device and its project. */
export interface TScopeTarget {
  project: { id: number; name: string };
  device: { id: number; tangramId: string; name: string } | null;
}

/** A WHERE clause over `projects`: the projects `principal` may subscribe to (tenant always applied). */
export function visibleProjectsCondition(principal: TPrincipal): SQL {
  const ofTenant = eq(projects.tenantId, principal.tenantId);
  if (principal.level !== 'user') return ofTenant;
  const seen = sql`${projects.id} in (select ${devices.projectId} from ${devices} where ${visibleDevicesCondition(principal, 'receive_alerts')})`;
  return and(ofTenant, seen)!;
}

/** The device `tangramId` as a target. @throws AppError 404 when the caller may not see it. */
export async function deviceTarget(db: Db, principal: TPrincipal, tangramId: string): Promise<TScopeTarget> {
  const device = await deviceFor(db, principal, tangramId, 'receive_alerts');
  const [project] = await db.select({ id: projects.id, name: projects.name }).from(projects).where(eq(projects.id, device.projectId));
  return { project, device: { id: device.id, tangramId: device.tangramId, name: device.name } };
}

/** The project `projectId` as a target. @throws AppError 404 when the caller may not subscribe to it. */
export async function projectTarget(db: Db, principal: TPrincipal, projectId: number): Promise<TScopeTarget> {
  const [project] = await db
    .select({ id: projects.id, name: projects.name })
    .from(projects)
    .where(and(eq(projects.id, projectId), visibleProjectsCondition(principal)));
  if (!project) throw notFound('project');
  return { project, device: null };
}
