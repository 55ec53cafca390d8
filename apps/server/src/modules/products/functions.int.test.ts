import { DEFAULT_PRODUCT_FUNCTIONS, paths, type TProductFunctionsView } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBuiltAccount } from '../../../test/factories.js';
import { TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { createProductVia } from '../projects/catalogue.fixtures.js';
import { startTwoTenants } from '../../../test/tenants.js';

describe(`product functions: GET/PUT projects/profile/product/functions/{id} (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount, user: TBuiltAccount, other: TBuiltAccount;
  beforeAll(async () => {
    ({ server, vendor, user, other } = await startTwoTenants());
  });
  afterAll(() => server.stop());

  const changed = { remote_control: false, ota: true, status_decoding: true, alerts: false, data_export: true };

  for (const method of ['GET', 'PUT'] as const) {
    it(`${method}: 401 without a token, 403 for a user, 200 for a vendor`, async () => {
      const p = await createProductVia(server, vendor.token);
      const body = method === 'PUT' ? changed : undefined;
      expect((await server.api(method, paths.productFunctions(p.id), { body })).status).toBe(401);
      expect((await server.api(method, paths.productFunctions(p.id), { token: user.token, body })).status).toBe(403);
      expect((await server.api(method, paths.productFunctions(p.id), { token: vendor.token, body })).status).toBe(200);
    });
  }

  it('answers the defaults for a new product, then what was PUT', async () => {
    const p = await createProductVia(server, vendor.token);
    const fresh = await server.api<TProductFunctionsView>('GET', paths.productFunctions(p.id), { token: vendor.token });
    expect(fresh.body).toEqual({ product_id: p.id, functions: DEFAULT_PRODUCT_FUNCTIONS });
    const put = await server.api<TProductFunctionsView>('PUT', paths.productFunctions(p.id), { token: vendor.token, body: changed });
    expect(put.body.functions).toEqual(changed);
    const read = await server.api<TProductFunctionsView>('GET', paths.productFunctions(p.id), { token: vendor.token });
    expect(read.body.functions).toEqual(changed);
  });

  it('isolates tenants: another vendor gets 404 and changes nothing', async () => {
    const p = await createProductVia(server, vendor.token);
    expect((await server.api('GET', paths.productFunctions(p.id), { token: other.token })).status).toBe(404);
    expect((await server.api('PUT', paths.productFunctions(p.id), { token: other.token, body: changed })).status).toBe(404);
    const read = await server.api<TProductFunctionsView>('GET', paths.productFunctions(p.id), { token: vendor.token });
    expect(read.body.functions).toEqual(DEFAULT_PRODUCT_FUNCTIONS);
  });

  describe('bad input: 400 VALIDATION_FAILED and nothing written', () => {
    const cases: [string, unknown][] = [
      ['a missing function', { ...changed, ota: undefined }],
      ['an unknown function', { ...changed, teleport: true }],
      ['a function of the wrong type', { ...changed, alerts: 'yes' }],
      ['not an object', [true]],
    ];
    for (const [label, body] of cases) {
      it(label, async () => {
        const p = await createProductVia(server, vendor.token);
        const res = await server.api<{ code: string }>('PUT', paths.productFunctions(p.id), { token: vendor.token, body });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
        const read = await server.api<TProductFunctionsView>('GET', paths.productFunctions(p.id), { token: vendor.token });
        expect(read.body.functions).toEqual(DEFAULT_PRODUCT_FUNCTIONS);
      });
    }
  });
});
