import { paths, type TAuditPage } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount, type TBuiltAccount } from '../../../test/factories.js';
import { TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { startTwoTenants } from '../../../test/tenants.js';
import { createProductVia } from '../projects/catalogue.fixtures.js';
import { AUDITED_ROUTES, UNAUDITED_ROUTES } from './audited-routes.js';

describe(`audit log routes: who reads what, filters, CSV (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount, user: TBuiltAccount, other: TBuiltAccount, admin: TBuiltAccount;
  let startedAt: number;
  beforeAll(async () => {
    ({ server, vendor, user, other } = await startTwoTenants());
    admin = await buildAccount(server, { level: 'admin', fea: ['*'] });
    startedAt = Date.now();
    await createProductVia(server, vendor.token, 'Alpha pump');
    await createProductVia(server, vendor.token, 'Beta valve');
    await createProductVia(server, other.token, 'Other tenant secret product');
  });
  afterAll(() => server.stop());
  const list = (token: string | undefined, query = '') => server.api<TAuditPage>('GET', `${paths.auditLog}${query}`, { token });

  it('answers 401 without a login and 403 to a user, for the list and the CSV', async () => {
    expect((await list(undefined)).status).toBe(401);
    expect((await list(user.token)).status).toBe(403);
    expect((await server.api('GET', paths.auditLogDownload, {})).status).toBe(401);
    expect((await server.api('GET', paths.auditLogDownload, { token: user.token })).status).toBe(403);
  });

  it('answers a vendor its own tenant only, and refuses another tenant named in the filter', async () => {
    const mine = await list(vendor.token, '?limit=100');
    expect(mine.status).toBe(200);
    expect(mine.body.data.length).toBe(2);
    expect(mine.body.data.every((e) => e.tenant_id === vendor.tenantId)).toBe(true);
    expect(JSON.stringify(mine.body)).not.toContain('Other tenant');
    expect((await list(other.token, `?tenant_id=${vendor.tenantId}`)).status).toBe(403);
    expect((await list(other.token, `?q=Alpha`)).body.total_items).toBe(0);
    expect((await list(vendor.token, `?tenant_id=${vendor.tenantId}`)).body.total_items).toBe(2);
  });

  it('answers the admin every tenant, or one with tenant_id', async () => {
    const all = await list(admin.token, '?limit=100');
    expect(all.status).toBe(200);
    const tenants = new Set(all.body.data.map((e) => e.tenant_id));
    expect(tenants.has(vendor.tenantId) && tenants.has(other.tenantId)).toBe(true);
    const one = await list(admin.token, `?tenant_id=${other.tenantId}`);
    expect(one.body.data.map((e) => e.tenant_id)).toEqual([other.tenantId]);
  });

  it('narrows by text, entity type, action, actor and time, newest first, paged', async () => {
    const byText = await list(vendor.token, '?q=beta');
    expect(byText.body.data).toHaveLength(1);
    expect(byText.body.data[0].changes.name).toEqual({ before: null, after: 'Beta valve' });
    expect((await list(vendor.token, '?entity_type=product&action=create')).body.total_items).toBe(2);
    expect((await list(vendor.token, '?action=delete')).body.total_items).toBe(0);
    expect((await list(vendor.token, `?actor=${encodeURIComponent(vendor.email.slice(0, 8))}`)).body.total_items).toBe(2);
    expect((await list(vendor.token, '?actor=nobody')).body.total_items).toBe(0);
    expect((await list(vendor.token, `?from=${Date.now() + 60_000}`)).body.total_items).toBe(0);
    expect((await list(vendor.token, `?from=${startedAt}&to=${Date.now()}`)).body.total_items).toBe(2);
    const page = await list(vendor.token, '?limit=1&page=2');
    expect(page.body).toMatchObject({ page: 2, limit: 1, total_items: 2 });
    expect(page.body.data[0].changes.name?.after).toBe('Alpha pump');
    expect((await list(vendor.token, '?limit=0')).status).toBe(400);
  });

  it('streams the filtered entries as CSV', async () => {
    const res = await server.api<string>('GET', `${paths.auditLogDownload}?entity_type=product`, { token: vendor.token });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/csv');
    expect(String(res.headers['content-disposition'])).toMatch(/attachment; filename="audit-log_\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe(
      'id,time,at_ms,tenant_id,actor_account_id,actor_email,actor_via,acting_admin_id,acting_admin_email,ip,entity_type,entity_id,action,changes,route,request_id',
    );
    expect(lines).toHaveLength(3);
    expect(res.body).toContain('Beta valve');
    expect(res.body).not.toContain('Other tenant');
    const empty = await server.api<string>('GET', `${paths.auditLogDownload}?action=delete`, { token: vendor.token });
    expect(empty.body.trim().split('\n')).toHaveLength(1);
  });

  it('names only routes that exist in its table of audited and unaudited routes', () => {
    const missing = [...Object.keys(AUDITED_ROUTES), ...UNAUDITED_ROUTES].filter((key) => {
      const [method, url] = key.split(' ');
      return !server.app.hasRoute({ method: method as 'POST', url });
    });
    expect(missing).toEqual([]);
  });
});
