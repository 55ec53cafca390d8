/**
 * Two server replicas on one database (two startServer, each with its own broker, pipeline and engine; on
 * PostgreSQL each with its own connection pool) receive points of the same device at the same time: the database
 * keeps exactly one active alert per (rule, device), counts every evaluation of both, and one replica notifies.
 */
import { rulePaths, topics } from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { openTestDatabase, TEST_DB_KIND } from '../../../test/helpers.js';
import { openPostgres, type Database } from '../../db/client.js';
import { upsertAlert } from '../alerts/alert-store.js';
import { alertsOf, connectDevice, setRuleType, startRuleServer, type TRuleTestServer } from './engine-test-kit.js';

describe(`two replicas, one database (${TEST_DB_KIND})`, () => {
  let database: Database;
  let second: Database;
  let a: TRuleTestServer;
  let b: TRuleTestServer;
  let vendor: TBuiltAccount;
  beforeAll(async () => {
    database = await openTestDatabase();
    const url = database.pool?.options.connectionString;
    second = url ? await openPostgres(url, { poolSize: 5 }) : database;
    a = await startRuleServer(database);
    b = await startRuleServer(second);
    vendor = await buildVendor(a);
  });
  afterAll(async () => {
    await a.stop();
    await b.stop();
    if (second !== database) await second.close();
    await database.close();
  });

  /** A device of a new project with rule `temperature > 30` of `ruleType`, connected to both replicas. */
  async function setup(ruleType: 'level' | 'edge') {
    const project = await buildDeviceProject(a.ctx.db, { tenantId: vendor.tenantId });
    const body = { name: 'Hot', key: 'temperature', op: 'gt', threshold: 30, level: 'alert', message: 'hot' };
    expect((await a.api('POST', rulePaths.simples(project.projectId), { token: vendor.token, body })).status).toBe(201);
    await setRuleType(a, vendor.token, project.projectId, { rule_type: ruleType });
    const [dev] = project.devices;
    return { dev, clients: [await connectDevice(a, dev), await connectDevice(b, dev)] as const };
  }

  const publish = (client: MqttClient, tangramId: string, ts: number, v: number) =>
    client.publishAsync(topics.telemetry(tangramId), JSON.stringify({ key: 'temperature', ts, vs: [v] }), { qos: 1 });
  const settle = () => Promise.all([a.settle(), b.settle()]);
  const trueEvaluations = () => a.rules.counters.trueEvaluations + b.rules.counters.trueEvaluations;
  const openedOf = (deviceId: number) =>
    [...a.notifications, ...b.notifications].filter((n) => n.deviceId === deviceId && n.reason === 'opened');

  it('level: concurrent points on both replicas → one active alert whose count is every true evaluation of both', async () => {
    const { dev, clients } = await setup('level');
    const before = trueEvaluations();
    const t0 = Date.now();
    const rounds = 25;
    // Each round is one batch on each replica (a QoS 1 publish resolves after its commit); the engines are not
    // waited for between rounds, so both evaluate — and write the same alert — at the same time.
    for (let i = 0; i < rounds; i++) {
      await Promise.all([
        publish(clients[0], dev.tangramId, t0 + 2 * i, 31 + i),
        publish(clients[1], dev.tangramId, t0 + 2 * i + 1, 31 + i),
      ]);
    }
    await settle();
    const alerts = await alertsOf(a, dev.id);
    expect(alerts.filter((x) => x.state !== 'resolved')).toHaveLength(1);
    expect(alerts).toHaveLength(1);
    const evaluated = trueEvaluations() - before;
    expect(evaluated).toBeGreaterThanOrEqual(rounds);
    expect(a.rules.counters.trueEvaluations).toBeGreaterThan(0);
    expect(b.rules.counters.trueEvaluations).toBeGreaterThan(0);
    expect(alerts[0].count).toBe(evaluated);
    expect(openedOf(dev.id)).toHaveLength(1);
    for (const c of clients) await c.endAsync();
  });

  it('edge: both replicas see false → true at once → one alert opened, one notification', async () => {
    const { dev, clients } = await setup('edge');
    const t0 = Date.now();
    await Promise.all([publish(clients[0], dev.tangramId, t0, 10), publish(clients[1], dev.tangramId, t0 + 1, 10)]);
    await settle();
    await Promise.all([publish(clients[0], dev.tangramId, t0 + 2, 40), publish(clients[1], dev.tangramId, t0 + 3, 41)]);
    await settle();
    const alerts = await alertsOf(a, dev.id);
    expect(alerts.map((x) => x.state)).toEqual(['open']);
    expect(openedOf(dev.id)).toHaveLength(1);
    for (const c of clients) await c.endAsync();
  });

  it('the database decides: 40 simultaneous upserts through both pools → one row, one insert, count 40', async () => {
    const project = await buildDeviceProject(a.ctx.db, { tenantId: vendor.tenantId });
    const [dev] = project.devices;
    const target = {
      kind: 'simple' as const,
      ruleId: 999_001,
      ruleIndex: 0,
      deviceId: dev.id,
      tenantId: vendor.tenantId,
      projectId: project.projectId,
      productId: (await a.ctx.db.query.projects.findFirst({ where: (p, { eq }) => eq(p.id, project.projectId) }))?.productId ?? 0,
      ruleName: 'direct',
      level: 'remind' as const,
      message: 'm',
    };
    const now = Date.now();
    const touches = await Promise.all(
      Array.from({ length: 40 }, (_, i) => upsertAlert((i % 2 ? second : database).db, target, { key: 'temperature', value: i }, now + i)),
    );
    expect(touches.filter((t) => t.inserted)).toHaveLength(1);
    expect(new Set(touches.map((t) => t.id)).size).toBe(1);
    expect((await alertsOf(a, dev.id)).map((x) => [x.state, x.count, x.lastSeenAt])).toEqual([['open', 40, now + 39]]);
  });
});
