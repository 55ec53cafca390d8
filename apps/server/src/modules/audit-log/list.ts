/** `GET /frontstage/v1/audit-log`: a page of the entries the caller may read, newest first (filters.ts). */
import { count, desc } from 'drizzle-orm';
import type { TAuditPage, TAuditQuery } from '@tessera/contracts';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { pageOf } from '../../db/paging.js';
import { auditLog } from '../../db/schema.js';
import { auditWhere } from './filters.js';
import { presentAuditEntry } from './presenters.js';

/**
 * One page of entries matching `q` that `principal` may read.
 * @throws AppError 403 when a vendor names another tenant.
 */
export async function listAuditLog(db: Db, principal: TPrincipal, q: TAuditQuery): Promise<TAuditPage> {
  const where = auditWhere(principal, q);
  return pageOf(
    q,
    db.select({ total: count() }).from(auditLog).where(where),
    (limit, offset) => db.select().from(auditLog).where(where).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(limit).offset(offset),
    presentAuditEntry,
  );
}
