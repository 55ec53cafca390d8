/** Device detail and update (spec §7 devices detail, PUT, v2 detail). Visibility per spec §6 via access.ts. */
import { eq } from 'drizzle-orm';
import type { TDevice, TDeviceDetail, TDeviceUpdate } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import type { TPrincipal } from '../../core/principal.js';
import { notFound } from '../../core/errors.js';
import { devices } from '../../db/schema.js';
import { auditedUpdate } from '../audit-log/audited-update.js';
import type { TChangeAudit } from '../audit-log/handler-rows.js';
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

/** The UPDATE of a device's name and nickname that writes its audit entry in the same statement. */
const updateDeviceAudited = auditedUpdate(devices, devices.id, { name: devices.name, nickname: devices.nickname }, 'device_update_audited');

/**
 * Sets the device's name and/or nickname (vendor only, enforced by the route). With `audit` (the audit log is on), the
 * UPDATE writes the change's audit entry in the same statement (audit-log/audited-update.ts): its before row is the
 * one the statement locked and replaced, its changed fields are computed there; a request that sets nothing reports the
 * row read instead (`audit.unchanged`).
 * @throws AppError 404 when it does not exist or is another tenant's (or was deleted before the UPDATE).
 */
export async function updateDevice(
  db: Db,
  principal: TPrincipal,
  tangramId: string,
  input: TDeviceUpdate,
  audit?: TChangeAudit,
): Promise<TDevice> {
  const view = await viewOrNotFound(db, principal, tangramId);
  if (input.name === undefined && input.nickname === undefined) {
    audit?.unchanged(view.device);
    return presentDevice(view);
  }
  let row: TDeviceRow | undefined;
  if (audit) {
    row = await updateDeviceAudited(db, view.device.id, { name: input.name, nickname: input.nickname }, audit.entry());
    if (row) audit.written();
  } else {
    [row] = await db.update(devices).set({ name: input.name, nickname: input.nickname }).where(eq(devices.id, view.device.id)).returning();
  }
  if (!row) throw notFound('device');
  return presentDevice({ ...view, device: row });
}
