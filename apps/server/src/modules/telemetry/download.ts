/**
 * CSV download of raw rows (spec §7 `download`; §5 "no data in period"). Rows are read in keyset batches and
 * streamed through csv-stringify with back-pressure, so a 90-day range never sits in memory. Order: key, then ts. A
 * non-numeric key's points fill the `value` column (v1..v3 empty).
 */
import { Readable } from 'node:stream';
import { asc, eq, sql } from 'drizzle-orm';
import { stringify, type Stringifier } from 'csv-stringify';
import {
  DOWNLOAD_CSV_COLUMNS,
  HISTORY_RANGE_MAX_DAYS,
  TS_NO_DATA_CODE,
  ZTelemetryKey,
  type TDownloadQuery,
  type TTelemetryValue,
} from '@tessera/contracts';
import { rowsOf, type Db } from '../../db/client.js';
import { AppError, badRequest } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import { telemetryLatest } from '../../db/schema.js';
import { deviceFor } from '../devices/access.js';
import { anyPoints, type TAnyPointRow } from '../telemetry-store/raw-points.js';
import { assertRange } from './range.js';

/** Rows per read. */
export const DOWNLOAD_BATCH_ROWS = 5_000;

/** A prepared download: a file name and the CSV stream. */
export interface TCsvDownload {
  filename: string;
  stream: Stringifier;
}

/**
 * Prepares the CSV of a visible device's `keys` (all reported keys when absent) in [startTs, endTs].
 * @throws AppError 404 for an invisible device, 403 DEVICE_PERMISSION_DENIED without download_data or a range without data (code NO_DATA_IN_PERIOD); 400 for a bad
 *   key list, a bad range or one over HISTORY_RANGE_MAX_DAYS.
 */
export async function prepareDownload(
  db: Db,
  principal: TPrincipal,
  q: TDownloadQuery,
  batchRows = DOWNLOAD_BATCH_ROWS,
): Promise<TCsvDownload> {
  assertRange(q.startTs, q.endTs, HISTORY_RANGE_MAX_DAYS);
  const device = await deviceFor(db, principal, q.tangramId, 'download_data');
  const keys = q.keys ? parseKeys(q.keys) : await reportedKeys(db, device.id);
  const [any] = keys.length
    ? rowsOf<{ ts: number }>(
        await db.execute(
          sql`select p.ts from (values ${sql.join(
            keys.map((k) => sql`(${k})`),
            sql`, `,
          )}) as k(key) cross join lateral (select ts from ${anyPoints(device.id, sql`k.key`, q.startTs, q.endTs)} as a limit 1) as p limit 1`,
        ),
      )
    : [];
  if (!any) throw new AppError(404, TS_NO_DATA_CODE, 'no data in the selected period');
  const stream = stringify({ header: true, columns: [...DOWNLOAD_CSV_COLUMNS] });
  const source = Readable.from(csvRows(db, device.id, keys, q.startTs, q.endTs, batchRows));
  source.on('error', (err) => stream.destroy(err));
  source.pipe(stream);
  return { filename: `${device.tangramId}_${q.startTs}_${q.endTs}.csv`, stream };
}

async function* csvRows(db: Db, deviceId: number, keys: string[], startTs: number, endTs: number, batchRows: number) {
  for (const key of keys) {
    let after = startTs - 1;
    for (;;) {
      const batch = rowsOf<TAnyPointRow>(
        await db.execute(sql`select ts, svc_recv_ts, v1, v2, v3, value from ${anyPoints(deviceId, key, after + 1, endTs)} as a
          order by ts limit ${batchRows}`),
      );
      for (const r of batch) {
        const ts = Number(r.ts);
        yield [new Date(ts).toISOString(), ts, Number(r.svc_recv_ts), key, r.v1, r.v2, r.v3, csvValue(r.value)];
      }
      if (batch.length < batchRows) break;
      after = Number(batch[batch.length - 1].ts);
    }
  }
}

/**
 * The `value` cell of a non-numeric key's point (docs/decisions/telemetry.md "Values that are not numbers"): a string
 * as it is, a boolean as `true`/`false`, JSON compact; empty for a number.
 */
export function csvValue(value: TTelemetryValue | null): string | null {
  if (value === null) return null;
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function parseKeys(list: string): string[] {
  const keys = [
    ...new Set(
      list
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    ),
  ];
  if (keys.length === 0 || !keys.every((k) => ZTelemetryKey.safeParse(k).success))
    throw badRequest('keys must be a comma-separated list of telemetry keys');
  return keys;
}

async function reportedKeys(db: Db, deviceId: number): Promise<string[]> {
  const rows = await db
    .select({ key: telemetryLatest.key })
    .from(telemetryLatest)
    .where(eq(telemetryLatest.deviceId, deviceId))
    .orderBy(asc(telemetryLatest.key));
  return rows.map((r) => r.key);
}
