import {
  paths,
  RULE_RENOTIFY_DEFAULT_S,
  RULE_RENOTIFY_MAX_S,
  RULE_RENOTIFY_MIN_S,
  rulePaths,
  type TProject,
  type TSimpleRule,
} from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { TEST_DB_KIND } from '../../../test/helpers.js';
import { telemetryCount } from '../ingest/ingest-test-kit.js';
import { alertsOf, connectDevice, publishPoints, setRuleType, startRuleServer, type TRuleTestServer } from './engine-test-kit.js';

const hot = {
  name: 'Too hot',
  key: 'temperature',
  op: 'gt',
  threshold: 30,
  level: 'alert',
  message: 'Temperature above 30',
  notify_email: true,
};

describe(`rules fire on ingested telemetry (${TEST_DB_KIND})`, () => {
  let server: TRuleTestServer;
  let vendor: TBuiltAccount;
  beforeAll(async () => {
    server = await startRuleServer();
    vendor = await buildVendor(server);
  });
  afterAll(() => server.stop());

  /** A project of the vendor with one connected device and `rules` added through the API. */
  async function setup(
    rules: Record<string, unknown>[] = [hot],
  ): Promise<{ project: TBuiltProject; client: MqttClient; ruleIds: number[] }> {
    const project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
    const ruleIds: number[] = [];
    for (const body of rules) {
      const res = await server.api<TSimpleRule>('POST', rulePaths.simples(project.projectId), { token: vendor.token, body });
      expect(res.status).toBe(201);
      ruleIds.push(res.body.id);
    }
    const client = await connectDevice(server, project.devices[0]);
    return { project, client, ruleIds };
  }

  it('a simple rule made through the API opens one alert when a real MQTT device crosses it, and notifies once', async () => {
    const { project, client, ruleIds } = await setup();
    const [dev] = project.devices;
    const t0 = Date.now();
    await publishPoints(server, client, dev.tangramId, [['temperature', t0, 25]]);
    expect(await alertsOf(server, dev.id)).toEqual([]);
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 + 1000, 31.5]]);
    const [alert, ...more] = await alertsOf(server, dev.id);
    expect(more).toEqual([]);
    expect(alert).toMatchObject({
      ruleKind: 'simple',
      ruleId: ruleIds[0],
      ruleIndex: 0,
      ruleName: 'Too hot',
      level: 'alert',
      message: 'Temperature above 30',
      state: 'open',
      triggerKey: 'temperature',
      triggerValue: 31.5,
      count: 1,
      flapping: false,
      projectId: project.projectId,
      tenantId: vendor.tenantId,
    });
    const mine = server.notifications.filter((n) => n.deviceId === dev.id);
    expect(mine).toEqual([
      expect.objectContaining({
        reason: 'opened',
        alertId: alert.id,
        level: 'alert',
        projectEmail: true,
        projectLine: false,
        ruleName: 'Too hot',
      }),
    ]);
    await client.endAsync();
  });

  const mineOf = (deviceId: number) => server.notifications.filter((n) => n.deviceId === deviceId).map((n) => n.reason);

  it('level: counts every true evaluation, repeats the notification once per re-notify interval, resolves when false', async () => {
    const { project, client } = await setup();
    const [dev] = project.devices;
    expect(await setRuleType(server, vendor.token, project.projectId, { rule_type: 'level', renotify_interval_s: 60 })).toMatchObject({
      rule_type: 'level',
      renotify_interval_s: 60,
    });
    const t0 = Date.now();
    await publishPoints(server, client, dev.tangramId, [['temperature', t0, 35]]);
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 + 1000, 36]]);
    server.clock.advance(59_000);
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 + 2000, 37]]);
    expect(mineOf(dev.id)).toEqual(['opened']);
    server.clock.advance(1_000);
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 + 3000, 38]]);
    expect(mineOf(dev.id)).toEqual(['opened', 'repeat']);
    let [alert] = await alertsOf(server, dev.id);
    expect(alert).toMatchObject({ state: 'open', count: 4, triggerValue: 38 });

    await publishPoints(server, client, dev.tangramId, [['temperature', t0 + 4000, 20]]);
    [alert] = await alertsOf(server, dev.id);
    expect(alert).toMatchObject({ state: 'resolved', resolvedReason: 'cleared', resolvedAt: server.clock.now, count: 4 });
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 + 5000, 40]]);
    const all = await alertsOf(server, dev.id);
    expect(all.map((a) => [a.state, a.count])).toEqual([
      ['resolved', 4],
      ['open', 1],
    ]);
    expect(mineOf(dev.id)).toEqual(['opened', 'repeat', 'opened']);
    await client.endAsync();
  });

  it('edge: fires once on false → true (counting while true, never repeating) and again only after false', async () => {
    const { project, client } = await setup();
    const [dev] = project.devices;
    await setRuleType(server, vendor.token, project.projectId, { rule_type: 'edge' });
    const t0 = Date.now();
    await publishPoints(server, client, dev.tangramId, [['temperature', t0, 35]]);
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 + 1000, 36]]);
    server.clock.advance(3_600_000);
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 + 2000, 37]]);
    expect(mineOf(dev.id)).toEqual(['opened']);
    expect((await alertsOf(server, dev.id)).map((a) => [a.state, a.count])).toEqual([['open', 3]]);
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 + 3000, 10]]);
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 + 4000, 31]]);
    expect(mineOf(dev.id)).toEqual(['opened', 'opened']);
    expect((await alertsOf(server, dev.id)).map((a) => [a.state, a.resolvedReason, a.count])).toEqual([
      ['resolved', 'cleared', 3],
      ['open', null, 1],
    ]);
    await client.endAsync();
  });

  it(`held (duration_s): opens once the condition has held for the duration, clears only once it has not held as long`, async () => {
    const { project, client } = await setup([{ ...hot, name: 'Hot for a minute', duration_s: 60 }]);
    const [dev] = project.devices;
    const t0 = Date.now() - 600_000;
    const at = (dt: number, temperature: number) => publishPoints(server, client, dev.tangramId, [['temperature', t0 + dt, temperature]]);
    const states = async () => (await alertsOf(server, dev.id)).map((a) => a.state);
    for (const dt of [0, 30_000, 59_999]) await at(dt, 35);
    expect(await states()).toEqual([]);
    await at(60_000, 35);
    expect(await states()).toEqual(['open']);
    // A dip shorter than the duration (a noisy value around the threshold) neither clears it nor opens another.
    await at(61_000, 20);
    for (const dt of [62_000, 100_000, 122_000]) await at(dt, 35);
    expect((await alertsOf(server, dev.id)).map((a) => [a.state, a.count])).toEqual([['open', 2]]);
    // Below the threshold for the whole duration: cleared.
    for (const dt of [130_000, 150_000, 189_999]) await at(dt, 20);
    expect(await states()).toEqual(['open']);
    await at(190_000, 20);
    expect(await states()).toEqual(['resolved']);
    for (const dt of [200_000, 260_000]) await at(dt, 35);
    expect(await states()).toEqual(['resolved', 'open']);
    await client.endAsync();
  });

  it('out-of-order: a point older than the newest evaluated for its key is stored but evaluates nothing', async () => {
    const { project, client } = await setup();
    const [dev] = project.devices;
    const t0 = Date.now();
    await publishPoints(server, client, dev.tangramId, [['temperature', t0, 35]]);
    const before = server.rules.counters.outOfOrder;
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 - 10_000, 10]]);
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 - 5_000, 50]]);
    await publishPoints(server, client, dev.tangramId, [['temperature', t0, 10]]); // same ts: a resend
    expect(await telemetryCount(server.ctx.db, dev.id, 'temperature')).toBe(3);
    expect(server.rules.counters.outOfOrder - before).toBe(3);
    expect((await alertsOf(server, dev.id)).map((a) => [a.state, a.count])).toEqual([['open', 1]]);
    // The next newer point is evaluated again, and counts on the same alert.
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 + 1000, 36]]);
    expect((await alertsOf(server, dev.id)).map((a) => [a.state, a.count])).toEqual([['open', 2]]);
    await client.endAsync();
  });

  it('a rule changed through the API applies to the next point (the engine drops its cached rules)', async () => {
    const { project, client, ruleIds } = await setup();
    const [dev] = project.devices;
    const t0 = Date.now();
    await publishPoints(server, client, dev.tangramId, [['temperature', t0, 40]]);
    const put = await server.api('PUT', rulePaths.simple(project.projectId, ruleIds[0]), { token: vendor.token, body: { threshold: 50 } });
    expect(put.status).toBe(200);
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 + 1000, 45]]);
    expect((await alertsOf(server, dev.id)).map((a) => [a.state, a.resolvedReason])).toEqual([['resolved', 'cleared']]);
    await server.api('PUT', rulePaths.simple(project.projectId, ruleIds[0]), { token: vendor.token, body: { enabled: false } });
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 + 2000, 99]]);
    expect(await alertsOf(server, dev.id)).toHaveLength(1);
    await client.endAsync();
  });

  describe('PUT ruleType renotify_interval_s', () => {
    it(`is ${RULE_RENOTIFY_MIN_S}..${RULE_RENOTIFY_MAX_S} s, ${RULE_RENOTIFY_DEFAULT_S} by default, kept when absent`, async () => {
      const { project, client } = await setup([]);
      await client.endAsync();
      const get = await server.api<TProject>('GET', paths.project(project.projectId), { token: vendor.token });
      expect(get.body.renotify_interval_s).toBe(RULE_RENOTIFY_DEFAULT_S);
      const put = (body: unknown, token = vendor.token) =>
        server.api<TProject>('PUT', paths.projectRuleType(project.projectId), { token, body });
      expect((await put({ rule_type: 'level', renotify_interval_s: RULE_RENOTIFY_MIN_S - 1 })).status).toBe(400);
      expect((await put({ rule_type: 'level', renotify_interval_s: RULE_RENOTIFY_MAX_S + 1 })).status).toBe(400);
      expect((await put({ rule_type: 'level', renotify_interval_s: 90.5 })).status).toBe(400);
      expect((await put({ rule_type: 'level', renotify_interval_s: RULE_RENOTIFY_MAX_S })).body.renotify_interval_s).toBe(
        RULE_RENOTIFY_MAX_S,
      );
      expect((await put({ rule_type: 'edge' })).body).toMatchObject({ rule_type: 'edge', renotify_interval_s: RULE_RENOTIFY_MAX_S });
      expect((await put({ rule_type: 'edge', renotify_interval_s: RULE_RENOTIFY_MIN_S })).body.renotify_interval_s).toBe(
        RULE_RENOTIFY_MIN_S,
      );
      expect((await server.api('PUT', paths.projectRuleType(project.projectId), { body: { rule_type: 'edge' } })).status).toBe(401);
      const user = await buildUser(server, vendor.tenantId);
      expect((await put({ rule_type: 'edge', renotify_interval_s: 60 }, user.token)).status).toBe(403);
      const other = await buildVendor(server);
      expect((await put({ rule_type: 'edge', renotify_interval_s: 60 }, other.token)).status).toBe(404);
    });
  });
});
