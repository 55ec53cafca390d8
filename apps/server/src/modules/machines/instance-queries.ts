/**
 * Reading machines (spec §7 User API "machine … instance … CRUD": `GET machine-instance`, `GET
 * machine-instance/{id}`): vendors and admins see their tenant's machines, users the machines they hold
 * ({@link visibleMachineIds}); everyone sees of the bound devices only those it may see (devices/access.ts).
 */
import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { TMachineBoundDevice, TMachineInstance, TMachineInstanceListQuery, TPage } from '@tessera/contracts';
import { notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { pageOf } from '../../db/paging.js';
import { devices, machineBindings, machineConfigures, machines } from '../../db/schema.js';
import { searchAny } from '../../db/sql-helpers.js';
import type { TDbOrTx } from '../auth/db-types.js';
import { visibleDevicesCondition } from '../devices/access.js';
import { visibleMachineIds } from './access.js';
import { configureViews } from './configure-queries.js';
import { presentInstance, type TInstanceView } from './presenters.js';

/** A machine row. */
export type TMachineRow = typeof machines.$inferSelect;

/**
 * The tenant's machine `id`; `lock` takes a row lock (FOR UPDATE) so a concurrent edit and delete serialise.
 * @throws AppError 404 when it is missing or another tenant's.
 */
export async function ownedMachine(db: TDbOrTx, tenantId: number, id: number, lock = false): Promise<TMachineRow> {
  const query = db
    .select()
    .from(machines)
    .where(and(eq(machines.id, id), eq(machines.tenantId, tenantId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('machine');
  return row;
}

/**
 * A join-free WHERE clause over `machines`: the tenant's machines, and for a user only those it holds. The tenant
 * condition stays for users too: isolation never rests on the grants alone.
 */
export function visibleMachinesCondition(principal: TPrincipal): SQL {
  const ofTenant = eq(machines.tenantId, principal.tenantId);
  if (principal.level !== 'user') return ofTenant;
  return and(ofTenant, sql`${machines.id} in (${visibleMachineIds(principal.accountId)})`)!;
}

/** `rows` with their configures and the bound devices `principal` may see, in the order given. */
export async function instanceViews(db: TDbOrTx, principal: TPrincipal, rows: TMachineRow[]): Promise<TInstanceView[]> {
  if (rows.length === 0) return [];
  const configureIds = [...new Set(rows.map((r) => r.configureId))];
  // One query after the other: `db` may be a transaction, whose one connection runs one query at a time.
  const configures = await configureViews(db, await db.select().from(machineConfigures).where(inArray(machineConfigures.id, configureIds)));
  const bound = await db
    .select({
      machineId: machineBindings.machineId,
      componentId: machineBindings.componentId,
      id: devices.id,
      tangramId: devices.tangramId,
      name: devices.name,
    })
    .from(machineBindings)
    .innerJoin(devices, eq(devices.id, machineBindings.deviceId))
    .where(
      and(
        inArray(
          machineBindings.machineId,
          rows.map((r) => r.id),
        ),
        visibleDevicesCondition(principal),
      ),
    );
  return rows.map((machine) => {
    const devicesByComponent = new Map<number, TMachineBoundDevice>(
      bound.filter((b) => b.machineId === machine.id).map((b) => [b.componentId, { id: b.id, tangram_id: b.tangramId, name: b.name }]),
    );
    const configure = configures.find((c) => c.configure.id === machine.configureId)!;
    return { machine, configure, devices: devicesByComponent };
  });
}

/** GET machine-instance/{id}. @throws AppError 404 when `principal` may not see it (missing, foreign or not held alike). */
export async function getMachineInstance(db: Db, principal: TPrincipal, id: number): Promise<TMachineInstance> {
  const [row] = await db
    .select()
    .from(machines)
    .where(and(eq(machines.id, id), visibleMachinesCondition(principal)));
  if (!row) throw notFound('machine');
  const [view] = await instanceViews(db, principal, [row]);
  return presentInstance(view);
}

/**
 * GET machine-instance: a page of the machines `principal` sees, by name ignoring case; `q` matches the name or the
 * serial number, `configure_id` keeps one configure's machines.
 */
export async function listMachineInstances(
  db: Db,
  principal: TPrincipal,
  query: TMachineInstanceListQuery,
): Promise<TPage<TMachineInstance>> {
  const where = and(
    visibleMachinesCondition(principal),
    query.configure_id === undefined ? undefined : eq(machines.configureId, query.configure_id),
    searchAny(query.q, [machines.name, machines.serialNumber]),
  );
  const page = await pageOf(
    query,
    db.select({ total: count() }).from(machines).where(where),
    (limit, offset) =>
      db
        .select()
        .from(machines)
        .where(where)
        .orderBy(asc(sql`lower(${machines.name})`), asc(machines.id))
        .limit(limit)
        .offset(offset),
    (row) => row,
  );
  return { ...page, data: (await instanceViews(db, principal, page.data)).map(presentInstance) };
}
