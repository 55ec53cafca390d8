/**
 * CSV of the alert history (docs/decisions/alerts.md "CSV"): the alerts the caller may see matching the history
 * filters, newest first, columns ALERT_CSV_COLUMNS. Read in keyset batches and streamed through csv-stringify with
 * back-pressure. An empty selection is 404 NO_DATA_IN_PERIOD (spec §8 "no data in period"), before any byte is sent.
 */
import { Readable } from 'node:stream';
import { and, desc, sql, type SQL } from 'drizzle-orm';
import { stringify, type Stringifier } from 'csv-stringify';
import { ALERT_CSV_COLUMNS, TS_NO_DATA_CODE, type TAlert, type TAlertFilterQuery } from '@tessera/contracts';
import { AppError } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { alerts } from '../../db/schema.js';
import { selectAlertViews } from './alert-view.js';
import { alertFilterWhere, checkedAlertRange } from './filters.js';
import { presentAlert, type TAlertView } from './presenters.js';

/** Rows per read. */
export const ALERT_CSV_BATCH_ROWS = 2_000;

/** A prepared download: a file name and the CSV stream. */
export interface TAlertCsv {
  filename: string;
  stream: Stringifier;
}

/**
 * Prepares the CSV of the alerts `principal` may see matching `q`.
 * @throws AppError 400 for a bad range or one over ALERT_RANGE_MAX_DAYS; 404 NO_DATA_IN_PERIOD when none match.
 */
export async function prepareAlertCsv(
  db: Db,
  principal: TPrincipal,
  q: TAlertFilterQuery,
  batchRows = ALERT_CSV_BATCH_ROWS,
): Promise<TAlertCsv> {
  const range = checkedAlertRange(q);
  const where = alertFilterWhere(principal, q, range);
  const [any] = await db.select({ id: alerts.id }).from(alerts).where(where).limit(1);
  if (!any) throw new AppError(404, TS_NO_DATA_CODE, 'no data in the selected period');
  const stream = stringify({ header: true, columns: [...ALERT_CSV_COLUMNS] });
  const source = Readable.from(csvRows(db, where, batchRows));
  source.on('error', (err) => stream.destroy(err));
  source.pipe(stream);
  return { filename: `alerts_${range.from}_${range.to}.csv`, stream };
}

async function* csvRows(db: Db, where: SQL, batchRows: number) {
  let after: { firstSeenAt: number; id: number } | null = null;
  for (;;) {
    const page: SQL | undefined = after ? sql`(${alerts.firstSeenAt}, ${alerts.id}) < (${after.firstSeenAt}, ${after.id})` : undefined;
    const batch: TAlertView[] = await selectAlertViews(db)
      .where(and(where, page))
      .orderBy(desc(alerts.firstSeenAt), desc(alerts.id))
      .limit(batchRows);
    for (const view of batch) yield csvRow(presentAlert(view));
    if (batch.length < batchRows) return;
    const last: TAlertView['alert'] = batch[batch.length - 1].alert;
    after = { firstSeenAt: last.firstSeenAt, id: last.id };
  }
}

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());

/**
 * Text a person or a device typed is neutralised against spreadsheet formula injection: a cell starting with
 * `= + - @`, tab or carriage return gets a leading apostrophe (OWASP "CSV injection").
 */
export function csvText(value: string | null): string {
  if (value === null) return '';
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function csvRow(a: TAlert): (string | number)[] {
  return [
    a.id,
    a.level,
    a.state,
    csvText(a.message),
    a.rule.kind,
    csvText(a.rule.name),
    a.device.tangram_id,
    csvText(a.device.name),
    csvText(a.project.name),
    csvText(a.product.name),
    csvText(a.trigger?.key ?? null),
    a.trigger?.value ?? '',
    iso(a.first_seen_at),
    a.first_seen_at,
    iso(a.last_seen_at),
    a.last_seen_at,
    a.count,
    iso(a.acknowledged_at),
    csvText(a.acknowledged_by),
    iso(a.resolved_at),
    csvText(a.resolved_by),
    a.resolved_reason ?? '',
  ];
}
