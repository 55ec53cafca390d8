/**
 * Outbound webhooks end to end: a vendor adds one through the API, a real device crosses a rule, and a real HTTP
 * receiver gets `alert.opened` then `alert.cleared`, each signed with the secret answered at creation; the delivery log
 * shows what the receiver answered; a receiver that fails is retried; the refusals (no login, a user, another tenant).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  rulePaths,
  type TWebhook,
  type TWebhookDeliveryPage,
  type TWebhookWithSecret,
  WEBHOOK_HEADERS,
  webhookPaths,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { TEST_DB_KIND } from '../../../test/helpers.js';
import { until } from '../../../test/until.js';
import { connectDevice, publishPoints, startRuleServer, type TRuleTestServer } from '../evaluation/engine-test-kit.js';
import { isValidWebhookSignature } from './signature.js';

interface TReceived {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local receiver answering `status()` to each POST, recording what it got. */
async function startReceiver(status: () => number): Promise<{ url: string; received: TReceived[]; close: () => Promise<void> }> {
  const received: TReceived[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(status()).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe(`project webhooks (${TEST_DB_KIND})`, () => {
  let server: TRuleTestServer;
  let vendor: TBuiltAccount;
  let project: TBuiltProject;
  beforeAll(async () => {
    server = await startRuleServer();
    vendor = await buildVendor(server);
    project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
  });
  afterAll(() => server.stop());

  const create = (url: string, events = ['alert.opened', 'alert.cleared']) =>
    server.api<TWebhookWithSecret>('POST', webhookPaths.list(project.projectId), { token: vendor.token, body: { url, events } });

  it('signs alert.opened and alert.cleared of a real device crossing a rule, with the secret shown once', async () => {
    const receiver = await startReceiver(() => 204);
    const created = await create(receiver.url);
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    expect(created.body.secret_masked).toBe(`••••${created.body.secret.slice(-4)}`);
    const listed = await server.api<{ data: TWebhook[] }>('GET', webhookPaths.list(project.projectId), { token: vendor.token });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);

    const rule = await server.api('POST', rulePaths.simples(project.projectId), {
      token: vendor.token,
      body: { name: 'Too hot', key: 'temperature', op: 'gt', threshold: 30, level: 'alert', message: 'Temperature above 30' },
    });
    expect(rule.status).toBe(201);
    const [device] = project.devices;
    const client = await connectDevice(server, device!);
    const t0 = Date.now();
    await publishPoints(server, client, device!.tangramId, [['temperature', t0, 31.5]]);
    await publishPoints(server, client, device!.tangramId, [['temperature', t0 + 1000, 20]]);
    await client.endAsync();

    await until(async () => receiver.received.length >= 2 || undefined, 15_000);
    const bodies = receiver.received.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.event).sort()).toEqual(['alert.cleared', 'alert.opened']);
    const opened = bodies.find((b) => b.event === 'alert.opened');
    expect(opened).toMatchObject({
      project: { id: project.projectId },
      device: { tangram_id: device!.tangramId },
      alert: { rule_name: 'Too hot', level: 'alert', message: 'Temperature above 30', trigger: { key: 'temperature', value: 31.5 } },
    });
    for (const r of receiver.received) {
      expect(r.headers['content-type']).toBe('application/json');
      const timestampS = Number(r.headers[WEBHOOK_HEADERS.timestamp]);
      const signature = String(r.headers[WEBHOOK_HEADERS.signature]);
      expect(isValidWebhookSignature({ secret: created.body.secret, timestampS, body: r.body, signature, nowS: Date.now() / 1000 })).toBe(
        true,
      );
      expect(isValidWebhookSignature({ secret: 'whsec_wrong', timestampS, body: r.body, signature, nowS: Date.now() / 1000 })).toBe(false);
    }

    // The worker records the answer just after the receiver has it.
    const log = await until(async () => {
      const page = await server.api<TWebhookDeliveryPage>('GET', webhookPaths.deliveries(project.projectId, created.body.id), {
        token: vendor.token,
      });
      return page.body.data.length === 2 && page.body.data.every((d) => d.status === 'sent') ? page : undefined;
    }, 10_000);
    expect(log.body.total_items).toBe(2);
    expect(log.body.data.every((d) => d.response_status === 204 && d.attempts === 1)).toBe(true);
    await server.api('DELETE', webhookPaths.one(project.projectId, created.body.id), { token: vendor.token });
    await receiver.close();
  });

  it('retries a receiver that fails, and the test send shows its answer in the log', async () => {
    let answers = [500];
    const receiver = await startReceiver(() => answers.shift() ?? 200);
    const created = await create(receiver.url, ['alert.opened']);
    const sent = await server.api<{ id: number; status: string }>('POST', webhookPaths.test(project.projectId, created.body.id), {
      token: vendor.token,
    });
    expect(sent.status).toBe(202);
    const logOf = async () =>
      (await server.api<TWebhookDeliveryPage>('GET', webhookPaths.deliveries(project.projectId, created.body.id), { token: vendor.token }))
        .body.data[0];
    await until(async () => (await logOf())?.response_status === 500 || undefined, 10_000);
    expect(await logOf()).toMatchObject({ id: sent.body.id, status: 'pending', attempts: 1, last_error: 'the receiver answered 500' });
    await until(async () => (await logOf())?.status === 'sent' || undefined, 15_000);
    expect(await logOf()).toMatchObject({ attempts: 2, response_status: 200, event: 'webhook.test' });
    expect(JSON.parse(receiver.received[1]!.body)).toMatchObject({ event: 'webhook.test', project: { id: project.projectId } });
    answers = [];
    await receiver.close();
  });

  it('rotating the secret signs with the new one only', async () => {
    const receiver = await startReceiver(() => 200);
    const created = await create(receiver.url);
    const rotated = await server.api<TWebhookWithSecret>('POST', `${webhookPaths.one(project.projectId, created.body.id)}/secret`, {
      token: vendor.token,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    await server.api('POST', webhookPaths.test(project.projectId, created.body.id), { token: vendor.token });
    await until(async () => receiver.received.length === 1 || undefined, 10_000);
    const [r] = receiver.received;
    const check = (secret: string) =>
      isValidWebhookSignature({
        secret,
        timestampS: Number(r!.headers[WEBHOOK_HEADERS.timestamp]),
        body: r!.body,
        signature: String(r!.headers[WEBHOOK_HEADERS.signature]),
        nowS: Date.now() / 1000,
      });
    expect(check(rotated.body.secret)).toBe(true);
    expect(check(created.body.secret)).toBe(false);
    await receiver.close();
  });

  it('refuses no login (401), a user (403), another tenant (404) and a URL that is not http(s) (400)', async () => {
    const user = await buildUser(server, vendor.tenantId);
    const other = await buildVendor(server);
    const path = webhookPaths.list(project.projectId);
    expect((await server.api('GET', path)).status).toBe(401);
    expect((await server.api('GET', path, { token: user.token })).status).toBe(403);
    expect((await server.api('GET', path, { token: other.token })).status).toBe(404);
    const body = { url: 'https://example.com/x', events: ['alert.opened'] };
    expect((await server.api('POST', path, { token: other.token, body })).status).toBe(404);
    const mine = await create('https://example.com/hook');
    expect((await server.api('DELETE', webhookPaths.one(project.projectId, mine.body.id), { token: other.token })).status).toBe(404);
    expect((await server.api('GET', webhookPaths.deliveries(project.projectId, mine.body.id), { token: other.token })).status).toBe(404);
    for (const url of ['ftp://example.com/x', 'javascript:alert(1)', 'https://user:pw@example.com/x', 'not a url']) {
      const res = await server.api<{ code: string }>('POST', path, { token: vendor.token, body: { url, events: ['alert.opened'] } });
      expect(res.status, url).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await server.api('POST', path, { token: vendor.token, body: { url: 'https://example.com/x', events: [] } })).status).toBe(400);
  });
});
