import {
  platformRulePaths as p,
  settingsPaths,
  type TFlowGraphInput,
  type TFlowRun,
  type TFlowRunList,
  type TPlatformRule,
  type TPlatformRuleList,
  type TRuleMetrics,
} from '@tessera/contracts';
import { and, eq } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, outboxEmails, platformRules } from '../../db/schema.js';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { buildDeviceProject, type TBuiltDevice, type TBuiltProject } from '../../../test/device-factory.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { overheating } from './platform-rules.fixtures.js';
import { startScriptedDevice } from '../device-control/device-control-test-kit.js';
import { connectMqtt } from '../ingest/ingest-test-kit.js';

describe(`platform rules (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let project: TBuiltProject;
  let client: MqttClient;

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 });
    const device = project.devices[0];
    if (!device) throw new Error('no device');
    client = await connectMqtt(server.mqttUrl, device.tangramId, device.secret);
    const emails = await server.api('PUT', settingsPaths.notificationEmails(project.projectId), {
      token: vendor.token,
      body: { emails: ['ops@example.com'] },
    });
    expect(emails.status).toBe(200);
  });
  afterAll(async () => {
    await client?.endAsync();
    await server?.stop();
  });

  const api = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, token = vendor.token) =>
    server.api<T>(method, url, { token, body });
  /** What the passing of time does to a stop's hold (every replica's cache expired, no renewal), then a settle tick. */
  const lapseStopHold = async (ruleId: number) => {
    await server.ctx.db.update(platformRules).set({ heldUntil: 1 }).where(eq(platformRules.id, ruleId));
    await server.flows.settleStops();
  };

  async function publish(value: number, ts = Date.now()) {
    const device = project.devices[0] as { tangramId: string };
    await client.publishAsync(`devices/${device.tangramId}/telemetry`, JSON.stringify([{ key: 'temperature', ts, vs: [value] }]), {
      qos: 1,
    });
    await server.flows.idle();
  }

  it('refuses callers without a token (401) and users (403); another tenant sees no rule (404)', async () => {
    const created = await api<TPlatformRule>('POST', p.rules, { name: 'probe' });
    expect(created.status).toBe(201);
    expect((await server.api('GET', p.rules)).status).toBe(401);
    const user = await buildUser(server, vendor.tenantId);
    for (const [method, url] of [
      ['GET', p.rules],
      ['GET', p.rule(created.body.id)],
      ['POST', p.action(created.body.id, 'apply')],
      ['GET', p.engineConfig],
      ['GET', p.metrics],
      ['GET', p.devices],
      ['GET', p.alertsDashboard],
      ['GET', p.alertsSummary],
      ['GET', p.alertsHistory],
    ] as const) {
      expect((await api(method, url, undefined, user.token)).status, `${method} ${url}`).toBe(403);
    }
    const other = await buildVendor(server);
    expect((await api('GET', p.rule(created.body.id), undefined, other.token)).status).toBe(404);
    expect((await api('POST', p.action(created.body.id, 'start'), undefined, other.token)).status).toBe(404);
    expect((await api('DELETE', p.rule(created.body.id), undefined, other.token)).status).toBe(404);
    expect((await api<TPlatformRuleList>('GET', p.rules, undefined, other.token)).body.total_items).toBe(0);
    expect((await api('DELETE', p.rule(created.body.id))).status).toBe(204);
  });

  it('applies only a flow that compiles: a broken expression is refused with the problem on its node', async () => {
    const created = await api<TPlatformRule>('POST', p.rules, { name: 'broken', draft: overheating(project.projectId, 'value >') });
    expect(created.body.status).toBe('pending');
    const applied = await api<{ code: string; details: { path: string; message: string; code?: string; params?: object }[] }>(
      'POST',
      p.action(created.body.id, 'apply'),
    );
    expect(applied.status).toBe(422);
    expect(applied.body.code).toBe('RULE_APPLY_FAILED');
    expect(applied.body.details.map((d) => d.path)).toEqual(['n2']);
    // The details carry the problem's code, which the console translates.
    expect(applied.body.details[0]).toMatchObject({ code: 'syntax', params: { detail: expect.any(String) } });
    const rule = (await api<TPlatformRule>('GET', p.rule(created.body.id))).body;
    expect(rule.status).toBe('error');
    expect(rule.problems[0]).toMatchObject({ node_id: 'n2', code: 'syntax', message: expect.stringMatching(/^syntax: /) });
    expect((await api('POST', p.action(created.body.id, 'start'))).status).toBe(409);

    // A field the schema refuses names its field; a flow without a device for its alert names the node type.
    const draft = overheating(project.projectId);
    const bad = {
      ...draft,
      nodes: draft.nodes.map((n) => (n.id === 'n4' ? { ...n, data: { level: 'panic', message: 'x' } } : n)),
    };
    await api('PUT', p.rule(created.body.id), { name: 'broken', draft: bad });
    await api('POST', p.action(created.body.id, 'apply'));
    const refused = (await api<TPlatformRule>('GET', p.rule(created.body.id))).body;
    expect(refused.problems).toContainEqual(
      expect.objectContaining({
        node_id: 'n4',
        code: 'invalid_field',
        params: expect.objectContaining({ field: 'level', issue: 'invalid_value' }),
      }),
    );
  });

  it('runs on a real MQTT point: the true branch opens a platform alert and queues the mail; the trace shows the path', async () => {
    const created = await api<TPlatformRule>('POST', p.rules, { name: 'Line overheating', draft: overheating(project.projectId) });
    const applied = await api<TPlatformRule>('POST', p.action(created.body.id, 'apply'));
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ status: 'good', version: 1, dirty: false, trigger_kind: 'telemetry' });
    expect((await api<TPlatformRule>('POST', p.action(created.body.id, 'start'))).body.status).toBe('running');

    await publish(25);
    await publish(35.5);

    const runs = (await api<TFlowRunList>('GET', p.logs(created.body.id))).body;
    expect(runs.data.map((r) => r.outcome)).toEqual(['ok', 'ok']);
    const hot = (await api<TFlowRun>('GET', p.log(created.body.id, runs.data[0]?.id ?? 0))).body;
    expect(hot.steps.map((s) => s.node_id)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
    const cold = (await api<TFlowRun>('GET', p.log(created.body.id, runs.data[1]?.id ?? 0))).body;
    expect(cold.steps.map((s) => s.node_id)).toEqual(['n1', 'n2', 'n6', 'n7']);

    const device = project.devices[0] as { id: number; tangramId: string };
    const opened = await server.ctx.db
      .select()
      .from(alerts)
      .where(and(eq(alerts.deviceId, device.id), eq(alerts.ruleKind, 'platform')));
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ level: 'alert', message: `${device.tangramId} overheating at 35.5`, ruleName: 'Line overheating' });
    const mails = await server.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to, 'ops@example.com'));
    expect(mails.some((m) => m.subject.includes('Line overheating') || m.text.includes('Line overheating: 35.5'))).toBe(true);

    // A second hot point refreshes the same alert: one open alert per rule, node and device.
    await publish(36);
    expect(
      await server.ctx.db
        .select()
        .from(alerts)
        .where(and(eq(alerts.deviceId, device.id), eq(alerts.ruleKind, 'platform'))),
    ).toHaveLength(1);
    // …and its notification is held until the project's re-notify interval has passed: no mail per point.
    const [refresh] = (await api<TFlowRunList>('GET', p.logs(created.body.id))).body.data;
    const refreshed = (await api<TFlowRun>('GET', p.log(created.body.id, refresh?.id ?? 0))).body;
    expect(refreshed.steps.find((s) => s.node_id === 'n5')?.output).toBe('held');
    const after = await server.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to, 'ops@example.com'));
    expect(after.filter((m) => m.text.includes('Line overheating: 36'))).toEqual([]);

    const metrics = (await api<TRuleMetrics>('GET', p.metrics)).body;
    expect(metrics.rules.find((r) => r.rule_id === created.body.id)).toMatchObject({ runs: 3, errors: 0, refused: 0 });

    // Replay the cold run against a draft whose threshold is 20: it would alert, but only records it.
    await api('PUT', p.rule(created.body.id), { name: 'Line overheating', draft: overheating(project.projectId, 'value > 20') });
    const before = await server.ctx.db.select().from(outboxEmails);
    const replay = await api<{ run_id: number }>('POST', p.action(created.body.id, 'replay'), { run_id: runs.data[1]?.id });
    expect(replay.status).toBe(200);
    const replayed = (await api<TFlowRun>('GET', p.log(created.body.id, replay.body.run_id))).body;
    expect(replayed).toMatchObject({ replay: true, outcome: 'ok' });
    expect(replayed.steps.map((s) => s.node_id)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
    expect(replayed.effects.map((e) => e.kind)).toEqual(['alert', 'notification']);
    expect(await server.ctx.db.select().from(outboxEmails)).toHaveLength(before.length);

    // Stop, then delete: a running rule cannot be deleted.
    expect((await api('DELETE', p.rule(created.body.id))).status).toBe(409);
    expect((await api<TPlatformRule>('POST', p.action(created.body.id, 'stop'))).body.status).toBe('stopping');
    await publish(40);
    expect((await api<TFlowRunList>('GET', p.logs(created.body.id))).body.total_items).toBe(4);
    await lapseStopHold(created.body.id);
    expect((await api<TPlatformRule>('GET', p.rule(created.body.id))).body.status).toBe('stopped');
    const copy = await api<TPlatformRule>('POST', p.action(created.body.id, 'copy'));
    expect(copy.body).toMatchObject({ name: 'Line overheating (copy)', status: 'pending', version: 0 });
    expect((await api('DELETE', p.rule(created.body.id))).status).toBe(204);
  });

  it('holds a tenant to its engine limits: the rule count and the queue; an over-limit run is refused and recorded', async () => {
    const config = await api('PUT', p.engineConfig, {
      max_rules: 50,
      max_nodes: 100,
      runs_per_second: 1,
      queue_max: 0,
      trace_runs: 100,
      trace_days: 7,
    });
    expect(config.status).toBe(200);
    const created = await api<TPlatformRule>('POST', p.rules, { name: 'limited', draft: overheating(project.projectId) });
    await api('POST', p.action(created.body.id, 'apply'));
    await api('POST', p.action(created.body.id, 'start'));
    // Two points in one message: the first run starts, the second finds the second's allowance spent and no room.
    const device = project.devices[0] as { tangramId: string };
    const now = Date.now();
    const points = [now, now + 1].map((ts) => ({ key: 'temperature', ts, vs: [10] }));
    await client.publishAsync(`devices/${device.tangramId}/telemetry`, JSON.stringify(points), { qos: 1 });
    await server.flows.idle();
    const runs = (await api<TFlowRunList>('GET', p.logs(created.body.id))).body;
    expect(runs.data.map((r) => r.outcome).sort()).toEqual(['ok', 'refused']);
    expect(runs.data.find((r) => r.outcome === 'refused')?.error).toMatch(/over the tenant's limit/);
    await api('POST', p.action(created.body.id, 'stop'));
    await api('PUT', p.engineConfig, {
      max_rules: 50,
      max_nodes: 100,
      runs_per_second: 1000,
      queue_max: 10000,
      trace_runs: 100,
      trace_days: 7,
    });
  });

  it('stop: the run in flight finishes, no new run starts, and the rule is stopping until then, stopped after', async () => {
    const at = { x: 0, y: 0 };
    // The device listens for commands but never answers: the command waits its whole timeout.
    const silentDevice = project.devices[1] as TBuiltDevice;
    const silent = await startScriptedDevice(server.mqttUrl, silentDevice, () => null);
    const slow: TFlowGraphInput = {
      nodes: [
        {
          id: 'n1',
          type: 'start',
          position: at,
          data: { trigger: { kind: 'telemetry', scope: { kind: 'projects', ids: [project.projectId] }, keys: ['current'] } },
        },
        {
          id: 'n2',
          type: 'iotRemoteControl',
          position: at,
          data: { command: { name: 'getDeviceInfo' }, timeout_ms: 1_500, result_variable: 'answer' },
        },
      ],
      edges: [{ id: 'e1', source: 'n1', target: 'n2' }],
    };
    const created = await api<TPlatformRule>('POST', p.rules, { name: 'slow command', draft: slow });
    const applied = await api('POST', p.action(created.body.id, 'apply'));
    expect(applied.body).toMatchObject({ status: 'good' });
    expect((await api<TPlatformRule>('POST', p.action(created.body.id, 'start'))).body.status).toBe('running');
    const point = (v: number) =>
      silent.client.publishAsync(
        `devices/${silentDevice.tangramId}/telemetry`,
        JSON.stringify([{ key: 'current', ts: Date.now(), vs: [v] }]),
        { qos: 1 },
      );
    await point(1);
    await expect.poll(() => server.flows.inFlightRuns(created.body.id), { timeout: 5_000 }).toBe(1);

    expect((await api<TPlatformRule>('POST', p.action(created.body.id, 'stop'))).body.status).toBe('stopping');
    expect((await api('DELETE', p.rule(created.body.id))).status).toBe(409);
    await lapseStopHold(created.body.id);
    expect((await api<TPlatformRule>('GET', p.rule(created.body.id))).body.status).toBe('stopping');
    await point(2);
    await server.flows.idle();
    const runs = (await api<TFlowRunList>('GET', p.logs(created.body.id))).body;
    expect(runs.data.map((r) => r.outcome)).toEqual(['ok']);
    const run = (await api<TFlowRun>('GET', p.log(created.body.id, runs.data[0]?.id ?? 0))).body;
    expect(run.steps[1]?.output).toMatchObject({ outcome: 'timeout' });

    await lapseStopHold(created.body.id);
    expect((await api<TPlatformRule>('GET', p.rule(created.body.id))).body.status).toBe('stopped');
    expect((await api('DELETE', p.rule(created.body.id))).status).toBe(204);
    await silent.stop();
  });

  it('stop settles by itself once every replica has dropped the rule from its cache', async () => {
    const created = await api<TPlatformRule>('POST', p.rules, { name: 'idle rule', draft: overheating(project.projectId) });
    await api('POST', p.action(created.body.id, 'apply'));
    await api('POST', p.action(created.body.id, 'start'));
    const stoppedAt = Date.now();
    expect((await api<TPlatformRule>('POST', p.action(created.body.id, 'stop'))).body.status).toBe('stopping');
    await expect
      .poll(async () => (await api<TPlatformRule>('GET', p.rule(created.body.id))).body.status, { timeout: 15_000, interval: 250 })
      .toBe('stopped');
    // Not before the hold: the rule cache (5 s) plus two settle ticks.
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(5_000);
    expect((await api<TPlatformRule>('POST', p.action(created.body.id, 'start'))).body.status).toBe('running');
    await api('POST', p.action(created.body.id, 'stop'));
  });
});
