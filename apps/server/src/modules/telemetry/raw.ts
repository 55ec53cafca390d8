/**
 * Raw rows of one key (spec §7 `telemetries/value/timeseries`; the form third-party scripts use with a bearer
 * JWT or API key): `[{ ts, svc_recv_ts, key, v1, v2, v3 }]` in ts order, range inclusive, at most MAX_RAW_ROWS.
 */
import { and, asc, between, eq } from 'drizzle-orm';
import { HISTORY_RANGE_DAYS, MAX_RAW_ROWS, type TRawTimeseriesQuery, type TTelemetryRow } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { badRequest } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import { telemetry } from '../../db/schema.js';
import { deviceFor } from '../devices/access.js';
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
  const rows = await db
    .select()
    .from(telemetry)
    .where(and(eq(telemetry.deviceId, device.id), eq(telemetry.key, q.key), between(telemetry.ts, q.startTs, q.endTs)))
    .orderBy(asc(telemetry.ts))
    .limit(maxRows + 1);
  if (rows.length > maxRows) throw badRequest(`the range holds more than ${maxRows} rows; choose a shorter period`);
  return rows.map(presentRow);
}
