import {
  platformRulePaths as p,
  type TFlowGraphInput,
  type TFlowRun,
  type TFlowRunList,
  type TPlatformRule,
  variablesAfter,
} from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands } from '../../db/schema.js';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { startScriptedDevice, type TScriptedDevice } from '../device-control/device-control-test-kit.js';
import { connectMqtt } from '../ingest/ingest-test-kit.js';

const at = { x: 0, y: 0 };

/** A chain start (telemetry `temperature` of the project) → nodes in order. */
function chain(projectId: number, nodes: TFlowGraphInput['nodes']): TFlowGraphInput {
  const all: TFlowGraphInput['nodes'] = [
    {
      id: 'n1',
      type: 'start',
      position: at,
      data: { trigger: { kind: 'telemetry', scope: { kind: 'projects', ids: [projectId] }, keys: ['temperature'] } },
    },
    ...nodes,
  ];
  return { nodes: all, edges: all.slice(1).map((n, i) => ({ id: `e${i}`, source: all[i]?.id ?? 'n1', target: n.id })) };
}

describe(`platform rule node types on real data (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let project: TBuiltProject;
  let publisher: MqttClient;
  let scripted: TScriptedDevice;

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 3 });
    const [first, second] = project.devices;
    if (!first || !second) throw new Error('devices');
    publisher = await connectMqtt(server.mqttUrl, first.tangramId, first.secret);
    scripted = await startScriptedDevice(server.mqttUrl, second, (c) =>
      c.name === 'sensorCommand'
        ? { ok: true, result: { key: 'temperature', value: 21 } }
        : { ok: true, result: { firmwareVersion: '2.1' } },
    );
  });
  afterAll(async () => {
    await publisher?.endAsync();
    await scripted?.stop();
    await server?.stop();
  });

  /** Creates, applies and starts a rule of `graph`; publishes `values` from the first device; answers its newest run. */
  async function runOn(name: string, graph: TFlowGraphInput, values: number[]): Promise<TFlowRun> {
    const token = vendor.token;
    const rule = await server.api<TPlatformRule>('POST', p.rules, { token, body: { name, draft: graph } });
    const applied = await server.api('POST', p.action(rule.body.id, 'apply'), { token });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    await server.api('POST', p.action(rule.body.id, 'start'), { token });
    const device = project.devices[0] as { tangramId: string };
    const t0 = Date.now() - values.length * 1000;
    const points = values.map((v, i) => ({ key: 'temperature', ts: t0 + i * 1000, vs: [v] }));
    await publisher.publishAsync(`devices/${device.tangramId}/telemetry`, JSON.stringify(points), { qos: 1 });
    await server.flows.idle();
    await server.api('POST', p.action(rule.body.id, 'stop'), { token });
    const [latest] = (await server.api<TFlowRunList>('GET', p.logs(rule.body.id), { token })).body.data;
    return (await server.api<TFlowRun>('GET', p.log(rule.body.id, latest?.id ?? 0), { token })).body;
  }

  it('aggregation reads the rollups of the device: sum, count, max and diff over the last minutes', async () => {
    const run = await runOn(
      'aggregates',
      chain(project.projectId, [
        { id: 'n2', type: 'aggregation', position: at, data: { name: 'total', fn: 'sum', key: 'temperature', amount: 10, unit: 'minute' } },
        {
          id: 'n3',
          type: 'aggregation',
          position: at,
          data: { name: 'points', fn: 'count', key: 'temperature', amount: 10, unit: 'minute' },
        },
        { id: 'n4', type: 'aggregation', position: at, data: { name: 'top', fn: 'max', key: 'temperature', amount: 1, unit: 'hour' } },
        { id: 'n5', type: 'aggregation', position: at, data: { name: 'rise', fn: 'diff', key: 'temperature', amount: 10, unit: 'minute' } },
      ]),
      [20, 22, 27],
    );
    expect(run.outcome).toBe('ok');
    expect(variablesAfter(run.steps, run.steps.length - 1)).toMatchObject({ total: 69, points: 3, top: 27, rise: 7 });
  });

  it('variable casts: an int overflow stops the run on its node with the reason', async () => {
    const run = await runOn(
      'overflow',
      chain(project.projectId, [
        { id: 'n2', type: 'variable', position: at, data: { name: 'scaled', var_type: 'int', expression: 'value * 100000000' } },
        { id: 'n3', type: 'variable', position: at, data: { name: 'never', var_type: 'boolean', expression: 'true' } },
      ]),
      [30],
    );
    expect(run.outcome).toBe('error');
    expect(run.steps.map((s) => s.node_id)).toEqual(['n1', 'n2']);
    expect(run.steps[1]?.error).toMatch(/overflows int/);
  });

  it('deviceHealth, iotRemoteControl and deviceParallelSetting reach real devices over MQTT and log the commands', async () => {
    const second = project.devices[1] as { tangramId: string; id: number };
    const run = await runOn(
      'devices',
      chain(project.projectId, [
        { id: 'n2', type: 'deviceHealth', position: at, data: { device: 'trigger', prefix: 'me' } },
        {
          id: 'n3',
          type: 'iotRemoteControl',
          position: at,
          data: { device: second.tangramId, command: { name: 'getDeviceInfo' }, timeout_ms: 5000, result_variable: 'answered' },
        },
        {
          id: 'n4',
          type: 'deviceParallelSetting',
          position: at,
          data: {
            scope: { kind: 'devices', tangram_ids: [second.tangramId] },
            key: 'temperature',
            action: 'read',
            concurrency: 2,
            timeout_ms: 5000,
          },
        },
      ]),
      [25],
    );
    expect(run.outcome).toBe('ok');
    expect(variablesAfter(run.steps, 3)).toMatchObject({ me_online: true, me_status: -1, answered: true });
    expect(run.steps[2]?.output).toMatchObject({ outcome: 'ok', result: { firmwareVersion: '2.1' } });
    expect(run.steps[3]?.output).toMatchObject({ ok: true, sent: 1, failed: 0 });
    expect(scripted.received.map((c) => c.name)).toEqual(['getDeviceInfo', 'sensorCommand']);
    const logged = await server.ctx.db.select().from(deviceCommands).where(eq(deviceCommands.deviceId, second.id));
    expect(logged.map((c) => c.accountEmail)).toEqual(['rule: devices', 'rule: devices']);
  });

  it('a device of another tenant cannot be reached by name: the run stops with "not one of this tenant\'s"', async () => {
    const other = await buildDeviceProject(server.ctx.db, {});
    const stranger = other.devices[0] as { tangramId: string };
    const run = await runOn(
      'stranger',
      chain(project.projectId, [{ id: 'n2', type: 'deviceHealth', position: at, data: { device: stranger.tangramId, prefix: 'them' } }]),
      [25],
    );
    expect(run.outcome).toBe('error');
    expect(run.steps[1]?.error).toMatch(/not one of this tenant's/);
  });
});
