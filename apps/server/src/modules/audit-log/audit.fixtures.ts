/** Test helpers of the audit log: the entries of one tenant or entity, read straight from the table. */
import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';
import type { TAuditRow } from './presenters.js';

/** Entries matching `where`, newest first. */
export async function auditRows(
  db: Db,
  where: { tenantId?: number; entityType?: string; entityId?: string; action?: string },
): Promise<TAuditRow[]> {
  const conditions: (SQL | undefined)[] = [
    where.tenantId === undefined ? undefined : eq(auditLog.tenantId, where.tenantId),
    where.entityType === undefined ? undefined : eq(auditLog.entityType, where.entityType),
    where.entityId === undefined ? undefined : eq(auditLog.entityId, where.entityId),
    where.action === undefined ? undefined : eq(auditLog.action, where.action),
  ];
  return db
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.id));
}

/** The newest entry matching `where`; throws when there is none. */
export async function lastAudit(db: Db, where: Parameters<typeof auditRows>[1]): Promise<TAuditRow> {
  const [row] = await auditRows(db, where);
  if (!row) throw new Error(`no audit entry for ${JSON.stringify(where)}`);
  return row;
}
