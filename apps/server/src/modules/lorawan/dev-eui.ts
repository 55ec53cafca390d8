/**
 * A device's DevEUI (docs/decisions/lorawan.md "DevEUI"): read, set or cleared by a vendor or admin of the device's
 * tenant, as its access token is. Unique within the tenant, so an uplink names one device.
 */
import { eq } from 'drizzle-orm';
import { type TDeviceLorawan, type TDeviceLorawanInput, ZDeviceLorawanInput } from '@tessera/contracts';
import { conflict, notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { isUniqueViolation } from '../../db/sql-helpers.js';
import { deviceLorawan } from '../../db/schema.js';
import { findVisibleDevice } from '../devices/access.js';

/**
 * Device `tangramId`'s DevEUI (null when none is set).
 * @throws AppError 404 when the device does not exist or `principal` may not see it.
 */
export async function readDeviceDevEui(db: Db, principal: TPrincipal, tangramId: string): Promise<TDeviceLorawan> {
  const device = await findVisibleDevice(db, principal, tangramId);
  if (!device) throw notFound('device');
  const [row] = await db.select({ devEui: deviceLorawan.devEui }).from(deviceLorawan).where(eq(deviceLorawan.deviceId, device.id));
  return { tangram_id: device.tangramId, dev_eui: row?.devEui ?? null };
}

/**
 * Sets device `tangramId`'s DevEUI (null clears it); the next uplink naming it is stored for this device.
 * @throws AppError 404 when the device does not exist or `principal` may not see it; 409 CONFLICT when another device
 * of the tenant has this DevEUI.
 */
export async function setDeviceDevEui(
  db: Db,
  principal: TPrincipal,
  tangramId: string,
  input: TDeviceLorawanInput,
): Promise<TDeviceLorawan> {
  const device = await findVisibleDevice(db, principal, tangramId);
  if (!device) throw notFound('device');
  const { dev_eui: devEui } = ZDeviceLorawanInput.parse(input);
  if (devEui === null) {
    await db.delete(deviceLorawan).where(eq(deviceLorawan.deviceId, device.id));
    return { tangram_id: device.tangramId, dev_eui: null };
  }
  try {
    await db
      .insert(deviceLorawan)
      .values({ deviceId: device.id, tenantId: device.tenantId, devEui })
      .onConflictDoUpdate({ target: deviceLorawan.deviceId, set: { devEui, updatedAt: Date.now() } });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`another device of this tenant has DevEUI ${devEui}`);
    throw err;
  }
  return { tangram_id: device.tangramId, dev_eui: devEui };
}
