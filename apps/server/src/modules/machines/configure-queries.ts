/**
 * Reading machine configures of a tenant (spec §7 User API "machine configure … CRUD": `GET machine-configure`,
 * `GET machine-configure/{id}`), with their components and how many machines use each.
 */
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { TListQuery, TMachineConfigure, TPage } from '@tessera/contracts';
import { notFound } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { pageOf } from '../../db/paging.js';
import { machineComponents, machineConfigures, machines, products } from '../../db/schema.js';
import { searchAny } from '../../db/sql-helpers.js';
import type { TDbOrTx } from '../auth/db-types.js';
import { presentConfigure, type TConfigureView } from './presenters.js';

/** A configure row. */
export type TConfigureRow = typeof machineConfigures.$inferSelect;

/**
 * The tenant's configure `id`. `lock`: `update` while it is edited or deleted, `share` while a machine of it is
 * written — so a machine never binds a component an edit is removing, and a delete sees every machine.
 * @throws AppError 404 when it is missing or another tenant's.
 */
export async function ownedConfigure(db: TDbOrTx, tenantId: number, id: number, lock?: 'update' | 'share'): Promise<TConfigureRow> {
  const query = db
    .select()
    .from(machineConfigures)
    .where(and(eq(machineConfigures.id, id), eq(machineConfigures.tenantId, tenantId)));
  const [row] = lock ? await query.for(lock) : await query;
  if (!row) throw notFound('machine configure');
  return row;
}

/** `rows` with their components (by position) and machine counts, in the order given. */
export async function configureViews(db: TDbOrTx, rows: TConfigureRow[]): Promise<TConfigureView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  // One query after the other: `db` may be a transaction, whose one connection runs one query at a time.
  const components = await db
    .select({ component: machineComponents, productName: products.name })
    .from(machineComponents)
    .innerJoin(products, eq(products.id, machineComponents.productId))
    .where(inArray(machineComponents.configureId, ids))
    .orderBy(asc(machineComponents.position), asc(machineComponents.id));
  const counts = await db
    .select({ configureId: machines.configureId, n: count() })
    .from(machines)
    .where(inArray(machines.configureId, ids))
    .groupBy(machines.configureId);
  return rows.map((configure) => ({
    configure,
    components: components
      .filter((c) => c.component.configureId === configure.id)
      .map((c) => ({ ...c.component, productName: c.productName })),
    instanceCount: counts.find((c) => c.configureId === configure.id)?.n ?? 0,
  }));
}

/** The view of one configure row. */
export async function configureView(db: TDbOrTx, row: TConfigureRow): Promise<TConfigureView> {
  const [view] = await configureViews(db, [row]);
  return view;
}

/** GET machine-configure/{id}. @throws AppError 404 when it is missing or another tenant's. */
export async function getMachineConfigure(db: Db, tenantId: number, id: number): Promise<TMachineConfigure> {
  return presentConfigure(await configureView(db, await ownedConfigure(db, tenantId, id)));
}

/** GET machine-configure: a page of the tenant's configures by name ignoring case; `q` matches the name. */
export async function listMachineConfigures(db: Db, tenantId: number, query: TListQuery): Promise<TPage<TMachineConfigure>> {
  const where = and(eq(machineConfigures.tenantId, tenantId), searchAny(query.q, [machineConfigures.name]));
  const page = await pageOf(
    query,
    db.select({ total: count() }).from(machineConfigures).where(where),
    (limit, offset) =>
      db
        .select()
        .from(machineConfigures)
        .where(where)
        .orderBy(asc(sql`lower(${machineConfigures.name})`), asc(machineConfigures.id))
        .limit(limit)
        .offset(offset),
    (row) => row,
  );
  return { ...page, data: (await configureViews(db, page.data)).map(presentConfigure) };
}
