import { asc, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB_KIND } from '../../../test/helpers.js';
import type { Database } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';
import { AuditWriter } from './audit-writer.js';
import type { TAuditEntryInput } from './record.js';

/** An entry whose texts and changed values hold what a JSON round trip could spoil. */
const entry = (n: number): TAuditEntryInput => ({
  at: 1_764_300_000_000 + n,
  tenantId: n % 2 === 0 ? 7 : null,
  actor: { accountId: n, email: `o'brien+${n}@example.com`, via: n % 2 === 0 ? 'jwt' : 'api_key' },
  actingAdmin: n === 3 ? { accountId: 1, email: 'admin@example.com' } : null,
  ip: n % 2 === 0 ? '2001:db8::1' : null,
  entityType: 'device',
  entityId: `writer-${n}`,
  action: 'update',
  changes: {
    nickname: { before: `a "quoted" \\ back\nline ${n}`, after: '溫度 🌡️ €' },
    grants: { before: [1, 2], after: { nested: [null, true, 2 ** 40] } },
  },
  route: 'PUT /frontstage/v1/devices/:tangramId',
  requestId: n === 4 ? null : `req-${n}`,
});

describe(`audit log: the grouped writer (${TEST_DB_KIND})`, () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('stores entries handed over at once (those that wait go in one INSERT), each exactly as given', async () => {
    const writer = new AuditWriter(database.db);
    const entries = Array.from({ length: 12 }, (_, i) => entry(i));
    await Promise.all(entries.map((e) => writer.write(e)));
    const rows = await database.db.select().from(auditLog).where(like(auditLog.entityId, 'writer-%')).orderBy(asc(auditLog.at));
    expect(rows).toHaveLength(12);
    rows.forEach((row, i) => {
      const e = entries[i];
      expect(row).toMatchObject({
        at: e.at,
        tenantId: e.tenantId,
        actorAccountId: e.actor.accountId,
        actorEmail: e.actor.email,
        actorVia: e.actor.via,
        actingAdminId: e.actingAdmin?.accountId ?? null,
        actingAdminEmail: e.actingAdmin?.email ?? null,
        ip: e.ip,
        entityType: 'device',
        entityId: e.entityId,
        action: 'update',
        route: e.route,
        requestId: e.requestId,
      });
      expect(row.changes).toEqual(e.changes);
    });
    expect(new Set(rows.map((r) => r.id)).size).toBe(12);
  });
});
