/**
 * Which device tabs and controls a caller's permissions open (docs/decisions/project-roles.md "What each permission
 * lets a member do"): the console shows only what the server would answer with 200, and the server still checks.
 */
import type { TProjectRolePermission } from '@tessera/contracts';

/** The device detail tabs, in display order. */
export const DEVICE_TABS = ['telemetry-status', 'history-chart', 'realtime-chart', 'app-rules', 'remote-control', 'custom-page'] as const;
/** One of {@link DEVICE_TABS}. */
export type TDeviceTab = (typeof DEVICE_TABS)[number];

/** The permission each tab needs (the custom page needs none beyond seeing the device). */
export const TAB_PERMISSION: Record<TDeviceTab, TProjectRolePermission | null> = {
  'telemetry-status': 'view_telemetry',
  'history-chart': 'view_history',
  'realtime-chart': 'view_telemetry',
  'app-rules': 'receive_alerts',
  'remote-control': 'control_device',
  'custom-page': null,
};

/** The tabs `permissions` open, in display order (custom-page only when `hasCustomPage`). */
export function allowedTabs(permissions: readonly TProjectRolePermission[], hasCustomPage: boolean): TDeviceTab[] {
  return DEVICE_TABS.filter((tab) => {
    if (tab === 'custom-page') return hasCustomPage;
    const needed = TAB_PERMISSION[tab];
    return needed === null || permissions.includes(needed);
  });
}
