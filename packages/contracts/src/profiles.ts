/**
 * The profile calls of spec §7 (docs/decisions/sensors.md "Profiles", devices.md "Profiles"): what a project's
 * devices report and what product it is built on (vendor, by project), and what one device reports and its decoded
 * status word (anyone who may see the device), plus the tenants whose devices the caller may open.
 */
import { z } from 'zod';
import { API } from './api-paths.js';
import { ZProduct, ZProductFunctions } from './products.js';
import { ZStatusGroups } from './status-word.js';
import { ZDecodedStatus } from './telemetry.js';

/** Paths of the profile calls (prefix `/frontstage/v1`). */
export const profilePaths = {
  projectTelemetries: (projectId: number) => `${API.frontstage}/${projectId}/profile/telemetries`,
  projectProduct: (projectId: number) => `${API.frontstage}/projects/profile/product/${projectId}`,
  deviceTelemetries: (tangramId: string) => `${API.frontstage}/devices/${tangramId}/profile/telemetries`,
  deviceStatus: (tangramId: string) => `${API.frontstage}/devices/${tangramId}/profile/status`,
  accessibleTenants: `${API.frontstage}/devices/getAccessAbleTenants`,
} as const;

/** One telemetry key a project's devices report: its sensor's name, unit, values per point, and periods (server ms). */
export const ZTelemetryProfileItem = z.object({
  key: z.string(),
  name: z.string(),
  unit: z.string(),
  value_count: z.number().int().min(1).max(3),
  enabled: z.boolean(),
  upload_period: z.number().int(),
  save_period: z.number().int(),
  update_period: z.number().int(),
});
export type TTelemetryProfileItem = z.infer<typeof ZTelemetryProfileItem>;

/** GET {id}/profile/telemetries: the telemetry keys of project `id`, in configuration order. */
export const ZProjectTelemetryProfile = z.object({ project_id: z.number().int(), telemetries: z.array(ZTelemetryProfileItem) });
export type TProjectTelemetryProfile = z.infer<typeof ZProjectTelemetryProfile>;

/** GET projects/profile/product/{id}: the product project `id` is built on, its hardware module and its functions. */
export const ZProjectProductProfile = z.object({
  project_id: z.number().int(),
  product: ZProduct,
  tangram_product: z.object({ id: z.number().int(), name: z.string(), model_number: z.string() }),
  functions: ZProductFunctions,
});
export type TProjectProductProfile = z.infer<typeof ZProjectProductProfile>;

/** GET devices/{tangramId}/profile/telemetries: the keys the device reports (its project's). */
export const ZDeviceTelemetryProfile = z.object({ tangram_id: z.string(), telemetries: z.array(ZTelemetryProfileItem) });
export type TDeviceTelemetryProfile = z.infer<typeof ZDeviceTelemetryProfile>;

/** GET devices/{tangramId}/profile/status: the project's status groups and the device's last status word, decoded. */
export const ZDeviceStatusProfile = z.object({
  tangram_id: z.string(),
  status_groups: ZStatusGroups,
  status: ZDecodedStatus.nullable(),
});
export type TDeviceStatusProfile = z.infer<typeof ZDeviceStatusProfile>;

/** GET devices/getAccessAbleTenants: the tenants whose devices the caller may open, with how many it sees. */
export const ZAccessibleTenants = z.object({
  data: z.array(z.object({ id: z.number().int(), name: z.string(), device_count: z.number().int() })),
});
export type TAccessibleTenants = z.infer<typeof ZAccessibleTenants>;
