/**
 * GET `/rule-engine/v1/devices` (spec §7 "devices"): the tenant's devices a platform rule may reference in a start
 * scope or a device node — Tangram ID, name, project and product — searchable by Tangram ID or name.
 */
import { zPage, type TListQuery, type TPage } from '@tessera/contracts';
import { and, asc, count, eq, ilike, or } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { pageOf } from '../../db/paging.js';
import { devices, projects } from '../../db/schema.js';

/** One device a rule may reference. */
export const ZRuleDevice = z.object({
  tangram_id: z.string(),
  name: z.string().nullable(),
  project_id: z.number().int(),
  project_name: z.string(),
  product_id: z.number().int(),
});
export type TRuleDevice = z.infer<typeof ZRuleDevice>;
export const ZRuleDeviceList = zPage(ZRuleDevice);

/** A page of the tenant's devices, by Tangram ID. */
export function listRuleDevices(db: Db, tenantId: number, query: TListQuery): Promise<TPage<TRuleDevice>> {
  const search = query.q ? or(ilike(devices.tangramId, `%${query.q}%`), ilike(devices.name, `%${query.q}%`)) : undefined;
  const where = and(eq(devices.tenantId, tenantId), search);
  return pageOf(
    query,
    db.select({ total: count() }).from(devices).where(where),
    (limit, offset) =>
      db
        .select({
          tangramId: devices.tangramId,
          name: devices.name,
          projectId: projects.id,
          projectName: projects.name,
          productId: projects.productId,
        })
        .from(devices)
        .innerJoin(projects, eq(projects.id, devices.projectId))
        .where(where)
        .orderBy(asc(devices.tangramId))
        .limit(limit)
        .offset(offset),
    (r) => ({ tangram_id: r.tangramId, name: r.name, project_id: r.projectId, project_name: r.projectName, product_id: r.productId }),
  );
}
