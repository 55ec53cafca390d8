/**
 * The alert upsert as several writers run it at once (alert-refresher.ts keeps statements in flight): statements over
 * the same alerts, in opposite orders and with an older raise arriving last, all finish, count every evaluation
 * once, open each alert once and keep the newest raise's trigger.
 */
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { alerts } from '../../db/schema.js';
import { type TAlertRaiseRow, upsertAlerts } from './alert-store.js';

describe(`alert upserts in parallel (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let project: TBuiltProject;

  beforeAll(async () => {
    server = await startTestServer();
    project = await buildDeviceProject(server.ctx.db, { count: 40 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const row = (deviceId: number, value: number, now: number): TAlertRaiseRow => ({
    target: {
      kind: 'platform',
      ruleId: 9_001,
      ruleIndex: 2,
      deviceId,
      tenantId: project.tenantId,
      projectId: project.projectId,
      productId: project.productId,
      ruleName: 'hot',
      level: 'alert',
      message: 'hot',
    },
    trigger: { key: 'temperature', value },
    now,
    evaluations: 1,
  });

  it('counts every raise, opens each alert once and keeps the newest trigger whatever order the statements run in', async () => {
    const ids = project.devices.map((d) => d.id);
    const t0 = Date.now();
    // Ten statements over the same 40 alerts, every other one in reverse order; the last written holds the oldest raise.
    const statements = Array.from({ length: 10 }, (_, s) => {
      const now = s === 9 ? t0 - 1_000 : t0 + s;
      const rows = ids.map((id) => row(id, s === 9 ? -1 : 100 + s, now));
      return s % 2 === 0 ? rows : rows.reverse();
    });
    const touches = await Promise.all(statements.map((rows) => upsertAlerts(server.ctx.db, rows)));

    const opened = touches.flat().filter((t) => t.inserted);
    expect(opened).toHaveLength(ids.length);
    const stored = await server.ctx.db.select().from(alerts).where(inArray(alerts.deviceId, ids));
    expect(stored).toHaveLength(ids.length);
    for (const alert of stored) {
      expect(alert.count).toBe(10);
      expect(alert.triggerValue).toBe(108);
      expect(alert.lastSeenAt).toBe(t0 + 8);
    }
  });
});
