/**
 * GET /notification/v1/subscriptions: every subscription the caller saved, projects first then devices, each by
 * name. A subscription of a device or project the caller may no longer see is left out (it also notifies nobody).
 */
import { and, asc, eq } from 'drizzle-orm';
import type { TSubscriptionList } from '@tessera/contracts';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { alertSubscriptions, devices, projects } from '../../db/schema.js';
import { visibleDevicesCondition } from '../devices/access.js';
import { presentSubscription } from './presenters.js';
import { visibleProjectsCondition } from './scope.js';

/** The caller's saved subscriptions (`{ data }`, unpaged: one per device or project at most). */
export async function listSubscriptions(db: Db, principal: TPrincipal): Promise<TSubscriptionList> {
  const mine = eq(alertSubscriptions.accountId, principal.accountId);
  const projectRows = await db
    .select({ row: alertSubscriptions, project: { id: projects.id, name: projects.name } })
    .from(alertSubscriptions)
    .innerJoin(projects, eq(projects.id, alertSubscriptions.projectId))
    .where(and(mine, visibleProjectsCondition(principal)))
    .orderBy(asc(projects.name), asc(projects.id));
  const deviceRows = await db
    .select({
      row: alertSubscriptions,
      project: { id: projects.id, name: projects.name },
      device: { id: devices.id, tangramId: devices.tangramId, name: devices.name },
    })
    .from(alertSubscriptions)
    .innerJoin(devices, eq(devices.id, alertSubscriptions.deviceId))
    .innerJoin(projects, eq(projects.id, devices.projectId))
    .where(and(mine, visibleDevicesCondition(principal, 'receive_alerts')))
    .orderBy(asc(devices.name), asc(devices.id));
  return {
    data: [
      ...projectRows.map((r) => presentSubscription({ project: r.project, device: null }, r.row)),
      ...deviceRows.map((r) => presentSubscription({ project: r.project, device: r.device }, r.row)),
    ],
  };
}
