/**
 * Which device tabs and controls a caller's permissions open (docs/decisions/project-roles.md "What each permission
 * lets a member do"): the console shows only what the server would answer with 200, and the server still checks.
 */
import type { TProjectRolePermission } from '@tessera/contracts';

/** The device detail tabs, in display order. */
export const DEVICE_TABS = [
  'telemetry-status',
  'history-chart',
  'realtime-chart',
  'app-rules',
  'motor-health',
  'remote-control',
  'custom-page',
] as const;
/** One of {@link DEVICE_TABS}. */
export type TDeviceTab = (typeof DEVICE_TABS)[number];

/** The permission each tab needs (the custom page needs none beyond seeing the device). */
export const TAB_PERMISSION: Record<TDeviceTab, TProjectRolePermission | null> = {
  'telemetry-status': 'view_telemetry',
  'history-chart': 'view_history',
  'realtime-chart': 'view_telemetry',
  'app-rules': 'receive_alerts',
  'motor-health': 'view_history',
  'remote-control': 'control_device',
  'custom-page': null,
};

/** What the device has that some tabs need: its project's custom page, and a `vibration` key (MOTOR_HEALTH_KEY). */
export interface TDeviceTabNeeds {
  hasCustomPage: boolean;
  hasVibrationKey: boolean;
}

/**
 * The tabs `permissions` open, in display order: custom-page only when the project has a page, motor-health only
 * when the device has a vibration key (nothing to judge otherwise) — as a tab the role does not open, it is left out.
 */
export function allowedTabs(
  permissions: readonly TProjectRolePermission[],
  { hasCustomPage, hasVibrationKey }: TDeviceTabNeeds,
): TDeviceTab[] {
  return DEVICE_TABS.filter((tab) => {
    if (tab === 'custom-page') return hasCustomPage;
    if (tab === 'motor-health' && !hasVibrationKey) return false;
    const needed = TAB_PERMISSION[tab];
    return needed === null || permissions.includes(needed);
  });
}
