/** The device a time-series request names, if the caller may see it (spec §6; foreign = missing = 404). */
import type { Db } from '../../db/client.js';
import { notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import { findVisibleDevice, type TDeviceRow } from '../devices/access.js';

/**
 * The visible device with `tangramId`.
 * @throws AppError 404 when it does not exist or `principal` may not see it.
 */
export async function visibleDeviceOr404(db: Db, principal: TPrincipal, tangramId: string): Promise<TDeviceRow> {
  const device = await findVisibleDevice(db, principal, tangramId);
  if (!device) throw notFound('device');
  return device;
}
