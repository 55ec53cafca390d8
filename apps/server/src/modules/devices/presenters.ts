/** Response shapes of the devices module (contracts' ZDevice, ZDeviceRegistered, ZDeviceDetail). Never a raw row. */
import { DEVICE_ONLINE_WINDOW_MS, tangramIdToHex, type TDevice, type TDeviceDetail, type TStatusGroup } from '@tessera/contracts';
import type { devices, projectSensors } from '../../db/schema.js';

/** A device row with the names the presenters need from its project and product. */
export interface TDeviceView {
  device: typeof devices.$inferSelect;
  projectName: string;
  productId: number;
  productName: string;
}

/** True when the device was heard from within {@link DEVICE_ONLINE_WINDOW_MS} of `nowMs`. */
export function isOnline(lastSeenAt: number | null, nowMs: number): boolean {
  return lastSeenAt !== null && nowMs - lastSeenAt <= DEVICE_ONLINE_WINDOW_MS;
}

/** A device view → ZDevice. `nowMs` fixes the `online` reading. */
export function presentDevice(view: TDeviceView, nowMs = Date.now()): TDevice {
  const d = view.device;
  return {
    id: d.id,
    tangram_id: d.tangramId,
    tangram_id_hex: tangramIdToHex(d.tangramId),
    name: d.name,
    sno: d.serialNumber,
    nickname: d.nickname,
    project_id: d.projectId,
    project_name: view.projectName,
    product_id: view.productId,
    product_name: view.productName,
    online: isOnline(d.lastSeenAt, nowMs),
    last_seen_at: d.lastSeenAt,
    created_at: d.createdAt,
  };
}

/** A device view plus its project's status definition, sensors and ingest counters → ZDeviceDetail. */
export function presentDeviceDetail(
  view: TDeviceView,
  statusGroups: TStatusGroup[],
  sensors: (typeof projectSensors.$inferSelect)[],
  rejected: { reason: string; count: number }[],
  permissions: TDeviceDetail['permissions'],
): TDeviceDetail {
  return {
    ...presentDevice(view),
    status_groups: statusGroups,
    sensors: sensors.map((s) => ({ key: s.key, name: s.name, unit: s.unit, value_count: s.valueCount, enabled: s.enabled })),
    ingest_rejected: Object.fromEntries(rejected.map((r) => [r.reason, r.count])),
    permissions,
  };
}
