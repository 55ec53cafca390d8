/**
 * The audit log as CSV (docs/decisions/audit-log.md "CSV"): the entries the caller may read matching the filters,
 * newest first, columns AUDIT_CSV_COLUMNS, read in keyset batches and streamed through csv-stringify (the alerts CSV's
 * way). Text a person typed is neutralised against spreadsheet formulas. An empty selection still answers the header.
 */
import { Readable } from 'node:stream';
import { and, desc, sql, type SQL } from 'drizzle-orm';
import { stringify, type Stringifier } from 'csv-stringify';
import { AUDIT_CSV_COLUMNS, type TAuditQuery } from '@tessera/contracts';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';
import { csvText } from '../alerts/download.js';
import { auditWhere } from './filters.js';
import type { TAuditRow } from './presenters.js';

/** Rows per read. */
export const AUDIT_CSV_BATCH_ROWS = 2_000;

/**
 * The CSV stream of the entries `principal` may read matching `q`, and its file name.
 * @throws AppError 403 when a vendor names another tenant.
 */
export function prepareAuditCsv(
  db: Db,
  principal: TPrincipal,
  q: TAuditQuery,
  batchRows = AUDIT_CSV_BATCH_ROWS,
): { filename: string; stream: Stringifier } {
  const where = auditWhere(principal, q);
  const stream = stringify({ header: true, columns: [...AUDIT_CSV_COLUMNS] });
  const source = Readable.from(csvRows(db, where, batchRows));
  source.on('error', (err) => stream.destroy(err));
  source.pipe(stream);
  return { filename: `audit-log_${new Date().toISOString().slice(0, 10)}.csv`, stream };
}

async function* csvRows(db: Db, where: SQL | undefined, batchRows: number) {
  let after: { at: number; id: number } | null = null;
  for (;;) {
    const page: SQL | undefined = after ? sql`(${auditLog.at}, ${auditLog.id}) < (${after.at}, ${after.id})` : undefined;
    const batch: TAuditRow[] = await db
      .select()
      .from(auditLog)
      .where(and(where, page))
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(batchRows);
    for (const row of batch) yield csvRow(row);
    if (batch.length < batchRows) return;
    const last = batch[batch.length - 1];
    after = { at: last.at, id: last.id };
  }
}

function csvRow(r: TAuditRow): (string | number)[] {
  return [
    r.id,
    new Date(r.at).toISOString(),
    r.at,
    r.tenantId ?? '',
    r.actorAccountId ?? '',
    csvText(r.actorEmail),
    r.actorVia ?? '',
    r.actingAdminId ?? '',
    csvText(r.actingAdminEmail),
    r.ip ?? '',
    r.entityType,
    csvText(r.entityId),
    r.action,
    csvText(JSON.stringify(r.changes)),
    r.route ?? '',
    r.requestId ?? '',
  ];
}
