import { DAY_MS } from '@tessera/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { startTestServer } from '../../../test/helpers.js';
import { auditLog } from '../../db/schema.js';
import { auditCutoff, purgeAuditLog } from './purge.js';
import { recordAudit } from './record.js';

const entry = (at: number, entityId: string) => ({
  at,
  tenantId: 1,
  actor: { accountId: 1, email: 'a@example.com', via: 'jwt' as const },
  actingAdmin: null,
  ip: '127.0.0.1',
  entityType: 'product',
  entityId,
  action: 'update',
  changes: { name: { before: 'a', after: 'b' } },
  route: null,
  requestId: null,
});

describe(`audit log: append-only, retention purge (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  beforeAll(async () => {
    server = await startTestServer({ auditRetentionDays: 30 });
  });
  afterAll(() => server.stop());
  const db = () => server.ctx.db;

  it('refuses UPDATE, DELETE and TRUNCATE of entries', async () => {
    await recordAudit(db(), entry(Date.now(), 'kept-1'));
    await expect(db().update(auditLog).set({ action: 'delete' }).where(eq(auditLog.entityId, 'kept-1'))).rejects.toThrow();
    await expect(db().delete(auditLog).where(eq(auditLog.entityId, 'kept-1'))).rejects.toThrow();
    await expect(db().execute(sql`truncate audit_log`)).rejects.toThrow();
    const [row] = await db().select().from(auditLog).where(eq(auditLog.entityId, 'kept-1'));
    expect(row.action).toBe('update');
  });

  it('refuses a DELETE of recent entries even under the purge setting', async () => {
    await expect(
      db().transaction(async (tx) => {
        await tx.execute(sql`select set_config('tessera.audit_purge_before', ${String(Date.now() - DAY_MS)}, true)`);
        await tx.delete(auditLog).where(eq(auditLog.entityId, 'kept-1'));
      }),
    ).rejects.toThrow();
  });

  it('purges whole days older than the retention, once a day, and keeps the rest', async () => {
    // A day after the server's own purge at start (which ran at the real time).
    const now = Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS + 15 * 3_600_000;
    const cutoff = auditCutoff(now, 30);
    expect(cutoff).toBe(Math.floor(now / DAY_MS) * DAY_MS - 30 * DAY_MS);
    expect(new Date(cutoff).toISOString()).toMatch(/T00:00:00\.000Z$/);
    await recordAudit(db(), entry(cutoff - 1, 'old-1'));
    await recordAudit(db(), entry(cutoff - 5 * DAY_MS, 'old-2'));
    await recordAudit(db(), entry(cutoff, 'edge-kept'));
    await recordAudit(db(), entry(cutoff + DAY_MS - 1, 'next-day'));
    const run = await purgeAuditLog(db(), 30, now);
    expect(run).toEqual({ skipped: false, cutoffMs: cutoff, deleted: 2 });
    const left = (await db().select({ id: auditLog.entityId }).from(auditLog)).map((r) => r.id);
    expect(left).toContain('edge-kept');
    expect(left).toContain('next-day');
    expect(left).toContain('kept-1');
    expect(left).not.toContain('old-1');
    // Another replica later the same day finds the day done.
    expect(await purgeAuditLog(db(), 30, now + 3_600_000)).toEqual({ skipped: true });
    // The next day purges that day's entries.
    expect(await purgeAuditLog(db(), 30, now + DAY_MS)).toEqual({ skipped: false, cutoffMs: cutoff + DAY_MS, deleted: 2 });
  });
});
