/**
 * Device profiles and accessible tenants (spec §7 devices "profile telemetries, profile status, getAccessAbleTenants";
 * docs/decisions/catalogue.md "Device profiles"): what one device reports (its project's telemetry keys), its
 * project's status groups with its last status word decoded, and the tenants whose devices the caller may open.
 */
import { eq } from 'drizzle-orm';
import type { TAccessibleTenants, TDeviceStatusProfile, TDeviceTelemetryProfile } from '@tessera/contracts';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { projects, tenants } from '../../db/schema.js';
import { telemetryKeysOf } from '../sensors/telemetry-profile.js';
import { presentStatus } from '../telemetry/presenters.js';
import { deviceFor } from './access.js';
import { countDevices } from './device-queries.js';

/**
 * The telemetry keys device `tangramId` reports (a profile, not data: anyone who may see the device).
 * @throws AppError 404 when the caller may not see it.
 */
export async function deviceTelemetryProfile(db: Db, principal: TPrincipal, tangramId: string): Promise<TDeviceTelemetryProfile> {
  const device = await deviceFor(db, principal, tangramId);
  return { tangram_id: device.tangramId, telemetries: await telemetryKeysOf(db, device.projectId) };
}

/**
 * The status groups of device `tangramId`'s project and its last status word decoded (a reading: `view_telemetry`).
 * @throws AppError 404 when the caller may not see it; 403 DEVICE_PERMISSION_DENIED without view_telemetry.
 */
export async function deviceStatusProfile(db: Db, principal: TPrincipal, tangramId: string): Promise<TDeviceStatusProfile> {
  const device = await deviceFor(db, principal, tangramId, 'view_telemetry');
  const [project] = await db.select({ groups: projects.statusGroups }).from(projects).where(eq(projects.id, device.projectId));
  return {
    tangram_id: device.tangramId,
    status_groups: project.groups,
    status: presentStatus(device.statusValue, device.statusTs, project.groups),
  };
}

/**
 * The tenants whose devices the caller may open, with how many of their devices it sees. Every account belongs to
 * one tenant and sees only that tenant's devices (§6: users through authorisations and roles), so this is the
 * caller's tenant; the list form leaves room for cross-tenant grants.
 */
export async function accessibleTenants(db: Db, principal: TPrincipal): Promise<TAccessibleTenants> {
  const [tenant] = await db.select({ id: tenants.id, name: tenants.name }).from(tenants).where(eq(tenants.id, principal.tenantId));
  if (!tenant) return { data: [] };
  return { data: [{ id: tenant.id, name: tenant.name, device_count: await countDevices(db, principal, {}) }] };
}
