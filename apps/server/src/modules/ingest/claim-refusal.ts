/**
 * ThingsBoard's device claiming, refused (docs/decisions/device-apis.md "Claiming"): a device publishing
 * `{"secretKey","durationMs"}` on `v1/devices/me/claim` (or posting it to `POST /api/v1/{token}/claim`, answered 403
 * `DEVICE_CLAIM_REFUSED` by device-apis/http-routes.ts), or a gateway `{"Device A":{…}}` on `v1/gateway/claim`, asks
 * that whoever enters that key within the duration becomes the device's owner. Tessera gives a user a device only
 * through an authorisation request its owner or a manager allows (modules/authz-requests), with a proof the platform
 * issues, so a claim is acknowledged and dropped — the connection stays open, so firmware that claims at start does
 * not fall into a reconnect loop — logged (throttled) with the reason, and counted on the device as `claim_refused`
 * (its ingest counters, the device detail's `ingest_rejected`).
 */
import { sql } from 'drizzle-orm';
import type { ThrottledLog } from '../../core/throttled-log.js';
import type { Db } from '../../db/client.js';
import { deviceIngestStats } from '../../db/schema.js';
import type { TIngestDevice } from './directory.js';

/** The counter a refused claim adds to (device_ingest_stats `reason`). */
export const CLAIM_REFUSED = 'claim_refused';

/** Why, in the log line (and the HTTP refusal's message). */
export const CLAIM_REASON = 'device claiming is not supported: users get a device through an authorisation request its owner allows';

/**
 * Refuses the claim `device` sent on `topic` (an MQTT topic, or the HTTP route's path template) at `nowMs`: logs it
 * through `log` (one line per device every 10 s) and counts it on the device.
 * @throws the database error (the publisher is not acknowledged and resends; over HTTP the request answers 503).
 */
export async function refuseClaim(
  db: Db,
  log: ThrottledLog,
  device: Pick<TIngestDevice, 'id' | 'tangramId'>,
  topic: string,
  nowMs = Date.now(),
): Promise<void> {
  log.warn(`claim:${device.tangramId}`, { tangramId: device.tangramId, topic, reason: CLAIM_REASON }, 'device claim refused');
  await db
    .insert(deviceIngestStats)
    .values({ deviceId: device.id, reason: CLAIM_REFUSED, count: 1, lastAt: nowMs })
    .onConflictDoUpdate({
      target: [deviceIngestStats.deviceId, deviceIngestStats.reason],
      set: { count: sql`${deviceIngestStats.count} + 1`, lastAt: nowMs },
    });
}
