/**
 * Which entries a caller may read and which the filters select (docs/decisions/audit-log.md "Who reads"): a vendor
 * its own tenant's entries, whatever the filters say; the platform admin every tenant's, or one tenant's with
 * `tenant_id`. A vendor naming another tenant is refused, not quietly answered with its own.
 */
import { and, eq, gte, ilike, lte, or, sql, type SQL } from 'drizzle-orm';
import type { TAuditQuery } from '@tessera/contracts';
import { forbidden } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import { auditLog } from '../../db/schema.js';
import { searchAny } from '../../db/sql-helpers.js';

const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The WHERE clause of the entries `principal` may read that match `q`.
 * @throws AppError 403 FORBIDDEN when a vendor names another tenant in `tenant_id`.
 */
export function auditWhere(principal: TPrincipal, q: TAuditQuery): SQL | undefined {
  let tenant: SQL | undefined;
  if (principal.level === 'admin') {
    tenant = q.tenant_id === undefined ? undefined : eq(auditLog.tenantId, q.tenant_id);
  } else {
    if (q.tenant_id !== undefined && q.tenant_id !== principal.tenantId) throw forbidden("another tenant's audit log");
    tenant = eq(auditLog.tenantId, principal.tenantId);
  }
  const actor = q.actor
    ? or(ilike(auditLog.actorEmail, escapeLike(q.actor)), ilike(auditLog.actingAdminEmail, escapeLike(q.actor)))
    : undefined;
  const text = q.q
    ? or(
        searchAny(q.q, [auditLog.entityId, auditLog.actorEmail, auditLog.actingAdminEmail, auditLog.route, auditLog.ip]),
        ilike(sql`${auditLog.changes}::text`, escapeLike(q.q)),
      )
    : undefined;
  return and(
    tenant,
    q.from === undefined ? undefined : gte(auditLog.at, q.from),
    q.to === undefined ? undefined : lte(auditLog.at, q.to),
    actor,
    q.entity_type ? eq(auditLog.entityType, q.entity_type) : undefined,
    q.action ? eq(auditLog.action, q.action) : undefined,
    text,
  );
}
