/**
 * Test factory of alerts: inserts an alert row for a device as the rule engine would (tenant, project and product
 * copied from the device). Each call gets its own rule id unless one is given, so the one-active-alert index never
 * collides by accident.
 */
import { eq } from 'drizzle-orm';
import type { TProjectRolePermission } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { alerts, deviceUserRules, devices, projectRoleDevices, projectRoleMembers, projectRoles, projects } from '../../db/schema.js';

/** Fields a test may set; everything else has a sensible default (an open `alert`-level simple-rule alert, now). */
export type TAlertFixture = Partial<Omit<typeof alerts.$inferInsert, 'id' | 'tenantId' | 'projectId' | 'productId' | 'deviceId'>>;

let nextRuleId = 100_000;

/** Inserts an alert of device `deviceId`; answers its id. */
export async function insertAlert(db: Db, deviceId: number, fields: TAlertFixture = {}): Promise<number> {
  const [device] = await db
    .select({ tenantId: devices.tenantId, projectId: devices.projectId, productId: projects.productId })
    .from(devices)
    .innerJoin(projects, eq(projects.id, devices.projectId))
    .where(eq(devices.id, deviceId));
  if (!device) throw new Error(`no device ${deviceId}`);
  const now = Date.now();
  const firstSeenAt = fields.firstSeenAt ?? now;
  nextRuleId += 1;
  const [row] = await db
    .insert(alerts)
    .values({
      ...device,
      deviceId,
      ruleKind: 'simple',
      ruleId: nextRuleId,
      ruleName: `rule ${nextRuleId}`,
      level: 'alert',
      message: 'temperature above 30',
      triggerKey: 'temperature',
      triggerValue: 31.5,
      lastSeenAt: fields.lastSeenAt ?? firstSeenAt,
      ...fields,
      firstSeenAt,
    })
    .returning({ id: alerts.id });
  return row.id;
}

/**
 * Grants device `deviceId` to user `accountId` through a new project role of the device's project with `permissions`
 * (default: watching it and hearing of its alerts).
 */
export async function grantByRole(
  db: Db,
  deviceId: number,
  accountId: number,
  permissions: TProjectRolePermission[] = ['view_telemetry', 'receive_alerts'],
): Promise<void> {
  const [device] = await db.select().from(devices).where(eq(devices.id, deviceId));
  nextRuleId += 1;
  const [role] = await db
    .insert(projectRoles)
    .values({
      tenantId: device.tenantId,
      projectId: device.projectId,
      name: `role ${nextRuleId}`,
      permissions,
      updatedAt: Date.now(),
    })
    .returning();
  await db.insert(projectRoleDevices).values({ roleId: role.id, deviceId });
  await db.insert(projectRoleMembers).values({ roleId: role.id, accountId });
}

/** Inserts an app rule of `accountId` on device `deviceId` (as `userRules` would); answers its id. */
export async function insertAppRule(db: Db, deviceId: number, accountId: number): Promise<number> {
  const [device] = await db.select().from(devices).where(eq(devices.id, deviceId));
  const [rule] = await db
    .insert(deviceUserRules)
    .values({
      tenantId: device.tenantId,
      deviceId,
      accountId,
      name: 'my rule',
      key: 'temperature',
      slot: 'v1',
      op: 'gt',
      threshold: 30,
      level: 'remind',
      enabled: true,
      cooldownS: 300,
      updatedAt: Date.now(),
    })
    .returning();
  return rule.id;
}

/** Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF) into records keyed by the header row. */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [[]];
  let field = '';
  let quoted = false;
  const endField = () => {
    rows[rows.length - 1].push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i += 1;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted || (c !== ',' && c !== '\n' && c !== '\r')) {
      field += c;
    } else {
      endField();
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      if (c !== ',') rows.push([]);
    }
  }
  if (field) endField();
  const [header, ...body] = rows.filter((r) => r.length > 0);
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}
