import { ALERT_FLAP_OPENS, ALERT_FLAP_WINDOW_S, rulePaths } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { openTestDatabase, TEST_DB_KIND } from '../../../test/helpers.js';
import type { Database } from '../../db/client.js';
import { cmp, num, tel } from './engine.fixtures.js';
import {
  alertsOf,
  connectDevice,
  insertProgram,
  publishPoints,
  setRuleType,
  startRuleServer,
  type TRuleTestServer,
} from './engine-test-kit.js';

const hot = { name: 'Too hot', key: 'temperature', op: 'gt', threshold: 30, level: 'remind', message: 'hot' };

describe(`rule state: flapping, restarts, repeats without alerts (${TEST_DB_KIND})`, () => {
  let database: Database;
  let server: TRuleTestServer;
  let vendor: TBuiltAccount;
  beforeAll(async () => {
    database = await openTestDatabase();
    server = await startRuleServer(database);
    vendor = await buildVendor(server);
  });
  afterAll(async () => {
    await server.stop();
    await database.close();
  });

  async function project(rules: Record<string, unknown>[]): Promise<TBuiltProject> {
    const p = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
    for (const body of rules)
      expect((await server.api('POST', rulePaths.simples(p.projectId), { token: vendor.token, body })).status).toBe(201);
    return p;
  }
  const reasons = (deviceId: number) => server.notifications.filter((n) => n.deviceId === deviceId).map((n) => n.reason);

  it(`flapping: the ${ALERT_FLAP_OPENS}rd opening within ${ALERT_FLAP_WINDOW_S} s is marked and not notified until the rule stays quiet`, async () => {
    const p = await project([hot]);
    const [dev] = p.devices;
    const client = await connectDevice(server, dev);
    let ts = Date.now();
    const point = async (v: number) => {
      ts += 1000;
      server.clock.advance(60_000);
      await publishPoints(server, client, dev.tangramId, [['temperature', ts, v]]);
    };
    for (const v of [40, 10, 40, 10, 40]) await point(v);
    let all = await alertsOf(server, dev.id);
    expect(all.map((a) => [a.state, a.flapping])).toEqual([
      ['resolved', false],
      ['resolved', false],
      ['open', true],
    ]);
    expect(reasons(dev.id)).toEqual(['opened', 'opened']);
    await point(41); // still true, still within the window: held back
    expect(reasons(dev.id)).toEqual(['opened', 'opened']);
    server.clock.advance(ALERT_FLAP_WINDOW_S * 1000);
    await point(42); // quiet for the window: no longer flapping, and people hear of it once
    all = await alertsOf(server, dev.id);
    expect(all[2]).toMatchObject({ state: 'open', flapping: false, count: 3, notifiedAt: server.clock.now });
    expect(reasons(dev.id)).toEqual(['opened', 'opened', 'opened']);
    await point(10);
    await point(40); // one opening after a quiet window is not flapping
    all = await alertsOf(server, dev.id);
    expect(all.map((a) => a.flapping)).toEqual([false, false, false, false]);
    expect(reasons(dev.id)).toEqual(['opened', 'opened', 'opened', 'opened']);
    await client.endAsync();
  });

  it('a restart keeps the edge state, held timers and the active alert (alert_rule_states)', async () => {
    const p = await project([hot, { ...hot, name: 'Humid for a minute', key: 'humidity', duration_s: 60 }]);
    const [dev] = p.devices;
    await setRuleType(server, vendor.token, p.projectId, { rule_type: 'edge' });
    let client = await connectDevice(server, dev);
    const t0 = Date.now() - 600_000;
    await publishPoints(server, client, dev.tangramId, [
      ['temperature', t0, 40],
      ['humidity', t0, 40],
    ]);
    expect(reasons(dev.id)).toEqual(['opened']);
    await client.endAsync();

    const notifications = server.notifications;
    await server.stop();
    server = await startRuleServer(database);
    server.notifications.push(...notifications);
    client = await connectDevice(server, dev);
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 + 1000, 41]]); // still true: edge does not fire again
    expect(reasons(dev.id)).toEqual(['opened']);
    await publishPoints(server, client, dev.tangramId, [['humidity', t0 + 60_000, 40]]); // held since t0, before the restart
    expect(reasons(dev.id)).toEqual(['opened', 'opened']);
    expect((await alertsOf(server, dev.id)).map((a) => [a.ruleName, a.state, a.count])).toEqual([
      ['Too hot', 'open', 2],
      ['Humid for a minute', 'open', 1],
    ]);
    await publishPoints(server, client, dev.tangramId, [['temperature', t0 + 70_000, 10]]);
    expect((await alertsOf(server, dev.id)).map((a) => a.state)).toEqual(['resolved', 'open']);
    await client.endAsync();
  });

  it('level: a rule without an alert repeats its notify actions once per interval while true', async () => {
    const p = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
    await setRuleType(server, vendor.token, p.projectId, { rule_type: 'level', renotify_interval_s: 300 });
    await insertProgram(server, p.projectId, 'Tell', {
      version: 1,
      rules: [
        {
          block_id: null,
          condition: cmp(tel('temperature'), 'gt', num(30)),
          actions: [{ type: 'notify', channel: 'email', message: 'warm' }],
        },
      ],
    });
    const [dev] = p.devices;
    const client = await connectDevice(server, dev);
    const t0 = Date.now();
    for (const [dt, v, advance] of [
      [0, 40, 0],
      [1, 40, 299_000],
      [2, 40, 1_000],
      [3, 10, 0],
      [4, 40, 0],
    ]) {
      server.clock.advance(advance);
      await publishPoints(server, client, dev.tangramId, [['temperature', t0 + dt * 1000, v]]);
    }
    expect(reasons(dev.id)).toEqual(['notify', 'notify', 'notify']);
    expect(await alertsOf(server, dev.id)).toEqual([]);
    await client.endAsync();
  });
});
