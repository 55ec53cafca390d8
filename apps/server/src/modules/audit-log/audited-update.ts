/**
 * An UPDATE that writes its own audit entry (docs/decisions/audit-log.md "Cost"): one statement, so the entry costs no
 * statement, round trip or commit of its own and is atomic with the change — both are stored or neither.
 *
 * ```sql
 * with "audit_changed" as (
 *   update <table> as "t" set "name" = coalesce($name, "t"."name"), …
 *   from (select * from <table> where <key> = $key for update) as "old"
 *   where "t".<key> = "old".<key>
 *   returning "t".*, <the changed fields of old and t, masked as the hooks mask them> as "audit_changes"
 * ), "audit_entry" as (
 *   insert into audit_log (…) select r.at, coalesce(c.tenant_id, r.tenant_id), r.actor_account_id, …, c.audit_changes, …
 *   from "audit_changed" as c, json_to_record($entry) as r(…)
 * )
 * select <the table's columns> from "audit_changed"
 * ```
 *
 * The row before the change is read by the statement itself, locked (`for update`), so a concurrent change of the
 * same row is waited for and the entry's "before" is the row this UPDATE replaced (READ COMMITTED re-reads the locked
 * row). No row (the key is gone) changes nothing and writes no entry; a failing UPDATE or INSERT fails both.
 */
import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';
import { diffFieldsSql } from './changes.js';
import { AUDIT_COLUMN_NAMES, AUDIT_RECORD, jsonRowOf, type TStatementEntry } from './record.js';

/** New values of the settable columns (Drizzle's property names); null or undefined keeps the stored value. */
export type TAuditedSet<TKeys extends string> = Partial<Record<TKeys, unknown>>;

/**
 * Updates the row whose key is `key` with `values`, writing `entry` and the changed fields as its audit entry in the
 * same statement.
 * @returns the row as stored after the change (Drizzle's property names), or undefined when no row has that key.
 * @throws the database error of the statement; then neither the change nor the entry is stored.
 */
export type TAuditedUpdate<TRow, TKeys extends string> = (
  db: Db,
  key: unknown,
  values: TAuditedSet<TKeys>,
  entry: TStatementEntry,
) => Promise<TRow | undefined>;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
const of = (alias: string, column: PgColumn): SQL => sql.raw(`${quoted(alias)}.${quoted(column.name)}`);

/**
 * The audited UPDATE of `table`'s row by the column `key`, setting the columns `settable` (property name → column);
 * prepared once per database as the named statement `name`. Settable columns must be NOT NULL: a null value keeps the
 * stored one (the statement's text is the same whichever fields a request sets).
 * @throws Error (when building it) for a nullable settable column.
 */
export function auditedUpdate<TTable extends PgTable, TKeys extends string>(
  table: TTable,
  key: PgColumn,
  settable: Record<TKeys, PgColumn>,
  name: string,
): TAuditedUpdate<TTable['$inferSelect'], TKeys> {
  const setColumns = Object.entries(settable) as [TKeys, PgColumn][];
  for (const [, column] of setColumns) {
    if (!column.notNull) throw new Error(`audited update of ${getTableName(table)}: ${column.name} may be null`);
  }
  const columns: Record<string, PgColumn> = getTableColumns(table);
  const hasTenant = Object.values(columns).some((c) => c.name === 'tenant_id');
  const assignments = sql.join(
    setColumns.map(
      ([prop, c]) =>
        sql`${sql.raw(quoted(c.name))} = coalesce(${sql.placeholder(`set_${prop}`)}::${sql.raw(c.getSQLType())}, ${of('t', c)})`,
    ),
    sql`, `,
  );
  const changes = diffFieldsSql(setColumns.map(([, c]) => ({ name: c.name, before: of('old', c), after: of('t', c) })));
  const entryValues = sql.join(
    AUDIT_COLUMN_NAMES.map((column) => {
      if (column === 'changes') return sql`"c"."audit_changes"`;
      if (column === 'tenant_id' && hasTenant) return sql`coalesce("c"."tenant_id", "r"."tenant_id")`;
      return sql.raw(`"r".${quoted(column)}`);
    }),
    sql`, `,
  );
  const entryColumns = sql.raw(AUDIT_COLUMN_NAMES.map(quoted).join(', '));
  const keyName = sql.raw(quoted(key.name));

  const prepared = new WeakMap<Db, { execute: (p: Record<string, unknown>) => Promise<TTable['$inferSelect'][]> }>();
  const queryOn = (db: Db) => {
    let query = prepared.get(db);
    if (!query) {
      const changed = db.$with('audit_changed', columns).as(
        sql`update ${table} as "t" set ${assignments}
          from (select * from ${table} where ${key} = ${sql.placeholder('key')} for update) as "old"
          where "t".${keyName} = "old".${keyName}
          returning "t".*, ${changes} as "audit_changes"`,
      );
      const written = db.$with('audit_entry', { written: sql<number>`1` }).as(
        sql`insert into ${auditLog} (${entryColumns}) select ${entryValues}
          from "audit_changed" as "c", json_to_record(${sql.placeholder('entry')}::json) as "r"(${AUDIT_RECORD})`,
      );
      query = db.with(changed, written).select().from(changed).prepare(name) as unknown as NonNullable<ReturnType<typeof prepared.get>>;
      prepared.set(db, query);
    }
    return query;
  };

  return async (db, keyValue, values, entry) => {
    const params: Record<string, unknown> = { key: keyValue, entry: JSON.stringify(jsonRowOf({ ...entry, changes: {} })) };
    for (const [prop] of setColumns) params[`set_${prop}`] = values[prop] ?? null;
    const [row] = await queryOn(db).execute(params);
    return row;
  };
}
