/**
 * Fixtures of the notification tests: the engine's notification of an alert (alerts.fixtures.ts stores the alert).
 */
import type { TAlertLevel } from '@tessera/contracts';
import type { TBuiltProject } from '../../../test/device-factory.js';
import type { TRuleNotification } from './types.js';

/** The notification of a new `level` alert of device `deviceId` (project email on, LINE off unless overridden). */
export function notificationOf(
  project: TBuiltProject,
  deviceId: number,
  alertId: number | null,
  level: TAlertLevel | null,
  overrides: Partial<TRuleNotification> = {},
): TRuleNotification {
  return {
    reason: 'opened',
    tenantId: project.tenantId,
    projectId: project.projectId,
    deviceId,
    alertId,
    level,
    ruleName: 'Too hot',
    message: 'temperature above 30',
    trigger: { key: 'temperature', value: 31.5 },
    projectEmail: true,
    projectLine: false,
    at: Date.UTC(2026, 0, 15, 4, 5, 6),
    ...overrides,
  };
}
