/**
 * Fixtures of the notification tests: a stored alert for a factory device and the engine's notification of it.
 */
import type { TAlertLevel } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import type { TBuiltProject } from '../../../test/device-factory.js';
import type { Db } from '../../db/client.js';
import { alerts, projects } from '../../db/schema.js';
import type { TRuleNotification } from './types.js';

/** Inserts an open alert of `level` for device `deviceId` of `project` (as the engine would) and answers its id. */
export async function insertAlert(db: Db, project: TBuiltProject, deviceId: number, level: TAlertLevel): Promise<number> {
  const [p] = await db.select({ productId: projects.productId }).from(projects).where(eq(projects.id, project.projectId));
  const now = Date.now();
  const [row] = await db
    .insert(alerts)
    .values({
      tenantId: project.tenantId,
      projectId: project.projectId,
      productId: p.productId,
      deviceId,
      ruleKind: 'simple',
      ruleId: Math.floor(Math.random() * 1e9),
      ruleName: 'Too hot',
      level,
      message: 'temperature above 30',
      triggerKey: 'temperature',
      triggerValue: 31.5,
      firstSeenAt: now,
      lastSeenAt: now,
    })
    .returning({ id: alerts.id });
  return row.id;
}

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
