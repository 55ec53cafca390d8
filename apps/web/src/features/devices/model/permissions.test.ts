import { PROJECT_ROLE_PERMISSIONS } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { allowedTabs, DEVICE_TABS } from './permissions';

describe('device tabs by permission', () => {
  it('opens every tab with every permission, custom page only when the project has one', () => {
    expect(allowedTabs(PROJECT_ROLE_PERMISSIONS, true)).toEqual([...DEVICE_TABS]);
    expect(allowedTabs(PROJECT_ROLE_PERMISSIONS, false)).not.toContain('custom-page');
  });

  it('opens only the tabs a role permission names', () => {
    expect(allowedTabs(['view_telemetry'], false)).toEqual(['telemetry-status', 'realtime-chart']);
    expect(allowedTabs(['view_history'], false)).toEqual(['history-chart']);
    expect(allowedTabs(['control_device'], false)).toEqual(['remote-control']);
    expect(allowedTabs(['receive_alerts'], false)).toEqual(['app-rules']);
    expect(allowedTabs(['download_data'], true)).toEqual(['custom-page']);
  });
});
