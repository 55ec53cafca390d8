import { createHash } from 'node:crypto';
import {
  authzPaths,
  bleProofCode,
  paths,
  topics,
  type TAuthzDeviceIds,
  type TAuthzHolderList,
  type TAuthzQrCode,
  type TAuthzRequest,
  type TAuthzRequestList,
  type TDevice,
  type TDeviceRegistered,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount, buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { connectBrowser, connectMqtt, subscribeGranted, waitUntil } from '../ingest/ingest-test-kit.js';
import { createProjectVia, registerVia } from '../projects/catalogue.fixtures.js';

type TError = { code: string; message: string };

describe(`authorisation requests (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let other: TBuiltAccount;
  let otherUser: TBuiltAccount;
  let noSection: TBuiltAccount;
  let openProject: number;
  let qrProject: number;
  let bleProject: number;
  let d: TDeviceRegistered[];
  let qrDevice: TDeviceRegistered;
  let bleDevice: TDeviceRegistered;
  let foreignDevice: TDeviceRegistered;

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    other = await buildVendor(server);
    otherUser = await buildUser(server, other.tenantId);
    noSection = await buildAccount(server, { level: 'user', tenantId: vendor.tenantId, fea: ['1', '4'] });
    openProject = (await createProjectVia(server, vendor.token, 'Open line')).id;
    qrProject = (await createProjectVia(server, vendor.token, 'QR line')).id;
    bleProject = (await createProjectVia(server, vendor.token, 'BLE line')).id;
    for (const [id, method] of [
      [qrProject, 'qrcode'],
      [bleProject, 'ble'],
    ] as const) {
      const res = await server.api('PUT', paths.project(id), { token: vendor.token, body: { device_authz_method: method } });
      expect(res.status).toBe(200);
    }
    d = [];
    for (const serial of ['A001', 'A002']) d.push(await registerVia(server, vendor.token, openProject, serial));
    qrDevice = await registerVia(server, vendor.token, qrProject, 'B001');
    bleDevice = await registerVia(server, vendor.token, bleProject, 'C001');
    foreignDevice = await registerVia(server, other.token, (await createProjectVia(server, other.token)).id, 'F001');
  });
  afterAll(() => server.stop());

  const ask = (body: Record<string, unknown>, token = user.token) =>
    server.api<TAuthzRequest & TError>('POST', authzPaths.client, { token, body });
  const decide = (id: number, decision: string, token = vendor.token, note = '') =>
    server.api<TAuthzRequest & TError>('PUT', authzPaths.request(id), { token, body: { decision, note } });
  const visibleTo = async (token: string) =>
    (await server.api<{ data: TDevice[] }>('GET', paths.devices, { token })).body.data.map((x) => x.tangram_id).sort();

  it('a user asks for a device by serial number; the vendor allows it with a note; the device becomes visible', async () => {
    expect(await visibleTo(user.token)).toEqual([]);
    const asked = await ask({ device: 'A001', message: 'for the night shift' });
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({ status: 'pending', target: 'device', method: 'all', message: 'for the night shift' });
    expect(asked.body.device?.tangram_id).toBe(d[0].tangram_id);
    expect((await ask({ device: d[0].tangram_id })).body.code).toBe('AUTHZ_STATE');

    const pending = await server.api<TAuthzRequestList>('GET', `${authzPaths.requests}?status=pending`, { token: vendor.token });
    expect(pending.body.data.map((r) => r.id)).toEqual([asked.body.id]);
    const allowed = await decide(asked.body.id, 'allow', vendor.token, 'ok for March');
    expect(allowed.status).toBe(200);
    expect(allowed.body).toMatchObject({ status: 'allowed', note: 'ok for March', decided_by: vendor.email });
    expect(await visibleTo(user.token)).toEqual([d[0].tangram_id]);
    expect((await decide(asked.body.id, 'allow')).body.code).toBe('AUTHZ_STATE');
    expect((await ask({ device: d[0].tangram_id })).body.code).toBe('AUTHZ_ALREADY_GRANTED');
    const ids = await server.api<TAuthzDeviceIds>('GET', authzPaths.deviceIds, { token: user.token });
    expect(ids.body.tangram_ids).toEqual([d[0].tangram_id]);
    const holders = await server.api<TAuthzHolderList>('GET', authzPaths.users, { token: vendor.token });
    expect(holders.body.data.map((h) => [h.email, h.device?.tangram_id])).toEqual([[user.email, d[0].tangram_id]]);
  });

  it('a project request grants every device of the project, including one registered later; revoke takes them back', async () => {
    const asked = await ask({ device: d[1].tangram_id, target: 'project' });
    expect(asked.status).toBe(201);
    expect((await decide(asked.body.id, 'allow')).status).toBe(200);
    const later = await registerVia(server, vendor.token, openProject, 'A003');
    expect(await visibleTo(user.token)).toEqual([d[0].tangram_id, d[1].tangram_id, later.tangram_id].sort());
    const revoked = await decide(asked.body.id, 'revoke');
    expect(revoked.body).toMatchObject({ status: 'revoked' });
    expect(revoked.body.revoked_at).toBeGreaterThan(0);
    expect(await visibleTo(user.token)).toEqual([d[0].tangram_id]);
  });

  it('deny leaves the device hidden and tells the requester why; a user may cancel only its own pending request', async () => {
    const asked = await ask({ device: 'A002' });
    const denied = await decide(asked.body.id, 'deny', vendor.token, 'not your line');
    expect(denied.body).toMatchObject({ status: 'denied', note: 'not your line' });
    expect(await visibleTo(user.token)).not.toContain(d[1].tangram_id);
    const mine = await server.api<TAuthzRequestList>('GET', `${authzPaths.requests}?status=denied`, { token: user.token });
    expect(mine.body.data[0]).toMatchObject({ id: asked.body.id, note: 'not your line' });

    const again = await ask({ device: 'A002' });
    const second = await buildUser(server, vendor.tenantId);
    expect((await decide(again.body.id, 'cancel', second.token)).status).toBe(404);
    expect((await decide(again.body.id, 'allow', user.token)).status).toBe(403);
    expect((await decide(again.body.id, 'cancel', vendor.token)).status).toBe(403);
    expect((await decide(again.body.id, 'cancel', user.token)).body.status).toBe('cancelled');
  });

  it('the asker learns the device’s and project’s names only once allowed: not from the answer, the list or a search', async () => {
    const asker = await buildUser(server, vendor.tenantId);
    const asked = await ask({ device: 'A002' }, asker.token);
    expect(asked.status).toBe(201);
    expect(asked.body.device).toEqual({ tangram_id: d[1].tangram_id, name: '' });
    expect(asked.body.project?.name ?? '').toBe('');
    const listed = await server.api<TAuthzRequestList>('GET', authzPaths.requests, { token: asker.token });
    expect(listed.body.data.map((r) => [r.id, r.device?.name, r.project?.name ?? ''])).toEqual([[asked.body.id, '', '']]);
    const byName = await server.api<TAuthzRequestList>('GET', `${authzPaths.requests}?q=Open%20line`, { token: asker.token });
    expect(byName.body.data).toEqual([]);
    const bySerial = await server.api<TAuthzRequestList>('GET', `${authzPaths.requests}?q=${d[1].tangram_id}`, { token: asker.token });
    expect(bySerial.body.data.map((r) => r.id)).toEqual([asked.body.id]);
    // The vendor answering sees every name.
    const seen = await server.api<TAuthzRequestList>('GET', `${authzPaths.requests}?q=Open%20line&status=pending`, { token: vendor.token });
    const deviceName = seen.body.data.find((r) => r.id === asked.body.id)?.device?.name;
    expect(deviceName).toBeTruthy();

    expect((await decide(asked.body.id, 'allow')).status).toBe(200);
    const after = await server.api<TAuthzRequestList>('GET', `${authzPaths.requests}?q=Open%20line`, { token: asker.token });
    expect(after.body.data.map((r) => [r.id, r.device?.name])).toEqual([[asked.body.id, deviceName]]);
  });

  it('a QR-code project needs the claim code printed on the device', async () => {
    expect((await ask({ device: qrDevice.tangram_id })).body.code).toBe('AUTHZ_PROOF_REQUIRED');
    expect((await ask({ device: qrDevice.tangram_id, proof: 'AAAAAAAAAAAAAAAAAAAAAA' })).body.code).toBe('AUTHZ_PROOF_INVALID');
    const qr = await server.api<TAuthzQrCode>('GET', authzPaths.qrCode(qrDevice.tangram_id), { token: vendor.token });
    expect(qr.body.path).toContain(`device=${qrDevice.tangram_id}`);
    const claimOfOther = await server.api<TAuthzQrCode>('GET', authzPaths.qrCode(d[1].tangram_id), { token: vendor.token });
    expect((await ask({ device: qrDevice.tangram_id, proof: claimOfOther.body.proof })).body.code).toBe('AUTHZ_PROOF_INVALID');
    const asked = await ask({ device: qrDevice.tangram_id, proof: qr.body.proof });
    expect(asked.body).toMatchObject({ status: 'pending', method: 'qrcode' });
  });

  it('a BLE project needs the code the device computes now from its secret', async () => {
    const digest = createHash('sha256').update(bleDevice.device_secret).digest('hex');
    expect((await ask({ device: bleDevice.tangram_id })).body.code).toBe('AUTHZ_PROOF_REQUIRED');
    const stale = bleProofCode(digest, Date.now() - 10 * 60_000);
    expect((await ask({ device: bleDevice.tangram_id, proof: stale })).body.code).toBe('AUTHZ_PROOF_INVALID');
    const asked = await ask({ device: bleDevice.tangram_id, proof: bleProofCode(digest, Date.now()) });
    expect(asked.body).toMatchObject({ status: 'pending', method: 'ble' });
  });

  it("revoking stops the user's live stream of the device at once; the console is told on its access topic", async () => {
    const asked = await ask({ device: 'A002' });
    expect((await decide(asked.body.id, 'allow')).status).toBe(200);
    const browser = await connectBrowser(server.wsUrl, user.token);
    const received: string[] = [];
    browser.on('message', (topic) => received.push(topic));
    expect(await subscribeGranted(browser, [topics.live(d[1].tangram_id), topics.liveAccess(user.accountId)])).toEqual([1, 1]);
    expect(await subscribeGranted(browser, [topics.liveAccess(vendor.accountId)])).toEqual([128]);
    const device = await connectMqtt(server.mqttUrl, d[1].tangram_id, d[1].device_secret);
    const publish = (v: number) =>
      device.publishAsync(topics.telemetry(d[1].tangram_id), JSON.stringify([{ ts: Date.now(), key: 'temperature', vs: [v] }]), { qos: 1 });
    await publish(21);
    await waitUntil(() => received.includes(topics.live(d[1].tangram_id)));

    const closed = new Promise<void>((resolve) => browser.once('close', () => resolve()));
    expect((await decide(asked.body.id, 'revoke')).status).toBe(200);
    await closed;
    // Reconnected, the browser is refused the device it lost.
    const again = await connectBrowser(server.wsUrl, user.token);
    expect(await subscribeGranted(again, [topics.live(d[1].tangram_id), topics.live(d[0].tangram_id)])).toEqual([128, 1]);
    await Promise.all([again.endAsync(), device.endAsync(), browser.endAsync(true)]);
  });

  it('keeps tenants apart and refuses what a role may not do', async () => {
    expect((await ask({ device: foreignDevice.tangram_id })).status).toBe(404);
    expect((await ask({ device: 'F001' })).status).toBe(404);
    const mine = await ask({ device: 'A001', target: 'project' });
    expect(mine.status).toBe(201);
    expect((await decide(mine.body.id, 'allow', other.token)).status).toBe(404);
    expect((await decide(mine.body.id, 'cancel', otherUser.token)).status).toBe(404);
    const othersView = await server.api<TAuthzRequestList>('GET', authzPaths.requests, { token: other.token });
    expect(othersView.body.total_items).toBe(0);
    expect((await server.api('GET', authzPaths.qrCode(d[0].tangram_id), { token: other.token })).status).toBe(404);
    expect((await ask({ device: 'A001' }, vendor.token)).status).toBe(403);
  });

  describe('every route: 401 without a token, 403 without the section or the role, 200 for who may', () => {
    const routes: [string, () => string, 'any' | 'vendor', (() => unknown)?][] = [
      ['GET', () => authzPaths.requests, 'any'],
      ['POST', () => authzPaths.client, 'any', () => ({ device: 'A001' })],
      ['PUT', () => authzPaths.request(1), 'any', () => ({ decision: 'deny' })],
      ['GET', () => authzPaths.users, 'any'],
      ['GET', () => authzPaths.deviceIds, 'any'],
      ['GET', () => authzPaths.qrCode(d[0].tangram_id), 'vendor'],
    ];
    it.each(routes)('%s %s', async (method, path, who, body) => {
      expect((await server.api(method, path(), { body: body?.() })).status).toBe(401);
      expect((await server.api(method, path(), { token: noSection.token, body: body?.() })).status).toBe(403);
      if (who === 'vendor') expect((await server.api(method, path(), { token: user.token, body: body?.() })).status).toBe(403);
    });
    it('200 for the vendor on its reads and for the user on its own', async () => {
      for (const path of [authzPaths.requests, authzPaths.users, authzPaths.qrCode(d[0].tangram_id)]) {
        expect((await server.api('GET', path, { token: vendor.token })).status).toBe(200);
      }
      for (const path of [authzPaths.requests, authzPaths.deviceIds, authzPaths.users]) {
        expect((await server.api('GET', path, { token: user.token })).status).toBe(200);
      }
    });
  });
});
