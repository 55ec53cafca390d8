/**
 * Snapshots of audited entities: the entity's fields (database column names) read by id, once before the change and
 * once after it, so an entry can keep what changed (changes.ts). A loader answers null when the entity is not there
 * (before a creation, after a deletion). Reads are by primary key or an indexed column: one short query each.
 */
import { and, asc, eq, getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import {
  accounts,
  alertSubscriptions,
  devices,
  projectNotificationEmails,
  projectRoleDevices,
  projectRoleMachines,
  projectRoleMembers,
  projectSensors,
} from '../../db/schema.js';

/** An entity's fields now, and its tenant when the row names one. */
export interface TSnapshot {
  tenantId: number | null;
  fields: Record<string, unknown>;
}

/** What names the entity: its id (as text, from the path, body or answer) and the calling account (for per-account rows). */
export interface TEntityKey {
  id: string;
  accountId: number | null;
}

/** Reads an entity's snapshot; null when it does not exist (or the id is not one). */
export type TSnapshotLoader = (db: Db, key: TEntityKey) => Promise<TSnapshot | null>;

/** A row as field name (column name) → value. */
function fieldsOf(table: PgTable, row: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [prop, column] of Object.entries(getTableColumns(table))) fields[column.name] = row[prop];
  return fields;
}

const numericId = (id: string): number | null => (/^\d{1,10}$/.test(id) && Number(id) <= 2 ** 31 - 1 ? Number(id) : null);

/** A row loader ({@link rowBy}) that can also make the snapshot of a row a handler already holds. */
export type TRowSnapshotLoader = TSnapshotLoader & {
  /** The snapshot of `row` (Drizzle's property names, as a select or `RETURNING` gives it). */
  fromRow(row: Record<string, unknown>): TSnapshot;
};

/**
 * The snapshot of `table`'s row whose `column` is the key's id (numeric unless `text`). The query is prepared once per
 * database (a named statement on PostgreSQL): a snapshot is read twice per change, so its building and parsing count.
 */
export function rowBy(table: PgTable, column: PgColumn, opts: { text?: boolean } = {}): TRowSnapshotLoader {
  const columns = Object.entries(getTableColumns(table)).map(([prop, c]) => [prop, c.name] as const);
  const name = `audit_${getTableName(table)}_by_${column.name}`;
  const prepared = new WeakMap<Db, { execute: (p: { id: unknown }) => Promise<unknown[]> }>();
  const queryOn = (db: Db) => {
    let query = prepared.get(db);
    if (!query) {
      query = db
        .select()
        .from(table)
        .where(eq(column, sql.placeholder('id')))
        .limit(1)
        .prepare(name);
      prepared.set(db, query);
    }
    return query;
  };
  const fromRow = (row: Record<string, unknown>): TSnapshot => {
    const fields: Record<string, unknown> = {};
    for (const [prop, columnName] of columns) fields[columnName] = row[prop];
    return { tenantId: typeof fields.tenant_id === 'number' ? fields.tenant_id : null, fields };
  };
  const load: TSnapshotLoader = async (db, key) => {
    const id = opts.text ? key.id.toUpperCase() : numericId(key.id);
    if (id === null) return null;
    const [row] = (await queryOn(db).execute({ id })) as Record<string, unknown>[];
    return row ? fromRow(row) : null;
  };
  return Object.assign(load, { fromRow });
}

/** A project's sensors, one field per telemetry key (`sensor:<key>`), so a bulk edit shows each sensor that changed. */
export const projectSensorsSnapshot: TSnapshotLoader = async (db, key) => {
  const projectId = numericId(key.id);
  if (projectId === null) return null;
  const rows = await db.select().from(projectSensors).where(eq(projectSensors.projectId, projectId)).orderBy(asc(projectSensors.key));
  const fields: Record<string, unknown> = {};
  for (const { id: _id, projectId: _p, key: sensorKey, ...sensor } of rows) fields[`sensor:${sensorKey}`] = sensor;
  return { tenantId: null, fields };
};

/** A project's notification e-mail list. */
export const notificationEmailsSnapshot: TSnapshotLoader = async (db, key) => {
  const projectId = numericId(key.id);
  if (projectId === null) return null;
  const [row] = await db.select().from(projectNotificationEmails).where(eq(projectNotificationEmails.projectId, projectId));
  return { tenantId: null, fields: { emails: row?.emails ?? [] } };
};

/** A role with what it grants: its row, its devices, machines and members (ids, sorted). */
export function roleSnapshot(roles: PgTable, idColumn: PgColumn): TSnapshotLoader {
  const role = rowBy(roles, idColumn);
  return async (db, key) => {
    const snapshot = await role(db, key);
    if (!snapshot) return null;
    const roleId = Number(key.id);
    const [deviceRows, machineRows, memberRows] = await Promise.all([
      db.select({ id: projectRoleDevices.deviceId }).from(projectRoleDevices).where(eq(projectRoleDevices.roleId, roleId)),
      db.select({ id: projectRoleMachines.machineId }).from(projectRoleMachines).where(eq(projectRoleMachines.roleId, roleId)),
      db.select({ id: projectRoleMembers.accountId }).from(projectRoleMembers).where(eq(projectRoleMembers.roleId, roleId)),
    ]);
    const ids = (rows: { id: number }[]) => rows.map((r) => r.id).sort((a, b) => a - b);
    return { ...snapshot, fields: { ...snapshot.fields, devices: ids(deviceRows), machines: ids(machineRows), members: ids(memberRows) } };
  };
}

/** The calling account's alert subscription to a project (`scope: project`) or to a device named by its Tangram ID. */
export function subscriptionSnapshot(scope: 'project' | 'device'): TSnapshotLoader {
  return async (db, key) => {
    if (key.accountId === null) return null;
    let target: SQL | undefined;
    if (scope === 'project') {
      const projectId = numericId(key.id);
      if (projectId === null) return null;
      target = eq(alertSubscriptions.projectId, projectId);
    } else {
      const [device] = await db.select({ id: devices.id }).from(devices).where(eq(devices.tangramId, key.id.toUpperCase()));
      if (!device) return null;
      target = eq(alertSubscriptions.deviceId, device.id);
    }
    const [row] = await db
      .select()
      .from(alertSubscriptions)
      .where(and(eq(alertSubscriptions.accountId, key.accountId), target));
    return row ? { tenantId: row.tenantId, fields: fieldsOf(alertSubscriptions, row) } : null;
  };
}

/** The account named by e-mail (a login): its id and tenant; no fields. */
export async function accountByEmail(db: Db, email: string): Promise<{ id: number; tenantId: number } | null> {
  const [row] = await db
    .select({ id: accounts.id, tenantId: accounts.tenantId })
    .from(accounts)
    .where(eq(accounts.email, email.trim().toLowerCase()));
  return row ?? null;
}
