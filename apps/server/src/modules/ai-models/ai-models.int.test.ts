/**
 * The AI model registry's API (`/frontstage-ai/v1`, docs/decisions/ai.md): every route answers 401 without a login,
 * 403 to a user and to a vendor without the registry (13:1), 404 for another tenant's model, and 2xx to the vendor;
 * models are created, validated, listed (search, framework, paging), changed and deleted (a deployed revision stays:
 * model-deployments.int.test.ts).
 * The files themselves (upload, limit, download, ranges, blob removal) are ai-model-files.int.test.ts.
 */
import { randomBytes } from 'node:crypto';
import {
  aiModelPaths,
  DEFAULT_FEATURES,
  NAME_MAX,
  type TAiModel,
  type TAiModelPage,
  type TAiModelRevision,
  type TAiModelRevisionPage,
  type TErrorBody,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount, type TBuiltAccount } from '../../../test/factories.js';
import { TEST_DB_KIND } from '../../../test/helpers.js';
import { startTwoTenants, type TTwoTenants } from '../../../test/tenants.js';
import { moduleId } from '../projects/catalogue.fixtures.js';
import { createModelVia, uniqueModelName, uploadVia } from './ai-models.fixtures.js';

describe(`AI model registry API (${TEST_DB_KIND})`, () => {
  let t: TTwoTenants;
  let noRegistry: TBuiltAccount;
  let moduleA: number;
  beforeAll(async () => {
    t = await startTwoTenants();
    noRegistry = await buildAccount(t.server, {
      level: 'vendor',
      tenantId: t.vendor.tenantId,
      fea: DEFAULT_FEATURES.vendor.filter((c) => c !== '13:1').concat('13:25'),
    });
    moduleA = await moduleId(t.server, t.vendor.token);
  });
  afterAll(() => t.server.stop());

  const api = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, body?: unknown) =>
    t.server.api<T & TErrorBody>(method, url, { token, body });

  describe('every route: 401, 403 for a user and a vendor without 13:1, 404 for another tenant, 2xx for the vendor', () => {
    type TTarget = { model: TAiModel; revision: TAiModelRevision };
    const routes: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', label: string, url: (x: TTarget) => string, body?: () => unknown][] = [
      ['GET', 'ai-models', () => aiModelPaths.models],
      [
        'POST',
        'ai-models',
        () => aiModelPaths.models,
        () => ({ name: uniqueModelName(), framework: 'tflite', tangram_product_id: moduleA }),
      ],
      ['GET', 'ai-models/{id}', (x) => aiModelPaths.model(x.model.id)],
      [
        'PUT',
        'ai-models/{id}',
        (x) => aiModelPaths.model(x.model.id),
        () => ({ name: uniqueModelName(), framework: 'onnx', tangram_product_id: moduleA }),
      ],
      ['DELETE', 'ai-models/{id}', (x) => aiModelPaths.model(x.model.id)],
      ['GET', 'ai-models/{id}/revisions', (x) => aiModelPaths.revisions(x.model.id)],
      ['DELETE', 'ai-models/{id}/revisions/{rev}', (x) => aiModelPaths.revision(x.model.id, x.revision.revision)],
      ['POST', 'ai-models/{id}/revisions/{rev}/link', (x) => aiModelPaths.link(x.model.id, x.revision.revision)],
      ['GET', 'ai-models/{id}/revisions/{rev}/download', (x) => aiModelPaths.download(x.model.id, x.revision.revision)],
    ];
    const listRoutes = ['GET ai-models', 'POST ai-models'];
    for (const [method, label, url, body] of routes) {
      it(`${method} ${label}`, async () => {
        const model = await createModelVia(t.server, t.vendor.token);
        const revision = (await uploadVia(t.server, t.vendor.token, model.id, randomBytes(1000))).body;
        const target = url({ model, revision });
        expect((await api(method, target, undefined, body?.())).status).toBe(401);
        expect((await api(method, target, t.user.token, body?.())).status).toBe(403);
        expect((await api(method, target, noRegistry.token, body?.())).status).toBe(403);
        if (!listRoutes.includes(`${method} ${label}`)) {
          const foreign = await api(method, target, t.other.token, body?.());
          expect(foreign.status, JSON.stringify(foreign.body)).toBe(404);
          expect(foreign.body.code).toBe('NOT_FOUND');
        }
        const ok = await api(method, target, t.vendor.token, body?.());
        expect(ok.status, JSON.stringify(ok.body)).toBe(method === 'POST' && label === 'ai-models' ? 201 : method === 'DELETE' ? 204 : 200);
      });
    }
    it('POST ai-models/{id}/revisions', async () => {
      const model = await createModelVia(t.server, t.vendor.token);
      const bytes = randomBytes(2000);
      expect((await uploadVia(t.server, undefined, model.id, bytes)).status).toBe(401);
      expect((await uploadVia(t.server, t.user.token, model.id, bytes)).status).toBe(403);
      expect((await uploadVia(t.server, noRegistry.token, model.id, bytes)).status).toBe(403);
      expect((await uploadVia(t.server, t.other.token, model.id, bytes)).status).toBe(404);
      const ok = await uploadVia(t.server, t.vendor.token, model.id, bytes);
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
      expect(ok.body.revision).toBe(1);
    });
    it('an admin manages the registry of their own tenant', async () => {
      const admin = await buildAccount(t.server, { level: 'admin' });
      const model = await createModelVia(t.server, admin.token);
      expect((await api('GET', aiModelPaths.model(model.id), admin.token)).status).toBe(200);
      expect((await api('GET', aiModelPaths.model(model.id), t.vendor.token)).status).toBe(404);
    });
  });

  it('creates a model with its module, reads it back, and refuses bad input', async () => {
    const name = uniqueModelName('Bearing fault');
    const created = await api<TAiModel>('POST', aiModelPaths.models, t.vendor.token, {
      name: `  ${name}  `,
      description: 'Classifies bearing faults from vibration spectra',
      framework: 'tflite',
      tangram_product_id: moduleA,
      input_description: 'float32[1, 1024]: vibration FFT, mm/s',
      output_description: 'float32[1, 4]: normal, inner race, outer race, ball',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      name,
      framework: 'tflite',
      tangram_product_id: moduleA,
      revision_count: 0,
      latest_revision: null,
      input_description: 'float32[1, 1024]: vibration FFT, mm/s',
    });
    expect(created.body.module_name.length).toBeGreaterThan(0);
    expect((await api<TAiModel>('GET', aiModelPaths.model(created.body.id), t.vendor.token)).body).toEqual(created.body);

    const base = { name: uniqueModelName(), framework: 'onnx', tangram_product_id: moduleA };
    for (const bad of [
      { ...base, name: '' },
      { ...base, name: 'n'.repeat(NAME_MAX + 1) },
      { ...base, framework: 'caffe' },
      { ...base, tangram_product_id: 0 },
      { ...base, input_description: 'x'.repeat(2001) },
      { name: 'only a name' },
    ]) {
      expect((await api('POST', aiModelPaths.models, t.vendor.token, bad)).status, JSON.stringify(bad).slice(0, 80)).toBe(400);
    }
    const noModule = await api('POST', aiModelPaths.models, t.vendor.token, { ...base, tangram_product_id: 2_000_000_000 });
    expect(noModule.status).toBe(404);
    expect(noModule.body.details?.[0].path).toBe('body/tangram_product_id');
  });

  it('keeps names unique in a tenant ignoring case, not across tenants', async () => {
    const name = uniqueModelName('Unique');
    const first = await createModelVia(t.server, t.vendor.token, { name });
    const twin = await api('POST', aiModelPaths.models, t.vendor.token, {
      name: name.toUpperCase(),
      framework: 'onnx',
      tangram_product_id: moduleA,
    });
    expect(twin.status).toBe(409);
    expect((await api('POST', aiModelPaths.models, t.other.token, { name, framework: 'onnx', tangram_product_id: moduleA })).status).toBe(
      201,
    );
    const other = await createModelVia(t.server, t.vendor.token);
    const renamed = await api('PUT', aiModelPaths.model(other.id), t.vendor.token, {
      name: name.toLowerCase(),
      framework: 'onnx',
      tangram_product_id: moduleA,
    });
    expect(renamed.status).toBe(409);
    const self = await api<TAiModel>('PUT', aiModelPaths.model(first.id), t.vendor.token, {
      name: name.toLowerCase(),
      framework: 'openvino',
      tangram_product_id: moduleA,
      description: 'changed',
    });
    expect(self.status).toBe(200);
    expect(self.body).toMatchObject({ name: name.toLowerCase(), framework: 'openvino', description: 'changed' });
    expect(self.body.updated_at).toBeGreaterThanOrEqual(first.updated_at);
  });

  it('lists only the tenant’s models, by name, searched, filtered by framework and paged', async () => {
    const vendor = await buildAccount(t.server, { level: 'vendor' });
    const names = ['Alpha pump', 'beta fan', 'Gamma pump', 'Delta valve'];
    for (const [i, name] of names.entries()) {
      await createModelVia(t.server, vendor.token, {
        name,
        framework: i % 2 ? 'tflite' : 'onnx',
        description: i === 3 ? 'for pumps too' : '',
      });
    }
    const list = async (q: string) => (await api<TAiModelPage>('GET', `${aiModelPaths.models}${q}`, vendor.token)).body;
    const all = await list('');
    expect(all.total_items).toBe(4);
    expect(all.data.map((m) => m.name)).toEqual(['Alpha pump', 'beta fan', 'Delta valve', 'Gamma pump']);
    expect((await list('?q=PUMP')).data.map((m) => m.name)).toEqual(['Alpha pump', 'Delta valve', 'Gamma pump']);
    expect((await list('?framework=tflite')).data.map((m) => m.name)).toEqual(['beta fan', 'Delta valve']);
    expect((await list('?framework=tflite&q=fan')).data.map((m) => m.name)).toEqual(['beta fan']);
    const page2 = await list('?limit=3&page=2');
    expect(page2).toMatchObject({ page: 2, limit: 3, total_items: 4 });
    expect(page2.data.map((m) => m.name)).toEqual(['Gamma pump']);
    expect((await api('GET', `${aiModelPaths.models}?framework=keras`, vendor.token)).status).toBe(400);
    expect((await list('')).data.some((m) => m.name === 'Alpha pump')).toBe(true);
    expect((await api<TAiModelPage>('GET', aiModelPaths.models, t.other.token)).body.data.some((m) => m.name === 'Alpha pump')).toBe(false);
  });

  it('numbers revisions 1, 2, 3 per model, never again after a delete, and counts them on the model', async () => {
    const model = await createModelVia(t.server, t.vendor.token);
    for (let i = 0; i < 3; i++) await uploadVia(t.server, t.vendor.token, model.id, randomBytes(100 + i), { notes: `upload ${i + 1}` });
    expect((await api('DELETE', aiModelPaths.revision(model.id, 3), t.vendor.token)).status).toBe(204);
    const fourth = await uploadVia(t.server, t.vendor.token, model.id, randomBytes(50));
    expect(fourth.body.revision).toBe(4);
    const revisions = (await api<TAiModelRevisionPage>('GET', aiModelPaths.revisions(model.id), t.vendor.token)).body;
    expect(revisions.data.map((r) => r.revision)).toEqual([4, 2, 1]);
    expect(revisions.data[1]).toMatchObject({ notes: 'upload 2', deployed: false, uploaded_by: { email: t.vendor.email } });
    expect(
      (await api<TAiModelRevisionPage>('GET', `${aiModelPaths.revisions(model.id)}?q=upload%201`, t.vendor.token)).body.data,
    ).toHaveLength(1);
    expect((await api<TAiModel>('GET', aiModelPaths.model(model.id), t.vendor.token)).body).toMatchObject({
      revision_count: 3,
      latest_revision: 4,
    });
    expect((await api('DELETE', aiModelPaths.revision(model.id, 3), t.vendor.token)).status).toBe(404);
  });

  it('uploads of one model at once get distinct numbers', async () => {
    const model = await createModelVia(t.server, t.vendor.token);
    const uploads = await Promise.all(Array.from({ length: 4 }, () => uploadVia(t.server, t.vendor.token, model.id, randomBytes(10_000))));
    expect(uploads.map((u) => u.status)).toEqual([201, 201, 201, 201]);
    expect(uploads.map((u) => u.body.revision).sort()).toEqual([1, 2, 3, 4]);
  });
});
