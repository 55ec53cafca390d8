import { AUDIT_MASK, paths } from '@tessera/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { startTwoTenants } from '../../../test/tenants.js';
import type { TBuiltAccount } from '../../../test/factories.js';
import { devices } from '../../db/schema.js';
import { auditedUpdate } from './audited-update.js';
import { diffFields } from './changes.js';
import { auditRows, lastAudit } from './audit.fixtures.js';
import type { TStatementEntry } from './record.js';

describe(`audit log: the entry written by the change's own statement (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let built: TBuiltProject;
  beforeAll(async () => {
    ({ server, vendor } = await startTwoTenants({ trustProxy: ['127.0.0.1'] }));
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 4 });
  });
  afterAll(() => server.stop());
  const db = () => server.ctx.db;
  const deviceRow = async (id: number) => (await db().select().from(devices).where(eq(devices.id, id)))[0];
  const entriesOf = async (tangramId: string) => auditRows(db(), { entityType: 'device', entityId: tangramId });

  it('writes the entry with the before and after of the changed fields and the actor', async () => {
    const { tangramId, id } = built.devices[0];
    const before = await deviceRow(id);
    const put = await server.api('PUT', paths.device(tangramId), {
      token: vendor.token,
      body: { name: 'Boiler', nickname: 'b1' },
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(put.status).toBe(200);
    const [entry, ...older] = await entriesOf(tangramId);
    expect(older).toHaveLength(0);
    expect(entry).toMatchObject({
      tenantId: vendor.tenantId,
      actorAccountId: vendor.accountId,
      actorEmail: vendor.email,
      actorVia: 'jwt',
      actingAdminId: null,
      ip: '203.0.113.9',
      entityType: 'device',
      entityId: tangramId,
      action: 'update',
      route: 'PUT /frontstage/v1/devices/:tangramId',
    });
    expect(entry.requestId).toBeTruthy();
    expect(entry.changes).toEqual({ name: { before: before.name, after: 'Boiler' }, nickname: { before: '', after: 'b1' } });

    // A field not sent keeps its value and is not listed; the v2 route is the same statement.
    expect((await server.api('PUT', paths.deviceV2(tangramId), { token: vendor.token, body: { nickname: 'b2' } })).status).toBe(200);
    const second = await lastAudit(db(), { entityType: 'device', entityId: tangramId });
    expect(second.route).toBe('PUT /frontstage/v1/v2/devices/:tangramId');
    expect(second.changes).toEqual({ nickname: { before: 'b1', after: 'b2' } });
    expect((await deviceRow(id)).name).toBe('Boiler');
  });

  it('writes an entry with no changed fields for a change that sets nothing or the same values', async () => {
    const { tangramId } = built.devices[1];
    expect((await server.api('PUT', paths.device(tangramId), { token: vendor.token, body: {} })).status).toBe(200);
    const same = (await deviceRowByTangram(tangramId)).name;
    expect((await server.api('PUT', paths.device(tangramId), { token: vendor.token, body: { name: same } })).status).toBe(200);
    const entries = await entriesOf(tangramId);
    expect(entries.map((e) => e.changes)).toEqual([{}, {}]);
    expect(entries[0].actorAccountId).toBe(vendor.accountId);
  });
  const deviceRowByTangram = async (tangramId: string) => (await db().select().from(devices).where(eq(devices.tangramId, tangramId)))[0];

  it('writes no entry for a change the database refuses, and stores neither when the entry is refused', async () => {
    const { tangramId, id } = built.devices[2];
    const name = (await deviceRow(id)).name;
    await db().execute(sql`create function refuse_write() returns trigger language plpgsql as $$
      begin raise exception 'refused by the test'; end $$`);
    try {
      await db().execute(sql`create trigger refuse_device before update on devices
        for each row when (new.nickname = 'refused') execute function refuse_write()`);
      const refused = await server.api('PUT', paths.device(tangramId), { token: vendor.token, body: { name: 'N1', nickname: 'refused' } });
      expect(refused.status).toBe(500);
      expect(await entriesOf(tangramId)).toHaveLength(0);
      expect((await deviceRow(id)).name).toBe(name);
      await db().execute(sql`drop trigger refuse_device on devices`);

      // The entry's INSERT fails: the change it records is not stored either (one statement, one transaction).
      await db().execute(sql`create trigger refuse_audit before insert on audit_log for each row execute function refuse_write()`);
      const lost = await server.api('PUT', paths.device(tangramId), { token: vendor.token, body: { name: 'N2' } });
      expect(lost.status).toBe(500);
      expect((await deviceRow(id)).name).toBe(name);
    } finally {
      await db().execute(sql`drop trigger if exists refuse_device on devices`);
      await db().execute(sql`drop trigger if exists refuse_audit on audit_log`);
      await db().execute(sql`drop function refuse_write()`);
    }
    expect(await entriesOf(tangramId)).toHaveLength(0);
    expect((await server.api('PUT', paths.device(tangramId), { token: vendor.token, body: { name: 'N3' } })).status).toBe(200);
    expect((await entriesOf(tangramId)).map((e) => e.changes)).toEqual([{ name: { before: name, after: 'N3' } }]);
  });

  it("takes each entry's before from the row its UPDATE replaced, under concurrent changes of one device", async () => {
    const { tangramId, id } = built.devices[3];
    const nicknames = Array.from({ length: 12 }, (_, i) => `n${i}`);
    const answers = await Promise.all(
      nicknames.map((nickname) => server.api('PUT', paths.device(tangramId), { token: vendor.token, body: { nickname } })),
    );
    expect(answers.map((a) => a.status)).toEqual(nicknames.map(() => 200));
    const chain = (await entriesOf(tangramId)).reverse().map((e) => e.changes.nickname);
    expect(chain).toHaveLength(nicknames.length);
    // Oldest first: each entry starts where the one before it ended, and the last is what is stored.
    expect(chain[0]?.before).toBe('');
    for (let i = 1; i < chain.length; i++) expect(chain[i]?.before).toBe(chain[i - 1]?.after);
    expect(chain.at(-1)?.after).toBe((await deviceRow(id)).nickname);
  });

  it('masks secrets and digests long values exactly as the entries the hooks make (one set of rules)', async () => {
    const [device] = await db().select().from(devices).where(eq(devices.id, built.devices[0].id));
    const update = auditedUpdate(devices, devices.id, { name: devices.name, secretHash: devices.secretHash }, 'test_audited_secret');
    const entry: TStatementEntry = {
      tenantId: null,
      actor: { accountId: vendor.accountId, email: vendor.email, via: 'api_key' },
      actingAdmin: { accountId: 1, email: 'admin@example.com' },
      ip: '198.51.100.1',
      entityType: 'device',
      entityId: 'direct',
      action: 'update',
      route: null,
      requestId: 'r-1',
    };
    const longName = `${'x'.repeat(20_000)}é`;
    const after = await update(db(), device.id, { name: longName, secretHash: 'f'.repeat(64) }, entry);
    expect(after).toMatchObject({ id: device.id, name: longName, secretHash: 'f'.repeat(64), tangramId: device.tangramId });
    const stored = await lastAudit(db(), { entityType: 'device', entityId: 'direct' });
    const expected = diffFields({ name: device.name, secret_hash: device.secretHash }, { name: longName, secret_hash: 'f'.repeat(64) });
    expect(stored.changes).toEqual(expected);
    expect(stored.changes.secret_hash).toEqual({ before: AUDIT_MASK, after: AUDIT_MASK });
    expect(stored).toMatchObject({
      tenantId: vendor.tenantId,
      actorVia: 'api_key',
      actingAdminId: 1,
      actingAdminEmail: 'admin@example.com',
    });

    // No row of that key: nothing changed, no entry.
    const count = (await auditRows(db(), {})).length;
    expect(await update(db(), 2_000_000_000, { name: 'x' }, entry)).toBeUndefined();
    expect((await auditRows(db(), {})).length).toBe(count);
  });
});

describe(`audit log off (AUDIT_LOG=0): the device PUT writes no entry (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let built: TBuiltProject;
  beforeAll(async () => {
    ({ server, vendor } = await startTwoTenants({ auditLog: false }));
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
  });
  afterAll(() => server.stop());

  it('changes the device and records nothing', async () => {
    const { tangramId, id } = built.devices[0];
    expect((await server.api('PUT', paths.device(tangramId), { token: vendor.token, body: { nickname: 'quiet' } })).status).toBe(200);
    expect((await server.api('PUT', paths.deviceV2(tangramId), { token: vendor.token, body: {} })).status).toBe(200);
    const [row] = await server.ctx.db.select().from(devices).where(eq(devices.id, id));
    expect(row.nickname).toBe('quiet');
    expect(await auditRows(server.ctx.db, {})).toEqual([]);
  });
});
