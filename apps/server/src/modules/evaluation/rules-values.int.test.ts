/**
 * Rules on keys whose values are not numbers (docs/decisions/rules.md "Keys that are not numbers"), end to end: a
 * real MQTT device publishes strings and booleans; simple rules made through the API test equals / contains /
 * changed and open (and clear) alerts; a platform rule's condition tests the trigger's value with ==, contains() and
 * changed(); an operator that does not fit the key's type is 400 RULE_OP_MISMATCH naming the field.
 */
import {
  platformRulePaths as pr,
  RuleErrorCode,
  rulePaths,
  topics,
  type TErrorBody,
  type TFlowGraphInput,
  type TFlowRun,
  type TFlowRunList,
  type TPlatformRule,
  type TSimpleRule,
} from '@tessera/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltProject, type TFactorySensor } from '../../../test/device-factory.js';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { TEST_DB_KIND } from '../../../test/helpers.js';
import { alerts } from '../../db/schema.js';
import { alertsOf, connectDevice, startRuleServer, type TRuleTestServer } from './engine-test-kit.js';

const SENSORS: readonly TFactorySensor[] = [
  { key: 'temperature' },
  { key: 'state', valueType: 'string' },
  { key: 'door', valueType: 'boolean' },
  { key: 'config', valueType: 'json' },
];

const rule = (name: string, key: string, op: string, value: unknown = null) => ({
  name,
  key,
  op,
  value,
  level: 'alert',
  message: name,
});

describe(`rules on values that are not numbers (${TEST_DB_KIND})`, () => {
  let server: TRuleTestServer;
  let vendor: TBuiltAccount;
  const clients: MqttClient[] = [];
  beforeAll(async () => {
    server = await startRuleServer();
    vendor = await buildVendor(server);
  });
  afterAll(async () => {
    for (const c of clients) await c.endAsync();
    await server.stop();
  });

  async function project(): Promise<TBuiltProject> {
    return buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, sensors: SENSORS });
  }

  async function addRule(projectId: number, body: Record<string, unknown>) {
    return server.api<TSimpleRule & TErrorBody>('POST', rulePaths.simples(projectId), { token: vendor.token, body });
  }

  /** Publishes `[key, ts, value]` points one message each (QoS 1: stored on return) and waits for both engines. */
  async function publish(client: MqttClient, tangramId: string, points: [string, number, unknown][]) {
    for (const [key, ts, v] of points) {
      await client.publishAsync(topics.telemetry(tangramId), JSON.stringify({ key, ts, vs: [v] }), { qos: 1 });
      await server.settle();
      await server.flows.idle();
    }
  }

  it('simple rules fire on a string key: equals, contains and changed (an alert per change, cleared at once)', async () => {
    const p = await project();
    const ids: Record<string, number> = {};
    for (const [name, op, value] of [
      ['is fault', 'equals', 'fault'],
      ['says err', 'contains', 'err'],
      ['state moved', 'changed', null],
    ] as const) {
      const res = await addRule(p.projectId, rule(name, 'state', op, value));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({ op, value, threshold: null });
      ids[name] = res.body.id;
    }
    const [dev] = p.devices;
    const client = await connectDevice(server, dev);
    clients.push(client);
    const t0 = Date.now() - 10_000;
    await publish(client, dev.tangramId, [['state', t0, 'idle']]);
    // The first value ever: equals and contains are false, changed has nothing to compare with.
    expect(await alertsOf(server, dev.id)).toEqual([]);

    await publish(client, dev.tangramId, [
      ['state', t0 + 1000, 'fault'],
      ['state', t0 + 2000, 'fault'],
    ]);
    const byRule = async (name: string) =>
      server.ctx.db
        .select()
        .from(alerts)
        .where(and(eq(alerts.deviceId, dev.id), eq(alerts.ruleId, ids[name] as number), eq(alerts.ruleKind, 'simple')))
        .orderBy(asc(alerts.id));
    expect(await byRule('is fault')).toEqual([expect.objectContaining({ state: 'open', count: 2 })]);
    expect(await byRule('says err')).toEqual([]);
    // idle → fault changed (one alert, resolved at once); fault → fault did not.
    expect(await byRule('state moved')).toEqual([expect.objectContaining({ state: 'resolved', resolvedReason: 'cleared', count: 1 })]);

    await publish(client, dev.tangramId, [['state', t0 + 3000, 'error: jam']]);
    expect(await byRule('is fault')).toEqual([expect.objectContaining({ state: 'resolved', resolvedReason: 'cleared' })]);
    expect(await byRule('says err')).toEqual([expect.objectContaining({ state: 'open', message: 'says err' })]);
    expect((await byRule('state moved')).map((a) => a.state)).toEqual(['resolved', 'resolved']);
    // Each opening notified (the rule's alert level, no project channels chosen).
    const moved = server.notifications.filter((n) => n.deviceId === dev.id && n.ruleName === 'state moved');
    expect(moved.map((n) => n.reason)).toEqual(['opened', 'opened']);
  });

  it('a boolean key: equals true, and changed after the engine forgot the device (previous value read back)', async () => {
    const p = await project();
    const [dev] = p.devices;
    const client = await connectDevice(server, dev);
    clients.push(client);
    const t0 = Date.now() - 10_000;
    // Points before any rule exists: the engine keeps no memory of this device.
    await publish(client, dev.tangramId, [['door', t0, false]]);
    expect((await addRule(p.projectId, rule('door open', 'door', 'equals', true))).status).toBe(201);
    expect((await addRule(p.projectId, rule('door moved', 'door', 'changed'))).status).toBe(201);
    await publish(client, dev.tangramId, [['door', t0 + 1000, true]]);
    const list = await alertsOf(server, dev.id);
    expect(list.map((a) => [a.ruleName, a.state]).sort()).toEqual([
      ['door moved', 'resolved'],
      ['door open', 'open'],
    ]);
  });

  it('a platform rule tests the trigger’s value: changed() && contains(value, "err"), and == on a boolean', async () => {
    const p = await project();
    const [dev] = p.devices;
    const at = { x: 0, y: 0 };
    const graph = (key: string, expression: string): TFlowGraphInput => ({
      nodes: [
        {
          id: 'n1',
          type: 'start',
          position: at,
          data: { trigger: { kind: 'telemetry', scope: { kind: 'projects', ids: [p.projectId] }, keys: [key] } },
        },
        { id: 'n2', type: 'condition', position: at, data: { expression } },
        { id: 'n3', type: 'conditionResult', position: at, data: { result: true } },
        { id: 'n4', type: 'alert', position: at, data: { level: 'alert', message: `${key} {{value}}` } },
      ],
      edges: [
        { id: 'e1', source: 'n1', target: 'n2' },
        { id: 'e2', source: 'n2', target: 'n3' },
        { id: 'e3', source: 'n3', target: 'n4' },
      ],
    });
    const token = vendor.token;
    const ruleIds: number[] = [];
    for (const [name, key, expression] of [
      ['new error', 'state', 'changed() && contains(value, "err")'],
      ['door shut', 'door', 'value == false'],
    ]) {
      const created = await server.api<TPlatformRule>('POST', pr.rules, { token, body: { name, draft: graph(key, expression) } });
      const applied = await server.api('POST', pr.action(created.body.id, 'apply'), { token });
      expect(applied.status, JSON.stringify(applied.body)).toBe(200);
      expect((await server.api('POST', pr.action(created.body.id, 'start'), { token })).status).toBe(200);
      ruleIds.push(created.body.id);
    }
    const client = await connectDevice(server, dev);
    clients.push(client);
    const t0 = Date.now() - 10_000;
    await publish(client, dev.tangramId, [
      ['state', t0, 'ok'],
      ['state', t0 + 1000, 'err 1'],
      ['state', t0 + 2000, 'err 1'],
      ['door', t0, true],
      ['door', t0 + 1000, false],
    ]);
    const conditionOutputs = async (ruleId: number) => {
      const runs = (await server.api<TFlowRunList>('GET', pr.logs(ruleId), { token })).body.data;
      const out: unknown[] = [];
      for (const r of [...runs].reverse()) {
        const run = (await server.api<TFlowRun>('GET', pr.log(ruleId, r.id), { token })).body;
        expect(run.outcome, JSON.stringify(run.steps)).toBe('ok');
        out.push(run.steps.find((s) => s.node_id === 'n2')?.output);
      }
      return out;
    };
    // ok (no previous point: false), err 1 (changed and contains), err 1 again (not changed).
    expect(await conditionOutputs(ruleIds[0] as number)).toEqual([false, true, false]);
    expect(await conditionOutputs(ruleIds[1] as number)).toEqual([false, true]);
    const platform = (await alertsOf(server, dev.id)).filter((a) => a.ruleKind === 'platform');
    expect(platform.map((a) => [a.ruleId, a.message])).toEqual([
      [ruleIds[0], 'state err 1'],
      [ruleIds[1], 'door false'],
    ]);
  });

  it('an operator that does not fit the key’s type is 400 RULE_OP_MISMATCH naming the field', async () => {
    const p = await project();
    const refused = async (body: Record<string, unknown>, field: string) => {
      const res = await addRule(p.projectId, body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.code).toBe(RuleErrorCode.OpMismatch);
      expect(res.body.message.startsWith(`${field}: `), res.body.message).toBe(true);
      expect(res.body.details).toEqual([expect.objectContaining({ path: field })]);
    };
    await refused({ ...rule('num on text', 'state', 'gt'), threshold: 3, value: null }, 'op');
    await refused(rule('text on num', 'temperature', 'equals', 'hot'), 'op');
    await refused(rule('contains bool', 'door', 'contains', true), 'op');
    await refused(rule('wrong type', 'state', 'equals', 3), 'value');
    await refused(rule('no value', 'config', 'equals'), 'value');
    await refused({ ...rule('held change', 'state', 'changed'), duration_s: 60 }, 'duration_s');
    await refused({ ...rule('no threshold', 'temperature', 'gt') }, 'threshold');
    // A PUT that moves a comparison onto a string key is refused too; with a fitting op and value it is taken.
    const made = await addRule(p.projectId, { ...rule('hot', 'temperature', 'gt'), threshold: 30 });
    expect(made.status).toBe(201);
    const put = (body: Record<string, unknown>) =>
      server.api<TSimpleRule & TErrorBody>('PUT', rulePaths.simple(p.projectId, made.body.id), { token: vendor.token, body });
    const bad = await put({ key: 'state' });
    expect([bad.status, bad.body.code]).toEqual([400, RuleErrorCode.OpMismatch]);
    const good = await put({ key: 'config', op: 'contains', threshold: null, value: { mode: 'auto' } });
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect(good.body).toMatchObject({ key: 'config', op: 'contains', threshold: null, value: { mode: 'auto' } });
  });
});
