/** Reading devices as a caller may see them (spec §6), joined with their project and product names. */
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { TDevice, TDeviceListQuery, TPage } from '@tessera/contracts';
import { pageOf } from '../../db/paging.js';
import type { Db } from '../../db/client.js';
import type { TPrincipal } from '../../core/principal.js';
import { deviceIngestStats, devices, products, projectSensors, projects } from '../../db/schema.js';
import { searchAny } from '../../db/sql-helpers.js';
import { visibleDevicesCondition } from './access.js';
import { presentDevice, type TDeviceDetailView, type TDeviceView } from './presenters.js';

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

/**
 * {@link findDeviceView} with what the v2 detail adds: its project's status groups, its project's sensors (by id) and
 * its ingest rejection counters, in one query — a dashboard opens a detail per device widget, all at once.
 */
export async function findDeviceDetailView(db: Db, principal: TPrincipal, tangramId: string): Promise<TDeviceDetailView | null> {
  const s = projectSensors;
  const r = deviceIngestStats;
  const sensors = sql<TDeviceDetailView['sensors']>`(select coalesce(json_agg(json_build_object('key', ${s.key},
    'name', ${s.name}, 'unit', ${s.unit}, 'valueCount', ${s.valueCount}, 'enabled', ${s.enabled},
    'valueType', ${s.valueType}) order by ${s.id}), '[]'::json)
    from ${s} where ${s.projectId} = ${devices.projectId})`;
  const rejected = sql<TDeviceDetailView['rejected']>`(select coalesce(json_agg(json_build_object('reason', ${r.reason},
    'count', ${r.count})), '[]'::json) from ${r} where ${r.deviceId} = ${devices.id})`;
  const [row] = await db
    .select({
      device: devices,
      projectName: projects.name,
      productId: products.id,
      productName: products.name,
      statusGroups: projects.statusGroups,
      sensors,
      rejected,
    })
    .from(devices)
    .innerJoin(projects, eq(projects.id, devices.projectId))
    .innerJoin(products, eq(products.id, projects.productId))
    .where(and(visibleDevicesCondition(principal), eq(devices.tangramId, tangramId.toUpperCase())))
    .limit(1);
  return row ?? null;
}
