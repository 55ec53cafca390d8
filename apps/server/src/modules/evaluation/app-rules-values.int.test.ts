/**
 * App rules (`userRules`) on keys whose values are not numbers (docs/decisions/rules.md "Keys that are not numbers"),
 * end to end: a user sets equals / contains / changed rules through the API, a real MQTT device publishes strings and
 * booleans, and the rules raise their alerts and notify their owner; an operator, threshold or value that does not fit
 * the key is 400 RULE_OP_MISMATCH naming the field, on POST and on PUT (checked on the rule as it would become).
 */
import { deviceControlPaths as p, RuleErrorCode, topics, type TErrorBody, type TUserRule } from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltDevice, type TFactorySensor } from '../../../test/device-factory.js';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { TEST_DB_KIND } from '../../../test/helpers.js';
import { alertsOf, connectDevice, startRuleServer, type TRuleTestServer } from './engine-test-kit.js';

const SENSORS: readonly TFactorySensor[] = [
  { key: 'temperature' },
  { key: 'state', valueType: 'string' },
  { key: 'door', valueType: 'boolean' },
  { key: 'config', valueType: 'json' },
];

describe(`app rules on values that are not numbers (${TEST_DB_KIND})`, () => {
  let server: TRuleTestServer;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  const clients: MqttClient[] = [];
  beforeAll(async () => {
    server = await startRuleServer();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
  });
  afterAll(async () => {
    for (const c of clients) await c.endAsync();
    await server.stop();
  });

  async function device(): Promise<TBuiltDevice> {
    const [dev] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, sensors: SENSORS })).devices;
    await authorise(server.ctx.db, dev.id, user.accountId);
    return dev;
  }
  const create = (dev: TBuiltDevice, body: Record<string, unknown>) =>
    server.api<TUserRule & TErrorBody>('POST', p.userRules(dev.tangramId), { token: user.token, body });
  const update = (dev: TBuiltDevice, id: number, body: Record<string, unknown>) =>
    server.api<TUserRule & TErrorBody>('PUT', p.userRule(dev.tangramId, id), { token: user.token, body });

  /** Publishes `[key, ts, value]` points one message each (QoS 1: stored on return) and waits for the engine. */
  async function publish(client: MqttClient, tangramId: string, points: [string, number, unknown][]) {
    for (const [key, ts, v] of points) {
      await client.publishAsync(topics.telemetry(tangramId), JSON.stringify({ key, ts, vs: [v] }), { qos: 1 });
      await server.settle();
    }
  }

  it('a string key: equals and changed fire from a real MQTT device, notifying the owner with the condition', async () => {
    const dev = await device();
    const fault = await create(dev, { name: 'Fault', key: 'state', op: 'equals', value: 'fault', level: 'alert', cooldown_s: 0 });
    expect(fault.status, JSON.stringify(fault.body)).toBe(201);
    expect(fault.body).toMatchObject({ op: 'equals', value: 'fault', threshold: null, slot: 'v1' });
    const moved = await create(dev, { name: 'Moved', key: 'state', op: 'changed' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(201);
    const says = await create(dev, { name: 'Says err', key: 'state', op: 'contains', value: 'err' });
    expect(says.status).toBe(201);
    const client = await connectDevice(server, dev);
    clients.push(client);
    const t0 = Date.now() - 10_000;
    await publish(client, dev.tangramId, [['state', t0, 'idle']]);
    // The first value: not "fault", nothing to have changed from.
    expect(await alertsOf(server, dev.id)).toEqual([]);

    await publish(client, dev.tangramId, [['state', t0 + 1000, 'fault']]);
    const alerts = await alertsOf(server, dev.id);
    expect(alerts.map((a) => [a.ruleKind, a.ruleName, a.state, a.message]).sort()).toEqual([
      ['app', 'Fault', 'open', 'state equals "fault"'],
      ['app', 'Moved', 'resolved', 'state changed'],
    ]);
    const mine = server.notifications.filter((n) => n.deviceId === dev.id);
    expect(mine.map((n) => [n.ruleName, n.reason, n.ownerAccountId]).sort()).toEqual([
      ['Fault', 'opened', user.accountId],
      ['Moved', 'opened', user.accountId],
    ]);

    await publish(client, dev.tangramId, [['state', t0 + 2000, 'error: jam']]);
    const after = await alertsOf(server, dev.id);
    expect(after.filter((a) => a.ruleName === 'Fault').map((a) => a.state)).toEqual(['resolved']);
    expect(after.filter((a) => a.ruleName === 'Says err').map((a) => [a.state, a.message])).toEqual([['open', 'state contains "err"']]);
    expect(after.filter((a) => a.ruleName === 'Moved').map((a) => a.state)).toEqual(['resolved', 'resolved']);
  });

  it('a boolean key: equals true fires; a PUT onto a number key without a threshold is refused', async () => {
    const dev = await device();
    const open = await create(dev, { name: 'Door open', key: 'door', op: 'equals', value: true });
    expect(open.status, JSON.stringify(open.body)).toBe(201);
    const client = await connectDevice(server, dev);
    clients.push(client);
    await publish(client, dev.tangramId, [['door', Date.now() - 1000, true]]);
    expect((await alertsOf(server, dev.id)).map((a) => [a.ruleName, a.state, a.message])).toEqual([
      ['Door open', 'open', 'door equals true'],
    ]);
    // Moving the rule to a number key keeps op equals: refused as it would become, naming the field.
    const moved = await update(dev, open.body.id, { key: 'temperature' });
    expect(moved.status).toBe(400);
    expect(moved.body).toMatchObject({ code: RuleErrorCode.OpMismatch, details: [{ path: 'op' }] });
    const comparison = await update(dev, open.body.id, { key: 'temperature', op: 'gt', threshold: 30, value: null });
    expect(comparison.status, JSON.stringify(comparison.body)).toBe(200);
    expect(comparison.body).toMatchObject({ key: 'temperature', op: 'gt', threshold: 30, value: null });
  });

  it('refuses what does not fit the key with 400 RULE_OP_MISMATCH naming the field', async () => {
    const dev = await device();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [
        { key: 'state', op: 'gt', threshold: 3 },
        'op',
        /^op: state holds string values: its operators are equals, contains, changed, not "gt"/,
      ],
      [{ key: 'temperature', op: 'equals', value: 3 }, 'op', /^op: temperature is a number key/],
      [{ key: 'temperature', op: 'gt' }, 'threshold', /^threshold: /],
      [{ key: 'state', op: 'equals', value: 3 }, 'value', /^value: /],
      [{ key: 'state', op: 'equals', value: 'x', threshold: 1 }, 'threshold', /^threshold: /],
      [{ key: 'state', op: 'changed', value: 'x' }, 'value', /^value: /],
      [{ key: 'door', op: 'contains', value: true }, 'op', /^op: door holds boolean values: its operators are equals, changed/],
      [{ key: 'config', op: 'equals', value: 'auto' }, 'value', /^value: /],
    ];
    for (const [fields, path, message] of cases) {
      const res = await create(dev, { name: 'Bad', ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.code, JSON.stringify(fields)).toBe(RuleErrorCode.OpMismatch);
      expect(res.body.message, JSON.stringify(fields)).toMatch(message);
      expect(res.body.details, JSON.stringify(fields)).toEqual([expect.objectContaining({ path })]);
    }
    const json = await create(dev, { name: 'Auto', key: 'config', op: 'contains', value: { mode: 'auto' } });
    expect(json.status, JSON.stringify(json.body)).toBe(201);
    const list = await server.api<{ data: TUserRule[] }>('GET', p.userRules(dev.tangramId), { token: user.token });
    expect(list.body.data.map((r) => [r.name, r.op, r.value])).toEqual([['Auto', 'contains', { mode: 'auto' }]]);
  });
});
