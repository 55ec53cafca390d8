import { NAME_MAX, paths, type TProduct, type TProductClass, type TTangramProductList } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { createProductVia, createProjectVia } from '../projects/catalogue.fixtures.js';
import { CATALOGUE } from './catalogue-data.js';
import { ensureCatalogue } from './ensure-catalogue.js';
import { startTwoTenants } from '../../../test/tenants.js';

describe(`products, classes and the hardware-module catalogue (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount, user: TBuiltAccount, other: TBuiltAccount;
  beforeAll(async () => {
    ({ server, vendor, user, other } = await startTwoTenants());
  });
  afterAll(() => server.stop());

  const productBody = { name: 'Pump', model: 'P-100', number: 'SKU-1' };

  describe('every vendor route: 401 without a token, 403 for a user, 2xx for a vendor', () => {
    const routes: [string, (ids: { p: number; c: number }) => string, unknown?][] = [
      ['GET', () => paths.products],
      ['POST', () => paths.products, productBody],
      ['GET', () => paths.productsSum],
      ['GET', () => paths.productCatalog],
      ['PUT', ({ p }) => paths.product(p), { name: 'Renamed' }],
      ['GET', () => paths.productClasses],
      ['POST', () => paths.productClasses, { name: `Class ${Date.now()}` }],
      ['PUT', ({ c }) => paths.productClass(c), { name: `Renamed ${Date.now()}` }],
      ['DELETE', ({ c }) => paths.productClass(c)],
      ['DELETE', ({ p }) => paths.product(p)],
    ];
    for (const [method, url, body] of routes) {
      it(`${method} ${url({ p: 1, c: 1 })}`, async () => {
        const p = await createProductVia(server, vendor.token);
        const c = (await server.api<TProductClass>('POST', paths.productClasses, { token: vendor.token, body: { name: `C${p.id}` } })).body;
        const target = url({ p: p.id, c: c.id });
        expect((await server.api(method as 'GET', target, { body })).status).toBe(401);
        expect((await server.api(method as 'GET', target, { token: user.token, body })).status).toBe(403);
        const ok = await server.api(method as 'GET', target, { token: vendor.token, body });
        expect(ok.status, JSON.stringify(ok.body)).toBeLessThan(300);
      });
    }
  });

  it('creates products with consecutive 4-hex model numbers per tenant and finds them by q', async () => {
    const a = await createProductVia(server, other.token, 'Alpha sensor');
    const b = await createProductVia(server, other.token, 'Beta sensor');
    expect(a.model_number).toMatch(/^[0-9A-F]{4}$/);
    expect(Number.parseInt(b.model_number, 16)).toBe(Number.parseInt(a.model_number, 16) + 1);
    const found = await server.api<{ data: TProduct[]; total_items: number }>('GET', `${paths.products}?q=alpha`, { token: other.token });
    expect(found.body.data.map((p) => p.name)).toEqual(['Alpha sensor']);
    const sum = await server.api<{ total: number }>('GET', paths.productsSum, { token: other.token });
    expect(sum.body.total).toBe(2);
    const catalog = await server.api<{ id: number; name: string }[]>('GET', paths.productCatalog, { token: other.token });
    expect(catalog.body.map((p) => p.name)).toEqual(['Alpha sensor', 'Beta sensor']);
  });

  it('searches % and _ literally', async () => {
    const v = await buildVendor(server);
    await createProductVia(server, v.token, '100% cotton');
    await createProductVia(server, v.token, '100 cotton_x');
    const pct = await server.api<{ data: TProduct[] }>('GET', `${paths.products}?q=${encodeURIComponent('0%')}`, { token: v.token });
    expect(pct.body.data.map((p) => p.name)).toEqual(['100% cotton']);
    const under = await server.api<{ data: TProduct[] }>('GET', `${paths.products}?q=n_`, { token: v.token });
    expect(under.body.data.map((p) => p.name)).toEqual(['100 cotton_x']);
  });

  it('pages the product list with total_items', async () => {
    const v = await buildVendor(server);
    for (let i = 0; i < 3; i++) await createProductVia(server, v.token);
    const res = await server.api<{ data: TProduct[]; page: number; limit: number; total_items: number }>(
      'GET',
      `${paths.products}?page=2&limit=2`,
      {
        token: v.token,
      },
    );
    expect(res.body).toMatchObject({ page: 2, limit: 2, total_items: 3 });
    expect(res.body.data).toHaveLength(1);
  });

  it('isolates tenants: a second vendor sees none of the first vendor’s products and gets 404 on their ids', async () => {
    const mine = await createProductVia(server, vendor.token, 'Secret product');
    const list = await server.api<{ data: TProduct[] }>('GET', `${paths.products}?limit=200`, { token: other.token });
    expect(list.body.data.find((p) => p.id === mine.id)).toBeUndefined();
    const catalog = await server.api<{ id: number }[]>('GET', paths.productCatalog, { token: other.token });
    expect(catalog.body.find((p) => p.id === mine.id)).toBeUndefined();
    expect((await server.api('PUT', paths.product(mine.id), { token: other.token, body: { name: 'x' } })).status).toBe(404);
    expect((await server.api('DELETE', paths.product(mine.id), { token: other.token })).status).toBe(404);
    const cls = await server.api<TProductClass>('POST', paths.productClasses, { token: vendor.token, body: { name: 'Private class' } });
    expect((await server.api('PUT', paths.productClass(cls.body.id), { token: other.token, body: { name: 'x' } })).status).toBe(404);
    expect((await server.api('DELETE', paths.productClass(cls.body.id), { token: other.token })).status).toBe(404);
    const otherClasses = await server.api<TProductClass[]>('GET', paths.productClasses, { token: other.token });
    expect(otherClasses.body.find((c) => c.id === cls.body.id)).toBeUndefined();
    const withForeignClass = { ...productBody, class_id: cls.body.id };
    expect((await server.api('POST', paths.products, { token: other.token, body: withForeignClass })).status).toBe(404);
  });

  describe('bad input: 400 VALIDATION_FAILED and nothing written', () => {
    const long = (n: number) => 'x'.repeat(n);
    const cases: [string, Record<string, unknown>][] = [
      ['name over 32', { ...productBody, name: long(NAME_MAX + 1) }],
      ['model over 32', { ...productBody, model: long(33) }],
      ['number over 32', { ...productBody, number: long(33) }],
      ['description over 500', { ...productBody, description: long(501) }],
      ['image_url not an uploaded image', { ...productBody, image_url: `/frontstage/v1/images/${long(23)}` }],
      ['empty name', { ...productBody, name: '  ' }],
      ['name of the wrong type', { ...productBody, name: 42 }],
      ['class_id of the wrong type', { ...productBody, class_id: 'one' }],
      ['missing model', { name: 'x', number: 'y' }],
    ];
    for (const [label, body] of cases) {
      it(label, async () => {
        const v = await buildVendor(server);
        const res = await server.api<{ code: string }>('POST', paths.products, { token: v.token, body });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
        expect((await server.api<{ total: number }>('GET', paths.productsSum, { token: v.token })).body.total).toBe(0);
      });
    }

    it('accepts every field exactly at its limit', async () => {
      const body = { name: long(32), model: long(32), number: long(32), description: long(500) };
      const res = await server.api<TProduct>('POST', paths.products, { token: vendor.token, body });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject(body);
    });

    it('rejects a too-long name on PUT and keeps the old one', async () => {
      const p = await createProductVia(server, vendor.token, 'Keep me');
      const res = await server.api('PUT', paths.product(p.id), { token: vendor.token, body: { name: long(33) } });
      expect(res.status).toBe(400);
      const list = await server.api<{ data: TProduct[] }>('GET', `${paths.products}?q=Keep me`, { token: vendor.token });
      expect(list.body.data[0].name).toBe('Keep me');
    });

    it('class names: over 32 and wrong type are refused, exactly 32 is fine', async () => {
      const v = await buildVendor(server);
      expect((await server.api('POST', paths.productClasses, { token: v.token, body: { name: long(33) } })).status).toBe(400);
      expect((await server.api('POST', paths.productClasses, { token: v.token, body: { name: 5 } })).status).toBe(400);
      expect((await server.api<TProductClass[]>('GET', paths.productClasses, { token: v.token })).body).toEqual([]);
      expect((await server.api('POST', paths.productClasses, { token: v.token, body: { name: long(32) } })).status).toBe(201);
    });
  });

  it('classes: a duplicate name is 409, a class in use is 409 IN_USE, the product shows its class name', async () => {
    const v = await buildVendor(server);
    const cls = (await server.api<TProductClass>('POST', paths.productClasses, { token: v.token, body: { name: 'Pumps' } })).body;
    const dup = await server.api<{ code: string }>('POST', paths.productClasses, { token: v.token, body: { name: 'Pumps' } });
    expect(dup.status).toBe(409);
    const second = (await server.api<TProductClass>('POST', paths.productClasses, { token: v.token, body: { name: 'Valves' } })).body;
    expect((await server.api('PUT', paths.productClass(second.id), { token: v.token, body: { name: 'Pumps' } })).status).toBe(409);
    const product = await server.api<TProduct>('POST', paths.products, { token: v.token, body: { ...productBody, class_id: cls.id } });
    expect(product.body.class_name).toBe('Pumps');
    const del = await server.api<{ code: string }>('DELETE', paths.productClass(cls.id), { token: v.token });
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('IN_USE');
    const classes = await server.api<TProductClass[]>('GET', paths.productClasses, { token: v.token });
    expect(classes.body).toEqual([
      { id: cls.id, name: 'Pumps', product_count: 1 },
      { id: second.id, name: 'Valves', product_count: 0 },
    ]);
  });

  it('refuses to delete a product a project uses (409 IN_USE), deletes an unused one (204)', async () => {
    const v = await buildVendor(server);
    const project = await createProjectVia(server, v.token);
    const del = await server.api<{ code: string }>('DELETE', paths.product(project.product_id), { token: v.token });
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('IN_USE');
    const unused = await createProductVia(server, v.token);
    expect((await server.api('DELETE', paths.product(unused.id), { token: v.token })).status).toBe(204);
    expect((await server.api('DELETE', paths.product(unused.id), { token: v.token })).status).toBe(404);
  });

  it('documents every catalogue route in the OpenAPI document', async () => {
    const res = await server.api<{ paths: Record<string, Record<string, { tags?: string[] }>> }>('GET', '/openapi.json');
    expect(res.status).toBe(200);
    for (const p of [
      '/frontstage/v1/products',
      '/frontstage/v1/products/classes/{id}',
      '/frontstage/v1/template/tangramProducts/{id}/sensors',
      '/frontstage/v1/projects/{id}/devices/bulk',
      '/frontstage/v1/v2/devices/{tangramId}',
    ]) {
      expect(Object.keys(res.body.paths[p] ?? {}), p).not.toHaveLength(0);
    }
    expect(res.body.paths['/frontstage/v1/products/{id}'].delete.tags).toEqual(['Frontstage: products']);
  });

  describe('template tangramProducts', () => {
    it('needs a login (401) and is readable by users too', async () => {
      expect((await server.api('GET', paths.tangramProducts)).status).toBe(401);
      expect((await server.api('GET', paths.tangramProductSensors(1))).status).toBe(401);
      const res = await server.api<TTangramProductList>('GET', paths.tangramProducts, { token: user.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ page: 1, limit: 25, total_items: CATALOGUE.length, total_pages: 1 });
      const motor = res.body.data.find((m) => m.name.includes('Motor Monitor'))!;
      expect(motor.model_number).toMatch(/^[0-9A-F]{4}$/);
      expect(motor.sensors.map((s) => [s.key, s.unit, s.value_count])).toEqual([
        ['vibration', 'mm/s', 3],
        ['current', 'A', 1],
        ['temperature', '°C', 1],
      ]);
      const sensors = await server.api('GET', paths.tangramProductSensors(motor.id), { token: user.token });
      expect(sensors.body).toEqual(motor.sensors);
      expect((await server.api('GET', paths.tangramProductSensors(999_999), { token: user.token })).status).toBe(404);
      expect((await server.api('GET', `${paths.tangramProducts}?page=2`, { token: user.token })).body).toMatchObject({ data: [], page: 2 });
    });

    it('ensureCatalogue is idempotent: a second run changes nothing', async () => {
      const before = await server.api<TTangramProductList>('GET', paths.tangramProducts, { token: vendor.token });
      await ensureCatalogue(server.ctx.db);
      const after = await server.api<TTangramProductList>('GET', paths.tangramProducts, { token: vendor.token });
      expect(after.body).toEqual(before.body);
    });
  });
});
