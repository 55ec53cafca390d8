/** Reading devices as a caller may see them (spec §6), joined with their project and product names. */
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { TDevice, TDeviceListQuery, TPage } from '@tessera/contracts';
import { pageOf } from '../../db/paging.js';
import type { Db } from '../../db/client.js';
import type { TPrincipal } from '../../core/principal.js';
import { devices, products, projects } from '../../db/schema.js';
import { searchAny } from '../../db/sql-helpers.js';
import { visibleDevicesCondition } from './access.js';
import { presentDevice, type TDeviceView } from './presenters.js';

function selectViews(db: Db, where: SQL | undefined) {
  return db
    .select({ device: devices, projectName: projects.name, productId: products.id, productName: products.name })
    .from(devices)
    .innerJoin(projects, eq(projects.id, devices.projectId))
    .innerJoin(products, eq(products.id, projects.productId))
    .where(where);
}

function listWhere(principal: TPrincipal, query: { q?: string; project_id?: number }): SQL | undefined {
  return and(
    visibleDevicesCondition(principal),
    query.project_id ? eq(devices.projectId, query.project_id) : undefined,
    searchAny(query.q, [devices.name, devices.nickname, devices.tangramId]),
  );
}

/** A page of the devices `principal` may see, newest first; `q` matches name, nickname or Tangram ID. */
export async function listDevices(db: Db, principal: TPrincipal, query: TDeviceListQuery): Promise<TPage<TDevice>> {
  const where = listWhere(principal, query);
  const now = Date.now();
  return pageOf(
    query,
    db.select({ total: count() }).from(devices).where(where),
    (limit, offset) => selectViews(db, where).orderBy(desc(devices.createdAt), desc(devices.id)).limit(limit).offset(offset),
    (r) => presentDevice(r, now),
  );
}

/** How many devices `principal` may see (optionally of one project). */
export async function countDevices(db: Db, principal: TPrincipal, query: { project_id?: number } = {}): Promise<number> {
  const [{ total }] = await db.select({ total: count() }).from(devices).where(listWhere(principal, query));
  return total;
}

/** The view of the device `tangramId` (any case) if `principal` may see it, else null (missing or foreign alike). */
export async function findDeviceView(db: Db, principal: TPrincipal, tangramId: string): Promise<TDeviceView | null> {
  const [row] = await selectViews(db, and(visibleDevicesCondition(principal), eq(devices.tangramId, tangramId.toUpperCase()))).limit(1);
  return row ?? null;
}
