/**
 * Deploying AI model revisions to devices (docs/decisions/ai.md "Deploying to devices", docs/protocol.md "AI models"),
 * over the real broker and HTTP: every console route answers 401, 403 (a user, a vendor without 13:1), 404 for another
 * tenant and 2xx to the vendor; a rollout tells each device on its retained model topic; a device trades its
 * credentials for a token, downloads (resuming with Range) and reports; reports of other attempts, other devices and
 * unreadable ones change nothing; a later rollout supersedes; retry and removal; a deployed revision stays.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  AiModelErrorCode,
  aiModelPaths,
  DEFAULT_FEATURES,
  MAX_ROLLOUT_DEVICES,
  ModelDeploymentErrorCode,
  modelDeploymentPaths as P,
  topics,
  ZDeviceModelMessage,
  type TAiModel,
  type TAiModelRevision,
  type TDeviceModelMessage,
  type TDeviceToken,
  type TErrorBody,
  type TRollout,
  type TRolloutDevicePage,
  type TRolloutPage,
} from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice, type TBuiltProject } from '../../../test/device-factory.js';
import { buildAccount, type TBuiltAccount } from '../../../test/factories.js';
import { TEST_DB_KIND } from '../../../test/helpers.js';
import { startTwoTenants, type TTwoTenants } from '../../../test/tenants.js';
import { until } from '../../../test/until.js';
import { projects } from '../../db/schema.js';
import { createModelVia, uploadVia } from '../ai-models/ai-models.fixtures.js';
import { connectMqtt, subscribeGranted } from '../ingest/ingest-test-kit.js';

type TMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe(`model deployments (${TEST_DB_KIND})`, () => {
  let t: TTwoTenants;
  let noRegistry: TBuiltAccount;
  let fleet: TBuiltProject;
  let model: TAiModel;
  let revision: TAiModelRevision;
  let file: Buffer;
  const clients: MqttClient[] = [];

  const api = <T>(method: TMethod, url: string, token?: string, body?: unknown) =>
    t.server.api<T & TErrorBody>(method, url, { token, body });
  const deploy = (body: unknown, rev = revision) => api<TRollout>('POST', P.deploy(model.id, rev.revision), t.vendor.token, body);
  const devicesOf = async (rolloutId: number) =>
    (await api<TRolloutDevicePage>('GET', P.rolloutDevices(rolloutId), t.vendor.token)).body.data;
  const stateOf = async (rolloutId: number, deviceId: number) => (await devicesOf(rolloutId)).find((d) => d.device_id === deviceId);

  /** A device connected over MQTT, with the model messages it has received (retained ones first). */
  async function connectDevice(device: TBuiltDevice) {
    const client = await connectMqtt(t.server.mqttUrl, device.tangramId, device.secret);
    clients.push(client);
    const messages: (TDeviceModelMessage | null)[] = [];
    client.on('message', (topic, payload) => {
      if (topic === topics.model(device.tangramId))
        messages.push(payload.length === 0 ? null : ZDeviceModelMessage.parse(JSON.parse(payload.toString())));
    });
    expect(await subscribeGranted(client, [topics.model(device.tangramId)])).toEqual([1]);
    const report = (body: unknown) => client.publishAsync(topics.modelState(device.tangramId), JSON.stringify(body), { qos: 1 });
    return { client, messages, report };
  }

  const basic = (d: TBuiltDevice, secret = d.secret) => `Basic ${Buffer.from(`${d.tangramId}:${secret}`).toString('base64')}`;
  const tokenOf = async (d: TBuiltDevice) => {
    const res = await fetch(`${t.server.httpUrl}${P.deviceToken}`, { method: 'POST', headers: { authorization: basic(d) } });
    expect(res.status).toBe(200);
    return ((await res.json()) as TDeviceToken).token;
  };

  beforeAll(async () => {
    t = await startTwoTenants();
    noRegistry = await buildAccount(t.server, {
      level: 'vendor',
      tenantId: t.vendor.tenantId,
      fea: DEFAULT_FEATURES.vendor.filter((c) => c !== '13:1'),
    });
    fleet = await buildDeviceProject(t.server.ctx.db, { tenantId: t.vendor.tenantId, count: 4 });
    const [project] = await t.server.ctx.db.select().from(projects).where(eq(projects.id, fleet.projectId));
    model = await createModelVia(t.server, t.vendor.token, { tangram_product_id: project.tangramProductId });
    file = randomBytes(300_000);
    revision = (await uploadVia(t.server, t.vendor.token, model.id, file, { fileName: 'detector.onnx' })).body;
  });
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await t.server.stop();
  });

  describe('every console route: 401, 403 for a user and a vendor without 13:1, 404 for another tenant, 2xx for the vendor', () => {
    const routes: [TMethod, string, (rolloutId: number) => string, (() => unknown)?][] = [
      ['POST', 'revisions/{rev}/rollouts', () => P.deploy(model.id, revision.revision), () => ({ device_ids: [fleet.devices[3].id] })],
      ['GET', 'model-rollouts', () => `${P.rollouts}?model_id=${model.id}`],
      ['GET', 'model-rollouts/{id}', (id) => P.rollout(id)],
      ['GET', 'model-rollouts/{id}/devices', (id) => P.rolloutDevices(id)],
      ['POST', 'model-rollouts/{id}/retry', (id) => P.retry(id)],
      ['DELETE', 'model-rollouts/{id}', (id) => P.rollout(id)],
    ];
    for (const [method, label, url, body] of routes) {
      it(`${method} ${label}`, async () => {
        const rollout = (await deploy({ device_ids: [fleet.devices[3].id] })).body;
        expect((await api(method, url(rollout.id), undefined, body?.())).status).toBe(401);
        expect((await api(method, url(rollout.id), t.user.token, body?.())).status).toBe(403);
        expect((await api(method, url(rollout.id), noRegistry.token, body?.())).status).toBe(403);
        if (label !== 'model-rollouts') expect((await api(method, url(rollout.id), t.other.token, body?.())).status).toBe(404);
        else expect((await api<TRolloutPage>(method, url(rollout.id), t.other.token)).body.total_items).toBe(0);
        expect([200, 201, 204]).toContain((await api(method, url(rollout.id), t.vendor.token, body?.())).status);
      });
    }
  });

  it('tells the device, which fetches a token, downloads with a resumed Range, checks the hash and reports installed', async () => {
    const device = fleet.devices[0];
    // Over HTTP (not app.inject): the URLs devices get are on the origin the console reached, with PUBLIC_URL unset.
    const res = await fetch(`${t.server.httpUrl}${P.deploy(model.id, revision.revision)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.vendor.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ device_ids: [device.id] }),
    });
    const created = { status: res.status, body: (await res.json()) as TRollout };
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ model_id: model.id, revision: revision.revision, device_count: 1, sha256: revision.sha256 });
    expect(created.body.counts.pending).toBe(1);

    // Connecting after the rollout: the retained message is waiting.
    const d = await connectDevice(device);
    const message = await until(async () => d.messages.at(-1) ?? undefined);
    expect(message).toMatchObject({
      attempt: 1,
      modelId: model.id,
      revision: revision.revision,
      sizeBytes: file.length,
      sha256: revision.sha256,
    });
    expect(message.url).toBe(`${t.server.httpUrl}${P.deviceModelFile(message.deploymentId)}`);
    expect(message.tokenUrl).toBe(`${t.server.httpUrl}${P.deviceToken}`);

    const token = await tokenOf(device);
    await d.report({ deploymentId: message.deploymentId, attempt: 1, state: 'downloading', progress: 0 });
    const first = await fetch(message.url, { headers: { authorization: `Bearer ${token}`, range: 'bytes=0-99999' } });
    expect(first.status).toBe(206);
    const head = Buffer.from(await first.arrayBuffer());
    await d.report({ deploymentId: message.deploymentId, attempt: 1, state: 'downloading', progress: 0.33 });
    expect(await stateOf(created.body.id, device.id)).toMatchObject({ state: 'downloading', progress: 0.33, attempt: 1 });

    const rest = await fetch(message.url, {
      headers: { authorization: `Bearer ${token}`, range: 'bytes=100000-', 'if-range': `"${message.sha256}"` },
    });
    expect(rest.status).toBe(206);
    const whole = Buffer.concat([head, Buffer.from(await rest.arrayBuffer())]);
    expect(createHash('sha256').update(whole).digest('hex')).toBe(message.sha256);
    // A late progress report lower than the last does not move it back.
    await d.report({ deploymentId: message.deploymentId, attempt: 1, state: 'downloading', progress: 0.1 });
    expect((await stateOf(created.body.id, device.id))?.progress).toBe(0.33);
    await d.report({ deploymentId: message.deploymentId, attempt: 1, state: 'installed' });

    const rollout = (await api<TRollout>('GET', P.rollout(created.body.id), t.vendor.token)).body;
    expect(rollout.counts).toMatchObject({ installed: 1, pending: 0, failed: 0 });
    expect(await stateOf(created.body.id, device.id)).toMatchObject({ state: 'installed', progress: 1, reason: null });
    // Final: a later failure report of the same attempt changes nothing.
    await d.report({ deploymentId: message.deploymentId, attempt: 1, state: 'failed', reason: 'late' });
    expect((await stateOf(created.body.id, device.id))?.state).toBe('installed');
  });

  it('refuses bad device credentials, console tokens, other devices and superseded deployments on the device routes', async () => {
    const [a, b] = [fleet.devices[1], fleet.devices[2]];
    const rollout = (await deploy({ device_ids: [a.id, b.id] })).body;
    const rows = await devicesOf(rollout.id);
    const rowOf = (d: TBuiltDevice) => rows.find((r) => r.device_id === d.id)?.deployment_id ?? 0;
    const fileUrl = (id: number) => `${t.server.httpUrl}${P.deviceModelFile(id)}`;

    for (const authorization of [
      basic(a, 'wrong secret'),
      'Basic !!!',
      `Bearer ${t.vendor.token}`,
      basic({ ...a, tangramId: '54'.padEnd(30, '0') }),
    ]) {
      const res = await fetch(`${t.server.httpUrl}${P.deviceToken}`, { method: 'POST', headers: { authorization } });
      expect(res.status).toBe(401);
      expect(((await res.json()) as TErrorBody).code).toBe('DEVICE_CREDENTIALS_INVALID');
    }
    const tokenA = await tokenOf(a);
    expect((await fetch(fileUrl(rowOf(a)), { headers: { authorization: `Bearer ${tokenA}` } })).status).toBe(200);
    // Another device's deployment answers as a missing one; a console login and no token are not device tokens.
    expect((await fetch(fileUrl(rowOf(b)), { headers: { authorization: `Bearer ${tokenA}` } })).status).toBe(404);
    expect((await fetch(fileUrl(rowOf(a)), { headers: { authorization: `Bearer ${t.vendor.token}` } })).status).toBe(401);
    expect((await fetch(fileUrl(rowOf(a)))).status).toBe(401);
    // The console's route does not take a device token either.
    expect((await api('GET', aiModelPaths.download(model.id, revision.revision), tokenA)).status).toBe(401);

    // A later rollout to a supersedes its deployment here: its file is no longer served for it.
    const later = (await deploy({ device_ids: [a.id] })).body;
    expect((await stateOf(rollout.id, a.id))?.state).toBe('superseded');
    expect((await stateOf(later.id, a.id))?.state).toBe('pending');
    expect((await fetch(fileUrl(rowOf(a)), { headers: { authorization: `Bearer ${tokenA}` } })).status).toBe(404);
  });

  it('ignores reports of another attempt and unreadable ones; a device cannot report for another', async () => {
    const [a, b] = [fleet.devices[1], fleet.devices[2]];
    const rollout = (await deploy({ device_ids: [a.id, b.id] })).body;
    const rows = await devicesOf(rollout.id);
    const rowB = rows.find((r) => r.device_id === b.id);
    const da = await connectDevice(a);
    const rowA = rows.find((r) => r.device_id === a.id);
    await da.report({ deploymentId: rowA?.deployment_id, attempt: 2, state: 'installed' });
    await da.client.publishAsync(topics.modelState(a.tangramId), 'not json', { qos: 1 });
    await da.report({ deploymentId: rowA?.deployment_id, attempt: 1, state: 'failed', reason: 'x'.repeat(500) });
    // a's own topic, b's deployment id: not a's, so nothing changes.
    await da.report({ deploymentId: rowB?.deployment_id, attempt: 1, state: 'installed' });
    expect((await stateOf(rollout.id, a.id))?.state).toBe('pending');
    expect((await stateOf(rollout.id, b.id))?.state).toBe('pending');
    // Publishing on b's topic closes a's connection (docs/protocol.md "Topics").
    const closed = new Promise<void>((resolve) => da.client.once('close', () => resolve()));
    da.client.publish(
      topics.modelState(b.tangramId),
      JSON.stringify({ deploymentId: rowB?.deployment_id, attempt: 1, state: 'installed' }),
      { qos: 1 },
    );
    await closed;
    expect((await stateOf(rollout.id, b.id))?.state).toBe('pending');
  });

  it('retries the failed devices as a new attempt, and removing the rollout clears the retained model', async () => {
    const device = fleet.devices[2];
    const rollout = (await deploy({ device_ids: [device.id] })).body;
    const d = await connectDevice(device);
    const deploymentId = (await devicesOf(rollout.id))[0].deployment_id;
    const ours = await until(async () => d.messages.find((m) => m?.deploymentId === deploymentId && m.attempt === 1) ?? undefined);
    await d.report({ deploymentId: ours.deploymentId, attempt: 1, state: 'failed', reason: 'sha256 mismatch' });
    expect(await stateOf(rollout.id, device.id)).toMatchObject({ state: 'failed', reason: 'sha256 mismatch' });
    expect((await api<TRollout>('GET', P.rollout(rollout.id), t.vendor.token)).body.counts.failed).toBe(1);

    expect((await api('POST', P.retry(rollout.id), t.vendor.token)).body).toEqual({ retried: 1 });
    const again = await until(async () => d.messages.find((m) => m?.deploymentId === ours.deploymentId && m.attempt === 2) ?? undefined);
    expect(again.sha256).toBe(revision.sha256);
    expect(await stateOf(rollout.id, device.id)).toMatchObject({ state: 'pending', attempt: 2, reason: null, progress: 0 });
    // The report of the old attempt is late: nothing changes.
    await d.report({ deploymentId: ours.deploymentId, attempt: 1, state: 'installed' });
    expect((await stateOf(rollout.id, device.id))?.state).toBe('pending');
    await d.report({ deploymentId: ours.deploymentId, attempt: 2, state: 'installed' });
    expect((await stateOf(rollout.id, device.id))?.state).toBe('installed');
    expect((await api('POST', P.retry(rollout.id), t.vendor.token)).body).toEqual({ retried: 0 });

    expect((await api('DELETE', P.rollout(rollout.id), t.vendor.token)).status).toBe(204);
    expect((await api('GET', P.rollout(rollout.id), t.vendor.token)).status).toBe(404);
    await until(async () => (d.messages.at(-1) === null ? true : undefined));
    // A device connecting now finds no retained model.
    const late = await connectDevice(device);
    await new Promise((r) => setTimeout(r, 300));
    expect(late.messages).toEqual([]);
  });

  it('validates the devices: none, too many, another tenant, another hardware module, an empty project', async () => {
    expect((await deploy({})).status).toBe(400);
    expect((await deploy({ device_ids: Array.from({ length: MAX_ROLLOUT_DEVICES + 1 }, (_, i) => i + 1) })).status).toBe(400);
    const foreign = await buildDeviceProject(t.server.ctx.db, { tenantId: t.other.tenantId, count: 1 });
    expect((await deploy({ device_ids: [fleet.devices[0].id, foreign.devices[0].id] })).status).toBe(404);
    expect((await deploy({ project_id: foreign.projectId })).status).toBe(404);
    const elsewhere = await buildDeviceProject(t.server.ctx.db, { tenantId: t.vendor.tenantId, count: 1 });
    const wrong = await deploy({ device_ids: [fleet.devices[0].id, elsewhere.devices[0].id] });
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe(ModelDeploymentErrorCode.WrongHardware);
    const empty = await buildDeviceProject(t.server.ctx.db, { tenantId: t.vendor.tenantId, count: 0 });
    const none = await deploy({ project_id: empty.projectId });
    expect(none.status).toBe(422);
    expect(none.body.code).toBe(ModelDeploymentErrorCode.NoDevices);
    // A project rollout takes every device of the project.
    const whole = await deploy({ project_id: fleet.projectId });
    expect(whole.status).toBe(201);
    expect(whole.body.device_count).toBe(fleet.devices.length);
    const listed = (await api<TRolloutPage>('GET', `${P.rollouts}?model_id=${model.id}&limit=1`, t.vendor.token)).body;
    expect(listed.data[0].id).toBe(whole.body.id);
    expect(listed.total_items).toBeGreaterThan(1);
  });

  it('keeps a deployed revision and its model (409) until no device holds it; then both delete', async () => {
    const other = await createModelVia(t.server, t.vendor.token, { tangram_product_id: model.tangram_product_id });
    const rev = (await uploadVia(t.server, t.vendor.token, other.id, randomBytes(1_000))).body;
    const rollout = (await api<TRollout>('POST', P.deploy(other.id, rev.revision), t.vendor.token, { device_ids: [fleet.devices[3].id] }))
      .body;
    expect((await api<{ data: TAiModelRevision[] }>('GET', aiModelPaths.revisions(other.id), t.vendor.token)).body.data[0].deployed).toBe(
      true,
    );
    for (const url of [aiModelPaths.revision(other.id, rev.revision), aiModelPaths.model(other.id)]) {
      const refused = await api('DELETE', url, t.vendor.token);
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe(AiModelErrorCode.Deployed);
    }
    // Another rollout to that device supersedes it: the revision is history, no longer deployed.
    await deploy({ device_ids: [fleet.devices[3].id] });
    expect((await api<{ data: TAiModelRevision[] }>('GET', aiModelPaths.revisions(other.id), t.vendor.token)).body.data[0].deployed).toBe(
      false,
    );
    expect((await api('DELETE', aiModelPaths.revision(other.id, rev.revision), t.vendor.token)).status).toBe(204);
    expect((await api('GET', P.rollout(rollout.id), t.vendor.token)).status).toBe(404);
    expect((await api('DELETE', aiModelPaths.model(other.id), t.vendor.token)).status).toBe(204);
  });
});
