import { PROJECT_ROLE_PERMISSIONS } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { allowedTabs, DEVICE_TABS } from './permissions';

const has = (hasCustomPage: boolean, hasVibrationKey = false) => ({ hasCustomPage, hasVibrationKey });

describe('device tabs by permission', () => {
  it('opens every tab with every permission, custom page only when the project has one', () => {
    expect(allowedTabs(PROJECT_ROLE_PERMISSIONS, has(true, true))).toEqual([...DEVICE_TABS]);
    expect(allowedTabs(PROJECT_ROLE_PERMISSIONS, has(false, true))).not.toContain('custom-page');
  });

  it('opens motor-health only for a device with a vibration key, with view_history', () => {
    expect(allowedTabs(PROJECT_ROLE_PERMISSIONS, has(false, false))).not.toContain('motor-health');
    expect(allowedTabs(['view_history'], has(false, true))).toEqual(['history-chart', 'motor-health']);
    expect(allowedTabs(['view_telemetry'], has(false, true))).not.toContain('motor-health');
  });

  it('opens only the tabs a role permission names', () => {
    expect(allowedTabs(['view_telemetry'], has(false))).toEqual(['telemetry-status', 'realtime-chart']);
    expect(allowedTabs(['view_history'], has(false))).toEqual(['history-chart']);
    expect(allowedTabs(['control_device'], has(false))).toEqual(['remote-control']);
    expect(allowedTabs(['receive_alerts'], has(false))).toEqual(['app-rules']);
    expect(allowedTabs(['download_data'], has(true))).toEqual(['custom-page']);
  });
});
