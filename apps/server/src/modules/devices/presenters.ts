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

/** A device view with what the v2 detail adds (device-queries.ts `findDeviceDetailView`). */
export interface TDeviceDetailView extends TDeviceView {
  statusGroups: TStatusGroup[];
  /** The project's sensors, by id. */
  sensors: Pick<typeof projectSensors.$inferSelect, 'key' | 'name' | 'unit' | 'valueCount' | 'enabled' | 'valueType'>[];
  rejected: { reason: string; count: number }[];
}

/**
 * True when the device was heard from within {@link DEVICE_ONLINE_WINDOW_MS} of `nowMs` and, when a gateway said it
 * left (or the gateway's connection dropped) at `gatewayLeftAt`, was heard from since (docs/decisions/device-apis.md
 * "Gateway": online state).
 */
export function isOnline(lastSeenAt: number | null, nowMs: number, gatewayLeftAt: number | null = null): boolean {
  if (lastSeenAt === null || nowMs - lastSeenAt > DEVICE_ONLINE_WINDOW_MS) return false;
  return gatewayLeftAt === null || lastSeenAt > gatewayLeftAt;
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
    online: isOnline(d.lastSeenAt, nowMs, d.gatewayLeftAt),
    last_seen_at: d.lastSeenAt,
    created_at: d.createdAt,
  };
}

/** A detail view (device, its project's status definition, sensors and ingest counters) → ZDeviceDetail. */
export function presentDeviceDetail(view: TDeviceDetailView, permissions: TDeviceDetail['permissions']): TDeviceDetail {
  return {
    ...presentDevice(view),
    status_groups: view.statusGroups,
    sensors: view.sensors.map((s) => ({
      key: s.key,
      name: s.name,
      unit: s.unit,
      value_count: s.valueCount,
      enabled: s.enabled,
      value_type: s.valueType,
    })),
    ingest_rejected: Object.fromEntries(view.rejected.map((r) => [r.reason, r.count])),
    is_gateway: view.device.isGateway,
    permissions,
  };
}
