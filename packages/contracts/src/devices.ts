/** Devices (spec §3 "Device", §7 `/frontstage/v1/devices`, `projects/{id}/devices`). */
import { z } from 'zod';
import { ZIdText } from './input.js';
import { MAX_BULK_DEVICES, NAME_MAX, NAME_SHORT_MAX } from './limits.js';
import { PROJECT_ROLE_PERMISSIONS } from './project-roles.js';
import { ZStatusGroups } from './status-word.js';
import { ZListQuery, zPage } from './pagination.js';
import { TANGRAM_ID_LENGTH, TANGRAM_PART_WIDTHS, ZSerialNumber } from './tangram-id.js';
import { ZTelemetryValueType } from './telemetry-values.js';

/** A device is `online` when the server heard from it within this window, in milliseconds (docs/decisions/catalogue.md). */
export const DEVICE_ONLINE_WINDOW_MS = 2 * 60_000;

/** `{tangramId}` path parameter: the full Tangram ID or its hex form, any case (§3 "converted to full Tangram ID"). */
export const ZTangramIdParam = z.object({
  tangramId: z
    .string()
    .regex(new RegExp(`^[0-9A-Fa-f]{${TANGRAM_ID_LENGTH}}$`), `${TANGRAM_ID_LENGTH} hex digits`)
    .meta({ examples: ['540001000100010000000000000001'] }),
});

/** POST projects/{id}/devices: register one device. */
export const ZDeviceRegister = z.object({
  serial_number: ZSerialNumber,
  name: z.string().trim().min(1).max(NAME_MAX).optional(),
});
export type TDeviceRegister = z.infer<typeof ZDeviceRegister>;

/**
 * The key two serial numbers are compared by: trimmed, upper-cased, left-padded to 12 hex digits (`a1` = `00A1`),
 * the serial part of the Tangram ID.
 */
export function serialKey(serial: string): string {
  return serial.trim().toUpperCase().padStart(TANGRAM_PART_WIDTHS.serial_number, '0');
}

/** The message of a serial number repeated within one bulk registration (per line, at the repeat's index). */
export const DUPLICATE_SERIAL = 'duplicate serial number';
/** The message of a serial number already registered (409 details of a bulk registration, per line). */
export const ALREADY_REGISTERED = 'already registered';

/**
 * POST projects/{id}/devices/bulk: register 1–MAX_BULK_DEVICES devices, all or nothing
 * (docs/decisions/devices-bulk.md). Either `devices` (serial numbers with optional names) or the shorthand
 * `serial_numbers`, not both. Serials must be unique within the list: each repeat is an issue at its own index.
 */
export const ZDeviceBulkRegister = z
  .object({
    serial_numbers: z.array(ZSerialNumber).min(1).max(MAX_BULK_DEVICES).optional(),
    devices: z.array(ZDeviceRegister).min(1).max(MAX_BULK_DEVICES).optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.devices === undefined) === (body.serial_numbers === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['devices'], message: 'give either devices or serial_numbers' });
      return;
    }
    const serials = body.devices?.map((d) => d.serial_number) ?? body.serial_numbers ?? [];
    const seen = new Set<string>();
    serials.forEach((serial, i) => {
      if (typeof serial !== 'string') return;
      const key = serialKey(serial);
      if (seen.has(key)) {
        const path = body.devices ? ['devices', i, 'serial_number'] : ['serial_numbers', i];
        ctx.addIssue({ code: 'custom', path, message: DUPLICATE_SERIAL });
      }
      seen.add(key);
    });
  });
export type TDeviceBulkRegister = z.infer<typeof ZDeviceBulkRegister>;

/** PUT devices/{id}: name and nickname (nickname ≤ 20, a short label). */
export const ZDeviceUpdate = z.object({
  name: z.string().trim().min(1).max(NAME_MAX).optional(),
  nickname: z.string().trim().max(NAME_SHORT_MAX).optional(),
});
export type TDeviceUpdate = z.infer<typeof ZDeviceUpdate>;

/** A device as presented. `sno` is the serial number part (§3). */
export const ZDevice = z.object({
  id: z.number().int(),
  tangram_id: z.string(),
  tangram_id_hex: z.string(),
  name: z.string(),
  sno: z.string(),
  nickname: z.string(),
  project_id: z.number().int(),
  project_name: z.string(),
  product_id: z.number().int(),
  product_name: z.string(),
  online: z.boolean(),
  last_seen_at: z.number().nullable(),
  created_at: z.number(),
});
export type TDevice = z.infer<typeof ZDevice>;

/** The registration answer: the device and its MQTT secret, shown once. */
export const ZDeviceRegistered = ZDevice.extend({ device_secret: z.string() });
export type TDeviceRegistered = z.infer<typeof ZDeviceRegistered>;
/**
 * POST devices/{tangramId}/secret (no body; path parameter {@link ZTangramIdParam}): the device's new MQTT secret
 * (256-bit, base64url), answered once and never readable again; the old one stops working at once
 * (docs/decisions/devices-bulk.md "Regenerating a device's secret").
 */
export const ZDeviceSecret = z.object({ tangram_id: z.string(), device_secret: z.string() });
export type TDeviceSecret = z.infer<typeof ZDeviceSecret>;
/** POST projects/{id}/devices/bulk answers one registration per serial, in request order. */
export const ZDeviceRegisteredList = z.array(ZDeviceRegistered);

/** GET devices, v2/devices, projects/{id}/devices: a page of devices. */
export const ZDeviceList = zPage(ZDevice);

/** `?project_id=` filter of the device list, on top of paging and `q`. */
export const ZDeviceListFilter = z.object({
  project_id: ZIdText.optional(),
});
/** `?page=&limit=&q=&project_id=` of GET devices and v2/devices; `q` matches name, nickname or Tangram ID. */
export const ZDeviceListQuery = ZListQuery.extend(ZDeviceListFilter.shape);
export type TDeviceListQuery = z.infer<typeof ZDeviceListQuery>;

/** Device ingest counters: points rejected per reason (bad payload, unknown key, over rate). */
export const ZDeviceIngestStats = z.record(z.string(), z.number().int());

/** GET v2/devices/{tangramId}: the device with what its detail page needs (project status definition, sensors). */
export const ZDeviceDetail = ZDevice.extend({
  status_groups: ZStatusGroups,
  sensors: z.array(
    z.object({
      key: z.string(),
      name: z.string(),
      unit: z.string(),
      value_count: z.number().int(),
      enabled: z.boolean(),
      /** The type of the key's values (telemetry-values.ts). */
      value_type: ZTelemetryValueType,
    }),
  ),
  ingest_rejected: ZDeviceIngestStats,
  /** May publish for other devices with ThingsBoard's gateway API (docs/decisions/device-apis.md "Gateway"). */
  is_gateway: z.boolean(),
  /**
   * What the caller may do with this device: every permission for vendors, admins and users authorised to it, the
   * union of their roles' permissions for project-role members (docs/decisions/project-roles.md); the console hides
   * what is not there.
   */
  permissions: z.array(z.enum(PROJECT_ROLE_PERMISSIONS)),
});
export type TDeviceDetail = z.infer<typeof ZDeviceDetail>;
