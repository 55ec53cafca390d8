import {
  platformRulePaths as p,
  type TFlowFireList,
  type TFlowGraphInput,
  type TFlowRun,
  type TFlowRunList,
  type TPlatformRule,
} from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { deviceCommands, platformCommandSchedules, platformRuleFires, platformRuleRuns } from '../../db/schema.js';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { openTestDatabase, startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { startScriptedDevice, type TScriptedDevice } from '../device-control/device-control-test-kit.js';
import { SCHEDULE_GRACE_MS } from '../evaluation/flows/scheduler.js';

const at = { x: 0, y: 0 };
const MINUTE = 60_000;

function scheduled(cron: string, extra: TFlowGraphInput['nodes'] = []): TFlowGraphInput {
  const nodes: TFlowGraphInput['nodes'] = [
    { id: 'n1', type: 'start', position: at, data: { trigger: { kind: 'schedule', cron, time_zone: 'UTC' } } },
    { id: 'n2', type: 'variable', position: at, data: { name: 'firedAt', var_type: 'time', expression: 'ts' } },
    ...extra,
  ];
  return { nodes, edges: nodes.slice(1).map((n, i) => ({ id: `e${i}`, source: nodes[i]?.id ?? 'n1', target: n.id })) };
}

describe(`platform rule schedules (${TEST_DB_KIND})`, () => {
  let database: Database;
  let a: TTestServer;
  let b: TTestServer;
  let vendor: TBuiltAccount;
  // The rules' clock starts at the wall clock (a rule's start time is stamped by it) and only moves forward.
  const clock = { now: Date.now() };

  beforeAll(async () => {
    database = await openTestDatabase();
    a = await startTestServer({}, database, { ruleClock: () => clock.now });
    b = await startTestServer({}, database, { ruleClock: () => clock.now });
    vendor = await buildVendor(a);
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await database?.close();
  });

  async function running(name: string, graph: TFlowGraphInput): Promise<number> {
    const created = await a.api<TPlatformRule>('POST', p.rules, { token: vendor.token, body: { name, draft: graph } });
    expect(created.status).toBe(201);
    expect((await a.api('POST', p.action(created.body.id, 'apply'), { token: vendor.token })).status).toBe(200);
    expect((await a.api('POST', p.action(created.body.id, 'start'), { token: vendor.token })).status).toBe(200);
    return created.body.id;
  }

  async function tickBoth() {
    a.flows.scheduler.changed();
    b.flows.scheduler.changed();
    await Promise.all([a.flows.scheduler.tick(), b.flows.scheduler.tick()]);
    await Promise.all([a.flows.idle(), b.flows.idle()]);
  }

  it('fires each due minute exactly once across two servers on one database', async () => {
    const id = await running('every minute', scheduled('* * * * *'));
    await tickBoth(); // first look: nothing due yet
    clock.now += MINUTE;
    await tickBoth();
    await tickBoth();
    clock.now += 2 * MINUTE;
    await tickBoth();
    const fires = await database.db.select().from(platformRuleFires).where(eq(platformRuleFires.ruleId, id));
    expect(fires.map((f) => f.state)).toEqual(['fired', 'fired', 'fired']);
    const runs = await database.db.select().from(platformRuleRuns).where(eq(platformRuleRuns.ruleId, id));
    expect(runs).toHaveLength(3);
    expect(new Set(runs.map((r) => (r.trigger as { fire_at: number }).fire_at)).size).toBe(3);
    const history = await a.api<TFlowFireList>('GET', p.fires(id), { token: vendor.token });
    expect(history.body.total_items).toBe(3);
    // The run's `ts` is the due minute, in the variable the flow declared.
    const [latest] = (await a.api<TFlowRunList>('GET', p.logs(id), { token: vendor.token })).body.data;
    const run = (await a.api<TFlowRun>('GET', p.log(id, latest?.id ?? 0), { token: vendor.token })).body;
    expect(run.steps.at(-1)?.variables.firedAt).toBe(history.body.data[0]?.fire_at);
    await a.api('POST', p.action(id, 'stop'), { token: vendor.token });
  });

  it('after every server was down: a fire inside the grace window runs once, older ones are recorded as missed', async () => {
    const id = await running('hourly', scheduled('0 * * * *'));
    await tickBoth();
    const downFrom = clock.now;
    const HOUR = 60 * MINUTE;
    // At least three hours later, the last top of the hour half the grace window ago.
    clock.now = Math.ceil((downFrom + 3 * HOUR) / HOUR) * HOUR + SCHEDULE_GRACE_MS / 2;
    // A replica that starts now has never looked at the rule.
    const c = await startTestServer({}, database, { ruleClock: () => clock.now });
    await c.flows.scheduler.tick();
    await c.flows.idle();
    await c.stop();
    const fires = await database.db.select().from(platformRuleFires).where(eq(platformRuleFires.ruleId, id));
    const states = fires.filter((f) => f.fireAt > downFrom).map((f) => f.state);
    expect(states.length).toBeGreaterThanOrEqual(3);
    expect(states).toEqual([...states.slice(0, -1).map(() => 'missed'), 'fired']);
    await a.api('POST', p.action(id, 'stop'), { token: vendor.token });
  });

  it('a scheduled parallel control commands every device of the project at the scheduled minute', async () => {
    const project = await buildDeviceProject(database.db, { tenantId: vendor.tenantId, count: 3 });
    const devices: TScriptedDevice[] = [];
    for (const d of project.devices)
      devices.push(await startScriptedDevice(a.mqttUrl, d, () => ({ ok: true, result: { firmwareVersion: '1' } })));
    try {
      // Only server a has the devices on its broker: b's scheduler is stopped so that it cannot claim this fire.
      await b.flows.scheduler.stop();
      const due = new Date(Math.ceil((clock.now + 5 * MINUTE) / MINUTE) * MINUTE);
      const id = await running(
        'nightly',
        scheduled(`${due.getUTCMinutes()} ${due.getUTCHours()} * * *`, [
          {
            id: 'n3',
            type: 'deviceParallelControl',
            position: at,
            data: { scope: { kind: 'projects', ids: [project.projectId] }, command: { name: 'getDeviceInfo' }, concurrency: 2 },
          },
        ]),
      );
      a.flows.scheduler.changed();
      await a.flows.scheduler.tick();
      clock.now = due.getTime() - 10_000;
      await a.flows.scheduler.tick();
      expect(devices.every((d) => d.received.length === 0)).toBe(true);
      clock.now += 15_000;
      a.flows.scheduler.changed();
      await a.flows.scheduler.tick();
      await a.flows.idle();
      expect(devices.map((d) => d.received.map((c) => c.name))).toEqual([['getDeviceInfo'], ['getDeviceInfo'], ['getDeviceInfo']]);
      const [latest] = (await a.api<TFlowRunList>('GET', p.logs(id), { token: vendor.token })).body.data;
      const run = (await a.api<TFlowRun>('GET', p.log(id, latest?.id ?? 0), { token: vendor.token })).body;
      expect(run.steps.at(-1)?.output).toMatchObject({ ok: true, sent: 3, failed: 0 });
      const logged = await database.db.select().from(deviceCommands).where(eq(deviceCommands.accountEmail, 'rule: nightly'));
      expect(logged).toHaveLength(3);
      await a.api('POST', p.action(id, 'stop'), { token: vendor.token });
    } finally {
      for (const d of devices) await d.stop();
    }
  });

  it('a scheduled command node: each send goes out once across replicas at its due time, inside the window, only while the rule runs', async () => {
    const project = await buildDeviceProject(database.db, { tenantId: vendor.tenantId, count: 3 });
    const devices: TScriptedDevice[] = [];
    for (const d of project.devices) devices.push(await startScriptedDevice(a.mqttUrl, d, () => ({ ok: true, result: {} })));
    const received = () => devices.map((d) => d.received.length);
    const firstDue = Math.ceil((clock.now + 2 * MINUTE) / MINUTE) * MINUTE;
    const graph: TFlowGraphInput = {
      nodes: [
        { id: 'n1', type: 'start', position: at, data: { trigger: { kind: 'manual' } } },
        {
          id: 'n2',
          type: 'deviceSchedulerParallelControl',
          position: at,
          data: {
            scope: { kind: 'projects', ids: [project.projectId] },
            command: { name: 'getDeviceInfo' },
            start_at: firstDue - 30_000,
            end_at: firstDue + 2 * MINUTE,
            repeat_cron: '* * * * *',
            time_zone: 'UTC',
          },
        },
      ],
      edges: [{ id: 'e1', source: 'n1', target: 'n2' }],
    };
    try {
      const id = await running('scheduled commands', graph);
      const ran = await a.api<{ run_id: number }>('POST', p.action(id, 'run'), { token: vendor.token });
      const run = (await a.api<TFlowRun>('GET', p.log(id, ran.body.run_id), { token: vendor.token })).body;
      expect(run.steps.at(-1)?.output).toEqual({ scheduled: 3, next_at: firstDue });

      clock.now = firstDue - 1_000;
      await a.flows.scheduler.tick();
      await a.flows.idle();
      expect(received()).toEqual([0, 0, 0]);

      clock.now = firstDue + 1_000;
      await a.flows.scheduler.tick();
      await a.flows.idle();
      expect(received()).toEqual([1, 1, 1]);
      const sends = async () =>
        (await database.db.select().from(platformRuleRuns).where(eq(platformRuleRuns.ruleId, id))).filter(
          (r) => r.trigger.scheduled_node === 'n2',
        );
      const [first] = await sends();
      expect(first).toMatchObject({ outcome: 'ok', trigger: { fire_at: firstDue } });
      expect(first?.steps[0]).toMatchObject({ node_type: 'deviceSchedulerParallelControl', output: { ok: true, sent: 3 } });

      // Both replicas look at the next due send at once: one claims it (b has no devices on its broker: offline).
      clock.now = firstDue + MINUTE + 1_000;
      await Promise.all([a.flows.scheduler.tick(), b.flows.scheduler.tick()]);
      await Promise.all([a.flows.idle(), b.flows.idle()]);
      const second = (await sends()).filter((r) => r.trigger.fire_at === firstDue + MINUTE);
      expect(second).toHaveLength(1);

      // Stopped, the last send inside the window is skipped; after the window nothing is left to send.
      await a.api('POST', p.action(id, 'stop'), { token: vendor.token });
      const before = received();
      clock.now = firstDue + 2 * MINUTE + 1_000;
      await a.flows.scheduler.tick();
      await a.flows.idle();
      expect(received()).toEqual(before);
      expect((await sends()).filter((r) => r.trigger.fire_at === firstDue + 2 * MINUTE)).toEqual([]);
      const [schedule] = await database.db.select().from(platformCommandSchedules).where(eq(platformCommandSchedules.ruleId, id));
      expect(schedule?.nextAt).toBeNull();
    } finally {
      for (const d of devices) await d.stop();
    }
  });

  it("refuses at apply a command schedule outside the rule's active range", async () => {
    const created = await a.api<TPlatformRule>('POST', p.rules, {
      token: vendor.token,
      body: {
        name: 'out of range',
        draft: {
          nodes: [
            {
              id: 'n1',
              type: 'start',
              position: at,
              data: { trigger: { kind: 'schedule', cron: '0 2 * * *', active_from: 1_000_000, active_until: 2_000_000 } },
            },
            {
              id: 'n2',
              type: 'deviceSchedulerParallelControl',
              position: at,
              data: {
                scope: { kind: 'projects', ids: [1] },
                command: { name: 'getDeviceInfo' },
                start_at: 1_500_000,
                end_at: 2_500_000,
              },
            },
          ],
          edges: [{ id: 'e1', source: 'n1', target: 'n2' }],
        },
      },
    });
    const applied = await a.api<{ code: string; details: { path: string; message: string }[] }>(
      'POST',
      p.action(created.body.id, 'apply'),
      {
        token: vendor.token,
      },
    );
    expect(applied.status).toBe(422);
    expect(applied.body.details).toContainEqual(expect.objectContaining({ path: 'n2', message: expect.stringMatching(/active range/) }));
  });
});
