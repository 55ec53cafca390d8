/** Device detail and update (spec §7 devices detail, PUT, v2 detail). Visibility per spec §6 via access.ts. */
import { eq } from 'drizzle-orm';
import type { TDevice, TDeviceDetail, TDeviceUpdate } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import type { TPrincipal } from '../../core/principal.js';
import { notFound } from '../../core/errors.js';
import { devices } from '../../db/schema.js';
import { devicePermissions } from './access.js';
import { findDeviceDetailView, findDeviceView } from './device-queries.js';
import { presentDevice, presentDeviceDetail, type TDeviceView } from './presenters.js';

/** A device's row as Drizzle reads it. */
type TDeviceRow = typeof devices.$inferSelect;

async function viewOrNotFound(db: Db, principal: TPrincipal, tangramId: string): Promise<TDeviceView> {
  const view = await findDeviceView(db, principal, tangramId);
  if (!view) throw notFound('device');
  return view;
}

/** The device `tangramId`. @throws AppError 404 when it does not exist or `principal` may not see it. */
export async function getDevice(db: Db, principal: TPrincipal, tangramId: string): Promise<TDevice> {
  return presentDevice(await viewOrNotFound(db, principal, tangramId));
}

/**
 * The device with its project's status groups and sensors, its ingest rejection counters and what the caller may do
 * with it (v2 detail).
 * @throws AppError 404 when it does not exist or `principal` may not see it.
 */
export async function getDeviceDetail(db: Db, principal: TPrincipal, tangramId: string): Promise<TDeviceDetail> {
  const view = await findDeviceDetailView(db, principal, tangramId);
  if (!view) throw notFound('device');
  return presentDeviceDetail(view, await devicePermissions(db, principal, view.device.id));
}

/**
 * Sets the device's name and/or nickname (vendor only, enforced by the route). `reportRows`, when given, receives the
 * device's row as read just before the change and the row the UPDATE returned (the same row twice when nothing is
 * set): the audit log's entry is made of them (audit-log/handler-rows.ts), with no read of its own.
 * @throws AppError 404 when it does not exist or is another tenant's.
 */
export async function updateDevice(
  db: Db,
  principal: TPrincipal,
  tangramId: string,
  input: TDeviceUpdate,
  reportRows?: (before: TDeviceRow, after: TDeviceRow) => void,
): Promise<TDevice> {
  const view = await viewOrNotFound(db, principal, tangramId);
  if (input.name === undefined && input.nickname === undefined) {
    reportRows?.(view.device, view.device);
    return presentDevice(view);
  }
  const [row] = await db
    .update(devices)
    .set({ name: input.name, nickname: input.nickname })
    .where(eq(devices.id, view.device.id))
    .returning();
  reportRows?.(view.device, row);
  return presentDevice({ ...view, device: row });
}
