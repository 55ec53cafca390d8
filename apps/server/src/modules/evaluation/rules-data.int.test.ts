import { deviceControlPaths, topics, type TRuleProgram } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { authorise, buildDeviceProject } from '../../../test/device-factory.js';
import { TEST_DB_KIND } from '../../../test/helpers.js';
import { deviceCommands } from '../../db/schema.js';
import { waitUntil } from '../ingest/ingest-test-kit.js';
import { cmp, num, tel } from './engine.fixtures.js';
import {
  alertsOf,
  connectDevice,
  insertProgram,
  publishPoints,
  publishStatus,
  setRuleType,
  startRuleServer,
  type TRuleTestServer,
} from './engine-test-kit.js';

const alertOf = (message: string) => ({ type: 'alert', level: 'early_warning', message }) as const;
const program = (
  condition: TRuleProgram['rules'][number]['condition'],
  actions: TRuleProgram['rules'][number]['actions'],
): TRuleProgram => ({
  version: 1,
  rules: [{ block_id: 'r', condition, actions }],
});

describe(`rule data: missing values, aggregates, status, commands, app rules (${TEST_DB_KIND})`, () => {
  let server: TRuleTestServer;
  let vendor: TBuiltAccount;
  beforeAll(async () => {
    server = await startRuleServer();
    vendor = await buildVendor(server);
  });
  afterAll(() => server.stop());

  async function device(statusGroups = false) {
    const project = await buildDeviceProject(server.ctx.db, {
      tenantId: vendor.tenantId,
      statusGroups: statusGroups ? [{ name: 'Mode', index: 4, bytesLength: 2, values: [{ value: 2, label: 'Fault' }] }] : [],
    });
    const client = await connectDevice(server, project.devices[0]);
    return { project, dev: project.devices[0], client };
  }

  it('missing data is unknown: nothing fires until every operand has a value ("not" of nothing is not true)', async () => {
    const { project, dev, client } = await device();
    await insertProgram(
      server,
      project.projectId,
      'Dry heat',
      program(
        {
          type: 'and',
          conditions: [cmp(tel('temperature'), 'gt', num(0)), { type: 'not', condition: cmp(tel('humidity'), 'gt', num(50)) }],
        },
        [alertOf('dry')],
      ),
    );
    const unknownBefore = server.rules.counters.unknownEvaluations;
    const t0 = Date.now();
    await publishPoints(server, client, dev.tangramId, [['temperature', t0, 10]]);
    expect(server.rules.counters.unknownEvaluations - unknownBefore).toBe(1);
    expect(await alertsOf(server, dev.id)).toEqual([]);
    await publishPoints(server, client, dev.tangramId, [['humidity', t0 + 1000, 40]]);
    expect(await alertsOf(server, dev.id)).toMatchObject([
      { ruleKind: 'program', ruleName: 'Dry heat', level: 'early_warning', state: 'open' },
    ]);
    await client.endAsync();
  });

  it('aggregates read the telemetry table over the window before t; an empty window is unknown and resolves nothing', async () => {
    const { project, dev, client } = await device();
    const avgHot = cmp({ type: 'aggregate', fn: 'avg', key: 'temperature', slot: 'v1', window_s: 60 }, 'gt', num(30));
    await insertProgram(
      server,
      project.projectId,
      'Avg hot',
      program({ type: 'and', conditions: [avgHot, cmp(tel('humidity'), 'lt', num(200))] }, [alertOf('avg')]),
    );
    const t0 = Date.now() - 3_600_000;
    await publishPoints(server, client, dev.tangramId, [
      ['temperature', t0 - 30_000, 50],
      ['temperature', t0, 20],
      ['humidity', t0, 10],
    ]);
    expect((await alertsOf(server, dev.id)).map((a) => a.state)).toEqual(['open']); // avg(50, 20) = 35
    await publishPoints(server, client, dev.tangramId, [['humidity', t0 + 120_000, 10]]); // nothing in (t − 60 s, t]
    expect((await alertsOf(server, dev.id)).map((a) => a.state)).toEqual(['open']);
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 + 121_000, 20]]);
    expect((await alertsOf(server, dev.id)).map((a) => [a.state, a.resolvedReason])).toEqual([['resolved', 'cleared']]);
    await client.endAsync();
  });

  it('status conditions read the slice of the newest status word', async () => {
    const { project, dev, client } = await device(true);
    await insertProgram(
      server,
      project.projectId,
      'Fault',
      program({ type: 'status', group: 'Mode', index: 4, length: 2, op: 'eq', value: 2, label: 'Fault' }, [alertOf('fault')]),
    );
    const t0 = Date.now();
    await publishStatus(server, client, dev.tangramId, t0, 0b01_0000);
    expect(await alertsOf(server, dev.id)).toEqual([]);
    await publishStatus(server, client, dev.tangramId, t0 + 1000, 0b10_0001);
    expect((await alertsOf(server, dev.id)).map((a) => [a.state, a.triggerKey])).toEqual([['open', null]]);
    await publishStatus(server, client, dev.tangramId, t0 - 1000, 0); // older: stored, not evaluated
    await publishStatus(server, client, dev.tangramId, t0 + 2000, 0);
    expect((await alertsOf(server, dev.id)).map((a) => a.state)).toEqual(['resolved']);
    await client.endAsync();
  });

  it('command actions publish devices/{id}/commands/{reqId} and the outcome lands in the command log', async () => {
    const { project, dev, client } = await device();
    await insertProgram(
      server,
      project.projectId,
      'Fan',
      program(cmp(tel('temperature'), 'gt', num(30)), [
        { type: 'command', name: 'fan.on', value: tel('temperature') },
        { type: 'notify', channel: 'line', message: 'fan on' },
      ]),
    );
    const received: { topic: string; body: unknown }[] = [];
    client.on('message', (topic, payload) => {
      received.push({ topic, body: JSON.parse(payload.toString()) });
      void client.publishAsync(`${topic}/reply`, JSON.stringify({ ok: true, result: 'spinning' }), { qos: 1 });
    });
    await client.subscribeAsync(topics.command(dev.tangramId, '+'), { qos: 1 });
    const before = server.notifications.length;
    await publishPoints(server, client, dev.tangramId, [['temperature', Date.now(), 33]]);
    await waitUntil(() => received.length === 1);
    expect(received[0].topic).toMatch(new RegExp(`^devices/${dev.tangramId}/commands/[0-9a-f-]{36}$`));
    expect(received[0].body).toEqual({ name: 'fan.on', params: { value: 33 } });
    await waitUntil(
      async () => (await server.ctx.db.select().from(deviceCommands).where(eq(deviceCommands.deviceId, dev.id))).length === 1,
    );
    const [log] = await server.ctx.db.select().from(deviceCommands).where(eq(deviceCommands.deviceId, dev.id));
    expect(log).toMatchObject({ name: 'fan.on', outcome: 'ok', accountId: null, accountEmail: 'rule: Fan', params: { value: 33 } });
    // A rule without an alert sends its notify actions; no alert row.
    expect(server.notifications.slice(before)).toEqual([
      expect.objectContaining({ reason: 'notify', alertId: null, level: null, message: 'fan on', projectLine: true, projectEmail: false }),
    ]);
    expect(await alertsOf(server, dev.id)).toEqual([]);
    await client.endAsync();
  });

  it('app rules: level with their own cooldown (even in an edge project), notifying their owner only', async () => {
    const { project, dev, client } = await device();
    await setRuleType(server, vendor.token, project.projectId, { rule_type: 'edge' });
    const user = await buildUser(server, vendor.tenantId);
    await authorise(server.ctx.db, dev.id, user.accountId);
    const body = { name: 'My hot', key: 'temperature', op: 'gte', threshold: 30, level: 'alert', cooldown_s: 120 };
    const res = await server.api<{ id: number }>('POST', deviceControlPaths.userRules(dev.tangramId), { token: user.token, body });
    expect(res.status).toBe(201);
    const t0 = Date.now();
    await publishPoints(server, client, dev.tangramId, [['temperature', t0, 30]]);
    server.clock.advance(119_000);
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 + 1000, 31]]);
    server.clock.advance(1_000);
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 + 2000, 32]]);
    const mine = server.notifications.filter((n) => n.deviceId === dev.id);
    expect(mine.map((n) => [n.reason, n.ownerAccountId, n.projectEmail, n.projectLine, n.message])).toEqual([
      ['opened', user.accountId, false, false, 'temperature.v1 ≥ 30'],
      ['repeat', user.accountId, false, false, 'temperature.v1 ≥ 30'],
    ]);
    expect(await alertsOf(server, dev.id)).toMatchObject([
      { ruleKind: 'app', ruleId: res.body.id, ruleName: 'My hot', level: 'alert', count: 3 },
    ]);
    // Deleting the rule through the API stops it at once.
    await server.api('DELETE', deviceControlPaths.userRule(dev.tangramId, res.body.id), { token: user.token });
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 + 3000, 10]]);
    expect((await alertsOf(server, dev.id)).map((a) => [a.state, a.count])).toEqual([['open', 3]]);
    await client.endAsync();
  });
});
