/**
 * Writes one audit entry (docs/decisions/audit-log.md). Called by the route hooks (hooks.ts) and by domain code that
 * changes something outside a request. Insert only: the table refuses UPDATE and DELETE (migration 0021).
 */
import type { TAuditChanges } from '@tessera/contracts';
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

/**
 * Inserts `entry`.
 * @throws the database error when the insert fails (the hooks log it: the change itself has committed).
 */
export async function recordAudit(db: Db, entry: TAuditEntryInput): Promise<void> {
  await db.insert(auditLog).values(rowOf(entry));
}

/**
 * Inserts `entries` in one statement (nothing for none).
 * @throws the database error when the insert fails; then none is stored.
 */
export async function recordAudits(db: Db, entries: readonly TAuditEntryInput[]): Promise<void> {
  if (entries.length > 0) await db.insert(auditLog).values(entries.map(rowOf));
}
