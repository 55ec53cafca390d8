/**
 * Raw rows of one key (spec §7 `telemetries/value/timeseries`; the form third-party scripts use with a bearer
 * JWT or API key): `[{ ts, svc_recv_ts, key, v1, v2, v3 }]` in ts order, range inclusive, at most MAX_RAW_ROWS; a
 * point of a non-numeric key has its `value` (v1..v3 null; docs/decisions/telemetry.md "Values that are not numbers").
 */
import { sql } from 'drizzle-orm';
import { HISTORY_RANGE_DAYS, MAX_RAW_ROWS, type TRawTimeseriesQuery, type TTelemetryRow } from '@tessera/contracts';
import { rowsOf, type Db } from '../../db/client.js';
import { badRequest } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import { deviceFor } from '../devices/access.js';
import { anyPoints, type TAnyPointRow } from '../telemetry-store/raw-points.js';
import { presentRow } from './presenters.js';
import { assertRange } from './range.js';

/**
 * Raw rows of a visible device's key in [startTs, endTs].
 * @throws AppError 404 for an invisible device, 403 DEVICE_PERMISSION_DENIED without view_history; 400 for a bad range, a range over HISTORY_RANGE_DAYS, or more
 *   than `maxRows` rows (asking for a shorter range).
 */
export async function getRawValues(
  db: Db,
  principal: TPrincipal,
  q: TRawTimeseriesQuery,
  maxRows = MAX_RAW_ROWS,
): Promise<TTelemetryRow[]> {
  assertRange(q.startTs, q.endTs, HISTORY_RANGE_DAYS);
  const device = await deviceFor(db, principal, q.tangramId, 'view_history');
  const rows = rowsOf<TAnyPointRow>(
    await db.execute(sql`select ts, svc_recv_ts, v1, v2, v3, value from ${anyPoints(device.id, q.key, q.startTs, q.endTs)} as p
      order by ts limit ${maxRows + 1}`),
  );
  if (rows.length > maxRows) throw badRequest(`the range holds more than ${maxRows} rows; choose a shorter period`);
  return rows.map((r) => presentRow({ key: q.key, ts: r.ts, svcRecvTs: r.svc_recv_ts, v1: r.v1, v2: r.v2, v3: r.v3, value: r.value }));
}
