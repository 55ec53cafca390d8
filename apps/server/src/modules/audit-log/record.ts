/**
 * Writes one audit entry (docs/decisions/audit-log.md). Called by the route hooks (hooks.ts) and by domain code that
 * changes something outside a request. Insert only: the table refuses UPDATE and DELETE (migration 0021).
 */
import type { TAuditChanges } from '@tessera/contracts';
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';

/** An account named by an entry: its id (null when unknown) and its e-mail at the time. */
export interface TAuditAccount {
  accountId: number | null;
  email: string | null;
}

/** One entry to write. `at` is epoch ms (now when absent). */
export interface TAuditEntryInput {
  at?: number;
  tenantId: number | null;
  actor: TAuditAccount & { via: 'jwt' | 'api_key' | null };
  actingAdmin: TAuditAccount | null;
  ip: string | null;
  entityType: string;
  entityId: string | null;
  action: string;
  changes: TAuditChanges;
  route: string | null;
  requestId: string | null;
}

/**
 * An entry written by the change's own statement (audited-update.ts): all but its changed fields, which the statement
 * computes; the statement also takes its tenant from the changed row when the row has one.
 */
export type TStatementEntry = Omit<TAuditEntryInput, 'changes'>;

/** The row of `entry`. */
function rowOf(entry: TAuditEntryInput): typeof auditLog.$inferInsert {
  return {
    at: entry.at ?? Date.now(),
    tenantId: entry.tenantId,
    actorAccountId: entry.actor.accountId,
    actorEmail: entry.actor.email,
    actorVia: entry.actor.via,
    actingAdminId: entry.actingAdmin?.accountId ?? null,
    actingAdminEmail: entry.actingAdmin?.email ?? null,
    ip: entry.ip,
    entityType: entry.entityType,
    entityId: entry.entityId,
    action: entry.action,
    changes: entry.changes,
    route: entry.route,
    requestId: entry.requestId,
  };
}

/** Every column of `audit_log` but the id (the sequence's). */
const COLUMNS = Object.entries(getTableColumns(auditLog)).filter(([prop]) => prop !== 'id');

/** The column names of {@link AUDIT_RECORD}, in its order: `"at", "tenant_id", …`. */
export const AUDIT_COLUMN_NAMES = COLUMNS.map(([, c]) => c.name);

/**
 * The column definitions of an entry's row as a record, for `json_to_record($1) as r(…)` and `json_to_recordset`:
 * `"at" bigint, "tenant_id" integer, …` (every column but the id, with its SQL type).
 */
export const AUDIT_RECORD: SQL = sql.join(
  COLUMNS.map(([, c]) => sql.raw(`"${c.name}" ${c.getSQLType()}`)),
  sql`, `,
);

/**
 * The INSERT of any number of entries as one prepared statement of one parameter, `rows` (a JSON array of rows keyed
 * by column name): `insert into audit_log (…) select nextval(…), r.at, … from json_to_recordset($1) as r(at bigint, …)`.
 * PostgreSQL parses and plans it once per connection, and the driver sends one text however many entries the group
 * holds — a multi-row `VALUES` would be a new statement of 14 parameters a row for each group size.
 */
function insertOn(db: Db) {
  let query = prepared.get(db);
  if (!query) {
    const values = sql.join(
      Object.values(getTableColumns(auditLog)).map((c) =>
        c.name === 'id' ? sql`nextval(pg_get_serial_sequence('audit_log', 'id'))` : sql.raw(`r."${c.name}"`),
      ),
      sql`, `,
    );
    query = db
      .insert(auditLog)
      .select(sql`select ${values} from json_to_recordset(${sql.placeholder('rows')}::json) as r(${AUDIT_RECORD})`)
      .prepare('audit_insert_rows');
    prepared.set(db, query);
  }
  return query;
}
const prepared = new WeakMap<Db, { execute: (p: { rows: string }) => Promise<unknown> }>();

/** The row's properties and their column names, but the id (the sequence's). */
const ROW_COLUMNS = COLUMNS.map(([prop, column]) => [prop as keyof typeof auditLog.$inferInsert, column.name] as const);

/** `entry` as the JSON object of its row, keyed by column name (what {@link AUDIT_RECORD} reads). */
export function jsonRowOf(entry: TAuditEntryInput): Record<string, unknown> {
  const row = rowOf(entry);
  const out: Record<string, unknown> = {};
  for (const [prop, name] of ROW_COLUMNS) out[name] = row[prop] ?? null;
  return out;
}

/**
 * Inserts `entry`.
 * @throws the database error when the insert fails (the hooks log it: the change itself has committed).
 */
export async function recordAudit(db: Db, entry: TAuditEntryInput): Promise<void> {
  await recordAudits(db, [entry]);
}

/**
 * Inserts `entries` in one statement (nothing for none).
 * @throws the database error when the insert fails; then none is stored.
 */
export async function recordAudits(db: Db, entries: readonly TAuditEntryInput[]): Promise<void> {
  if (entries.length > 0) await insertOn(db).execute({ rows: JSON.stringify(entries.map(jsonRowOf)) });
}
