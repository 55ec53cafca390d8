import {
  RETENTION_MAX_DAYS,
  storagePaths,
  type TAdminStorage,
  type TProject,
  type TProjectStorage,
  type TRetention,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount, buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { createProjectVia } from '../projects/catalogue.fixtures.js';

describe(`telemetry storage routes (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let other: TBuiltAccount;
  let admin: TBuiltAccount;
  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    other = await buildVendor(server);
    admin = await buildAccount(server, { level: 'admin' });
  });
  afterAll(() => server.stop());

  const year: TRetention = { raw_days: 365, rollup_1m_days: 30, rollup_1h_days: null };

  describe('every project route: 401 without a token, 403 for a user, 404 for another vendor, 200 for the vendor', () => {
    const routes: [string, (p: TProject) => string, unknown?][] = [
      ['GET', (p) => storagePaths.retention(p.id)],
      ['PUT', (p) => storagePaths.retention(p.id), year],
      ['GET', (p) => storagePaths.projectStorage(p.id)],
    ];
    for (const [method, url, body] of routes) {
      it(`${method} ${url({ id: 1 } as TProject)}`, async () => {
        const project = await createProjectVia(server, vendor.token);
        const m = method as 'GET';
        expect((await server.api(m, url(project), { body })).status).toBe(401);
        expect((await server.api(m, url(project), { body, token: user.token })).status).toBe(403);
        const foreign = await server.api<{ code: string }>(m, url(project), { body, token: other.token });
        expect(foreign.status).toBe(404);
        expect(foreign.body.code).toBe('NOT_FOUND');
        expect((await server.api(m, url(project), { body, token: vendor.token })).status).toBe(200);
      });
    }
  });

  it('keeps everything for ever by default, saves a retention, and another vendor changes nothing', async () => {
    const project = await createProjectVia(server, vendor.token);
    const get = () => server.api<TRetention>('GET', storagePaths.retention(project.id), { token: vendor.token });
    expect((await get()).body).toEqual({ raw_days: null, rollup_1m_days: null, rollup_1h_days: null });
    expect((await server.api('PUT', storagePaths.retention(project.id), { token: vendor.token, body: year })).body).toEqual(year);
    expect(
      (await server.api('PUT', storagePaths.retention(project.id), { token: other.token, body: { ...year, raw_days: 7 } })).status,
    ).toBe(404);
    expect((await get()).body).toEqual(year);
    const storage = await server.api<TProjectStorage>('GET', storagePaths.projectStorage(project.id), { token: vendor.token });
    expect(storage.body).toMatchObject({
      retention: year,
      usage: { points: 0, bytes_per_point: null, growth_per_day: null },
      last_expiry: null,
    });
  });

  it('refuses a retention under 7 days, over 10 years, fractional or missing with 400, writing nothing', async () => {
    const project = await createProjectVia(server, vendor.token);
    for (const bad of [
      { ...year, raw_days: 6 },
      { ...year, rollup_1m_days: RETENTION_MAX_DAYS + 1 },
      { ...year, rollup_1h_days: 7.5 },
      { raw_days: 30 },
    ]) {
      const res = await server.api<{ code: string }>('PUT', storagePaths.retention(project.id), { token: vendor.token, body: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await server.api<TRetention>('GET', storagePaths.retention(project.id), { token: vendor.token })).body.raw_days).toBeNull();
  });

  it('shows the platform admin the disk use and the storage job runs; 401 without a token, 403 for a vendor', async () => {
    expect((await server.api('GET', storagePaths.adminStorage)).status).toBe(401);
    expect((await server.api('GET', storagePaths.adminStorage, { token: vendor.token })).status).toBe(403);
    const read = () => server.api<TAdminStorage>('GET', storagePaths.adminStorage, { token: admin.token });
    const res = await read();
    expect(res.status).toBe(200);
    expect(res.body.usage.bytes.raw_hot).toBeGreaterThan(0);
    // The job runs at start: its run is listed and finishes without error (it rests between its steps, so on a busy
    // machine it may still be running at the first look).
    await expect.poll(async () => (await read()).body.runs[0]?.finished_at ?? 0, { timeout: 20_000, interval: 250 }).toBeGreaterThan(0);
    expect((await read()).body.runs[0]).toMatchObject({ error: null });
  });
});
