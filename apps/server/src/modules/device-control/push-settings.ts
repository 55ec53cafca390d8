/**
 * `configFCMStatus` (spec §7 devices; docs/decisions/device-control.md "Push switch"): an account's
 * push-notification switch for one device. Only the preference is stored here; delivery through Firebase Cloud
 * Messaging comes with the mobile app, which registers its FCM token. Off until turned on.
 */
import { and, eq } from 'drizzle-orm';
import type { TFcmStatus } from '@tessera/contracts';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { devicePushSettings } from '../../db/schema.js';
import type { TDeviceRow } from '../devices/access.js';

/** The caller's switch for `device` (off, `updated_at` null, when never set). */
export async function getPushStatus(db: Db, principal: TPrincipal, device: TDeviceRow): Promise<TFcmStatus> {
  const [row] = await db
    .select()
    .from(devicePushSettings)
    .where(and(eq(devicePushSettings.deviceId, device.id), eq(devicePushSettings.accountId, principal.accountId)));
  return { tangram_id: device.tangramId, enabled: row?.enabled ?? false, updated_at: row?.updatedAt ?? null };
}

/** Sets the caller's switch for `device` (an upsert: one row per account and device). */
export async function setPushStatus(db: Db, principal: TPrincipal, device: TDeviceRow, enabled: boolean): Promise<TFcmStatus> {
  const updatedAt = Date.now();
  await db
    .insert(devicePushSettings)
    .values({ deviceId: device.id, accountId: principal.accountId, enabled, updatedAt })
    .onConflictDoUpdate({ target: [devicePushSettings.deviceId, devicePushSettings.accountId], set: { enabled, updatedAt } });
  return { tangram_id: device.tangramId, enabled, updated_at: updatedAt };
}
