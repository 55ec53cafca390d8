/**
 * Filter options of the alert pages (spec §7 `vendors`, `products`, `projects`): what the caller may filter by, each
 * with the number of its alerts first seen in the range. Products and projects are those of the devices the caller
 * sees (devices/access.ts), with 0 when they raised none; the vendor is the caller's tenant.
 */
import { and, asc, between, eq, sql, type SQL } from 'drizzle-orm';
import type { TAlertOptions, TAlertRangeQuery } from '@tessera/contracts';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { alerts, devices, products, projects, tenants } from '../../db/schema.js';
import { visibleDevicesCondition } from '../devices/access.js';
import { visibleAlertsCondition } from './access.js';
import { checkedAlertRange } from './filters.js';

function alertCount(principal: TPrincipal, q: TAlertRangeQuery, of: SQL): SQL<number> {
  const range = checkedAlertRange(q);
  const where = and(visibleAlertsCondition(principal), between(alerts.firstSeenAt, range.from, range.to), of);
  return sql<number>`(select count(*)::int from ${alerts} where ${where})`.mapWith(Number);
}

function visibleProjectIds(principal: TPrincipal): SQL {
  return sql`select ${devices.projectId} from ${devices} where ${visibleDevicesCondition(principal, 'receive_alerts')}`;
}

/**
 * The caller's vendor (its tenant) with its alert count in the range.
 * @throws AppError 400 for a bad range.
 */
export async function alertVendors(db: Db, principal: TPrincipal, q: TAlertRangeQuery): Promise<TAlertOptions> {
  const rows = await db
    .select({ id: tenants.id, name: tenants.name, count: alertCount(principal, q, eq(alerts.tenantId, tenants.id)) })
    .from(tenants)
    .where(eq(tenants.id, principal.tenantId));
  return { data: rows };
}

/** The projects of the caller's visible devices, with alert counts. @throws AppError 400 for a bad range. */
export async function alertProjects(db: Db, principal: TPrincipal, q: TAlertRangeQuery): Promise<TAlertOptions> {
  const rows = await db
    .select({ id: projects.id, name: projects.name, count: alertCount(principal, q, eq(alerts.projectId, projects.id)) })
    .from(projects)
    .where(and(eq(projects.tenantId, principal.tenantId), sql`${projects.id} in (${visibleProjectIds(principal)})`))
    .orderBy(asc(sql`lower(${projects.name})`), asc(projects.id));
  return { data: rows };
}

/** The products of the caller's visible devices, with alert counts. @throws AppError 400 for a bad range. */
export async function alertProducts(db: Db, principal: TPrincipal, q: TAlertRangeQuery): Promise<TAlertOptions> {
  const productIds = sql`select ${projects.productId} from ${projects} where ${projects.id} in (${visibleProjectIds(principal)})`;
  const rows = await db
    .select({ id: products.id, name: products.name, count: alertCount(principal, q, eq(alerts.productId, products.id)) })
    .from(products)
    .where(and(eq(products.tenantId, principal.tenantId), sql`${products.id} in (${productIds})`))
    .orderBy(asc(sql`lower(${products.name})`), asc(products.id));
  return { data: rows };
}
