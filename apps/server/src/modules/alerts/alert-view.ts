/**
 * Reading alerts as the presenter needs them: the alert row joined with its device, project and product names and
 * the emails of who acknowledged and resolved it. One select builder shared by the lists, the actions and publish.
 */
import { eq, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { accounts, alerts, devices, products, projects } from '../../db/schema.js';
import type { TAlertView } from './presenters.js';

const ackBy = alias(accounts, 'ack_by');
const resBy = alias(accounts, 'res_by');

/** The columns of a {@link TAlertView}. */
const viewColumns = {
  alert: alerts,
  deviceTangramId: devices.tangramId,
  deviceName: devices.name,
  projectName: projects.name,
  productName: products.name,
  acknowledgedByEmail: ackBy.email,
  resolvedByEmail: resBy.email,
};

/** A select of alert views (joins in place) to which the caller adds `where`, `orderBy`, `limit`, `offset`. */
export function selectAlertViews(db: Db) {
  return db
    .select(viewColumns)
    .from(alerts)
    .innerJoin(devices, eq(devices.id, alerts.deviceId))
    .innerJoin(projects, eq(projects.id, alerts.projectId))
    .innerJoin(products, eq(products.id, alerts.productId))
    .leftJoin(ackBy, eq(ackBy.id, alerts.acknowledgedBy))
    .leftJoin(resBy, eq(resBy.id, alerts.resolvedBy))
    .$dynamic();
}

/** The view of the alert matching `where` (e.g. an id plus a visibility condition), or null. */
export async function findAlertView(db: Db, where: SQL): Promise<TAlertView | null> {
  const [row] = await selectAlertViews(db).where(where).limit(1);
  return row ?? null;
}
