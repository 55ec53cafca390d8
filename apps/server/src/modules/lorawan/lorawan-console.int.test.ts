/**
 * The console's LoRaWAN API (docs/decisions/lorawan.md): integrations and their last payloads, a device's DevEUI —
 * 401 without a token, 403 for a user, 404 for another tenant's project, integration or device, 200/201/204 for the
 * vendor; the secret answered once and masked after; bounds and DevEUI uniqueness.
 */
import {
  lorawanPaths,
  MAX_LORAWAN_INTEGRATIONS_PER_PROJECT,
  type TDeviceLorawan,
  type TLorawanIntegrationList,
  type TLorawanIntegrationWithSecret,
  type TLorawanUplinkLog,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';

describe(`LoRaWAN console API (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let stranger: TBuiltAccount;
  let project: TBuiltProject;
  let integration: TLorawanIntegrationWithSecret;
  const input = { name: 'Farm ChirpStack', network_server: 'chirpstack' as const, mapping: [{ path: 'soil.t', key: 'temperature' }] };

  /** Every route, as [method, url, body]. */
  const routes = (): [string, string, unknown][] => {
    const p = project.projectId;
    const tid = project.devices[0].tangramId;
    return [
      ['GET', lorawanPaths.list(p), undefined],
      ['POST', lorawanPaths.list(p), input],
      ['PUT', lorawanPaths.one(p, integration.id), input],
      ['DELETE', lorawanPaths.one(p, integration.id), undefined],
      ['POST', lorawanPaths.secret(p, integration.id), undefined],
      ['GET', lorawanPaths.uplinks(p, integration.id), undefined],
      ['GET', lorawanPaths.device(tid), undefined],
      ['PUT', lorawanPaths.device(tid), { dev_eui: '70B3D57ED0000001' }],
    ];
  };

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    stranger = await buildVendor(server);
    project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 });
    integration = (
      await server.api<TLorawanIntegrationWithSecret>('POST', lorawanPaths.list(project.projectId), { token: vendor.token, body: input })
    ).body;
  });
  afterAll(() => server.stop());

  it('401 without a token and 403 for a user on every route', async () => {
    for (const [method, url, body] of routes()) {
      expect((await server.api(method as 'GET', url, { body })).status, `${method} ${url}`).toBe(401);
      expect((await server.api(method as 'GET', url, { token: user.token, body })).status, `${method} ${url}`).toBe(403);
    }
  });

  it("404 for another tenant's vendor on every route, changing nothing", async () => {
    for (const [method, url, body] of routes()) {
      expect((await server.api(method as 'GET', url, { token: stranger.token, body })).status, `${method} ${url}`).toBe(404);
    }
    const list = await server.api<TLorawanIntegrationList>('GET', lorawanPaths.list(project.projectId), { token: vendor.token });
    expect(list.body.data.map((i) => i.id)).toEqual([integration.id]);
    const eui = await server.api<TDeviceLorawan>('GET', lorawanPaths.device(project.devices[0].tangramId), { token: vendor.token });
    expect(eui.body.dev_eui).toBeNull();
  });

  it('creates with the secret shown once and the webhook path; lists it masked; edits the mapping; rotates; deletes', async () => {
    expect(integration.secret).toMatch(/^lwsec_[A-Za-z0-9_-]{43}$/);
    expect(integration.webhook_path).toBe(`/lorawan/v1/${integration.id}/chirpstack`);
    const list = await server.api<TLorawanIntegrationList>('GET', lorawanPaths.list(project.projectId), { token: vendor.token });
    expect(list.status).toBe(200);
    expect(list.body.data[0]).toMatchObject({
      name: 'Farm ChirpStack',
      secret_masked: `••••${integration.secret.slice(-4)}`,
      mapping: input.mapping,
    });
    expect(JSON.stringify(list.body)).not.toContain(integration.secret);
    const changed = await server.api('PUT', lorawanPaths.one(project.projectId, integration.id), {
      token: vendor.token,
      body: { ...input, network_server: 'tts', mapping: [] },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ network_server: 'tts', mapping: [], webhook_path: `/lorawan/v1/${integration.id}/tts` });
    const rotated = await server.api<TLorawanIntegrationWithSecret>('POST', lorawanPaths.secret(project.projectId, integration.id), {
      token: vendor.token,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(integration.secret);
    const log = await server.api<TLorawanUplinkLog>('GET', lorawanPaths.uplinks(project.projectId, integration.id), {
      token: vendor.token,
    });
    expect(log).toMatchObject({ status: 200, body: { data: [] } });
    const extra = await server.api<TLorawanIntegrationWithSecret>('POST', lorawanPaths.list(project.projectId), {
      token: vendor.token,
      body: input,
    });
    expect(extra.status).toBe(201);
    expect((await server.api('DELETE', lorawanPaths.one(project.projectId, extra.body.id), { token: vendor.token })).status).toBe(204);
    expect((await server.api('GET', lorawanPaths.uplinks(project.projectId, extra.body.id), { token: vendor.token })).status).toBe(404);
  });

  it('400 for a bad mapping path or key and an unknown network server; 409 past the per-project bound', async () => {
    for (const body of [
      { ...input, mapping: [{ path: 'a..b', key: 'temperature' }] },
      { ...input, mapping: [{ path: 'a', key: 'no spaces allowed' }] },
      { ...input, network_server: 'helium' },
    ]) {
      expect((await server.api('POST', lorawanPaths.list(project.projectId), { token: vendor.token, body })).status).toBe(400);
    }
    const other = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
    for (let i = 0; i < MAX_LORAWAN_INTEGRATIONS_PER_PROJECT; i += 1) {
      expect((await server.api('POST', lorawanPaths.list(other.projectId), { token: vendor.token, body: input })).status).toBe(201);
    }
    const over = await server.api('POST', lorawanPaths.list(other.projectId), { token: vendor.token, body: input });
    expect(over.status).toBe(409);
  });

  it('sets a DevEUI normalised to upper-case hex, refuses a bad one (400) and one another device of the tenant has (409), clears it', async () => {
    const [a, b] = project.devices;
    const set = await server.api<TDeviceLorawan>('PUT', lorawanPaths.device(a.tangramId), {
      token: vendor.token,
      body: { dev_eui: '70-b3-d5-7e-d0-00-00-01' },
    });
    expect(set).toMatchObject({ status: 200, body: { tangram_id: a.tangramId, dev_eui: '70B3D57ED0000001' } });
    expect((await server.api<TDeviceLorawan>('GET', lorawanPaths.device(a.tangramId), { token: vendor.token })).body.dev_eui).toBe(
      '70B3D57ED0000001',
    );
    expect(
      (await server.api('PUT', lorawanPaths.device(b.tangramId), { token: vendor.token, body: { dev_eui: '70B3D57ED000000' } })).status,
    ).toBe(400);
    const taken = await server.api<{ code: string }>('PUT', lorawanPaths.device(b.tangramId), {
      token: vendor.token,
      body: { dev_eui: '70B3D57ED0000001' },
    });
    expect(taken).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    // Another tenant may use the same DevEUI: uniqueness is per tenant.
    const strangers = await buildDeviceProject(server.ctx.db, { tenantId: stranger.tenantId });
    const theirs = await server.api('PUT', lorawanPaths.device(strangers.devices[0].tangramId), {
      token: stranger.token,
      body: { dev_eui: '70B3D57ED0000001' },
    });
    expect(theirs.status).toBe(200);
    const cleared = await server.api<TDeviceLorawan>('PUT', lorawanPaths.device(a.tangramId), {
      token: vendor.token,
      body: { dev_eui: null },
    });
    expect(cleared.body.dev_eui).toBeNull();
    expect(
      (await server.api('PUT', lorawanPaths.device(b.tangramId), { token: vendor.token, body: { dev_eui: '70B3D57ED0000001' } })).status,
    ).toBe(200);
  });
});
