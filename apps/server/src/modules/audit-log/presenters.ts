/** The API shape of an audit entry (contracts ZAuditEntry) from its row. */
import type { TAuditEntry } from '@tessera/contracts';
import type { auditLog } from '../../db/schema.js';

/** An audit_log row. */
export type TAuditRow = typeof auditLog.$inferSelect;

/** Presents `row` as the API answers it. */
export function presentAuditEntry(row: TAuditRow): TAuditEntry {
  const via = row.actorVia === 'jwt' || row.actorVia === 'api_key' ? row.actorVia : null;
  return {
    id: row.id,
    at: row.at,
    tenant_id: row.tenantId,
    actor: { account_id: row.actorAccountId, email: row.actorEmail, via },
    acting_admin:
      row.actingAdminId === null && row.actingAdminEmail === null ? null : { account_id: row.actingAdminId, email: row.actingAdminEmail },
    ip: row.ip,
    entity_type: row.entityType,
    entity_id: row.entityId,
    action: row.action,
    changes: row.changes,
    route: row.route,
    request_id: row.requestId,
  };
}
