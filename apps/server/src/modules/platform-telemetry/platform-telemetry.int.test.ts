import {
  platformRulePaths,
  platformTelemetryPaths as p,
  type TFlowGraphInput,
  type TFlowRun,
  type TPlatformRule,
  PLATFORM_TELEMETRY_POINT_MS,
  type TFormulaPreview,
  type TPlatformTelemetry,
  type TPlatformTelemetryPage,
  type TPlatformTelemetrySeries,
  type TPlatformTelemetryStatistics,
  type TLivePlatformTelemetry,
  topics,
} from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { buildAccount } from '../../../test/factories.js';
import { TEST_DB_KIND } from '../../../test/helpers.js';
import { startTwoTenants, type TTwoTenants } from '../../../test/tenants.js';
import { until } from '../../../test/until.js';
import { platformTelemetries } from '../../db/schema.js';
import { connectBrowser, connectMqtt, subscribeGranted } from '../ingest/ingest-test-kit.js';

describe(`platform telemetry: formulas over mounted devices, evaluated as points arrive (${TEST_DB_KIND})`, () => {
  let t: TTwoTenants;
  let project: TBuiltProject;
  let foreign: TBuiltProject;
  const clients: MqttClient[] = [];
  const api = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, token = t.vendor.token) =>
    t.server.api<T & { code?: string; details?: { path: string; message: string; position?: number }[] }>(method, url, { token, body });
  const mount = (n: number, alias = `m${n + 1}`) => ({ alias, tangram_id: project.devices[n].tangramId });
  const input = (over: Record<string, unknown> = {}) => ({
    name: 'Line power',
    formula: '(m1.current + m2.current) * 220',
    coefficient: 0.001,
    unit: 'kW',
    devices: [mount(0), mount(1)],
    ...over,
  });

  beforeAll(async () => {
    t = await startTwoTenants();
    project = await buildDeviceProject(t.server.ctx.db, { tenantId: t.vendor.tenantId, count: 3 });
    foreign = await buildDeviceProject(t.server.ctx.db, { tenantId: t.other.tenantId, count: 1 });
    for (const d of project.devices.slice(0, 2)) clients.push(await connectMqtt(t.server.mqttUrl, d.tangramId, d.secret));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync()));
    await t.server.stop();
  });

  async function publish(n: number, key: string, value: number, ts: number): Promise<void> {
    await clients[n].publishAsync(`devices/${project.devices[n].tangramId}/telemetry`, JSON.stringify([{ key, ts, vs: [value] }]), {
      qos: 1,
    });
  }

  it('evaluates the formula × coefficient when the mounted devices publish, and keeps a point a minute', async () => {
    const made = await api<TPlatformTelemetry>('POST', p.list, input());
    expect(made.status).toBe(201);
    // Nothing published yet: no value, and the reason is there from the start.
    expect(made.body).toMatchObject({ name: 'Line power', latest_value: null, latest_error: 'm1.current has no value yet', unit: 'kW' });
    expect(made.body.devices.map((d) => [d.alias, d.tangram_id])).toEqual([
      ['m1', project.devices[0].tangramId],
      ['m2', project.devices[1].tangramId],
    ]);
    expect(made.body.devices[0].keys).toContain('current');

    const t0 = Math.floor(Date.now() / 60_000) * 60_000 - 5 * 60_000;
    await publish(0, 'current', 1.5, t0);
    // One input only: no value yet, and the reason is kept.
    const waiting = await until(async () => {
      const error = (await api<TPlatformTelemetry>('GET', p.item(made.body.id))).body.latest_error;
      return error?.includes('m2') ? error : undefined;
    });
    expect(waiting).toBe('m2.current has no value yet');
    await publish(1, 'current', 2.5, t0 + 1_000);
    const first = await until(async () => {
      const res = await api<TPlatformTelemetry>('GET', p.item(made.body.id));
      return res.body.latest_value === null ? undefined : res.body;
    });
    expect(first.latest_value).toBeCloseTo(((1.5 + 2.5) * 220) / 1000, 12);
    expect(first).toMatchObject({ latest_ts: t0 + 1_000, latest_error: null });

    // A later minute: a new point; a key the formula does not read changes nothing.
    await publish(0, 'current', 3.5, t0 + 2 * 60_000);
    await until(async () =>
      (await api<TPlatformTelemetry>('GET', p.item(made.body.id))).body.latest_ts === t0 + 2 * 60_000 ? true : undefined,
    );
    await publish(0, 'temperature', 99, t0 + 3 * 60_000);
    const series = await api<TPlatformTelemetrySeries>(
      'GET',
      `${p.timeseries(made.body.id)}?startTs=${t0 - 60_000}&endTs=${t0 + 10 * 60_000}`,
    );
    expect(series.status).toBe(200);
    expect(series.body.bucket_ms).toBe(PLATFORM_TELEMETRY_POINT_MS);
    expect(series.body.points.map((pt) => [pt.ts, Number(pt.vs[0]?.toFixed(6))])).toEqual([
      [t0, 0.88],
      [t0 + 2 * 60_000, 1.32],
    ]);
    expect((await api<TPlatformTelemetry>('GET', p.item(made.body.id))).body.latest_ts).toBe(t0 + 2 * 60_000);
    // Analytics of the stored series: exact over its points.
    const stats = await api<TPlatformTelemetryStatistics>(
      'GET',
      `${p.statistics(made.body.id)}?startTs=${t0 - 60_000}&endTs=${t0 + 10 * 60_000}`,
    );
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ id: made.body.id, count: 2, p50: 0.88 });
    expect(stats.body.min).toBeCloseTo(0.88, 12);
    expect(stats.body.max).toBeCloseTo(1.32, 12);
    expect(stats.body.avg).toBeCloseTo(1.1, 12);
    expect(stats.body.stddev).toBeCloseTo(0.22, 12);
  });

  it('goes live to vendors of its tenant: a new value on live/platform-telemetry/{id}, refused to others', async () => {
    const [pt] = (await api<TPlatformTelemetryPage>('GET', p.list)).body.data;
    const topic = topics.livePlatformTelemetry(pt.id);
    const watcher = await connectBrowser(t.server.wsUrl, t.vendor.token);
    try {
      expect(await subscribeGranted(watcher, [topic])).toEqual([1]);
      for (const token of [t.other.token, t.user.token]) {
        const probe = await connectBrowser(t.server.wsUrl, token);
        try {
          expect(await subscribeGranted(probe, [topic]), token === t.user.token ? 'user' : 'other tenant').toEqual([128]);
        } finally {
          await probe.endAsync();
        }
      }
      const received = new Promise<TLivePlatformTelemetry>((resolve) =>
        watcher.on('message', (_t, payload) => resolve(JSON.parse(payload.toString()) as TLivePlatformTelemetry)),
      );
      const ts = Math.floor(Date.now() / 60_000) * 60_000 - 60_000;
      // The same current again, a minute later: (3.5 + 2.5) × 220 × 0.001 at the new time.
      await publish(1, 'current', 2.5, ts);
      const live = await received;
      expect(live).toMatchObject({ id: pt.id, ts });
      expect(live.value).toBeCloseTo(1.32, 12);
    } finally {
      await watcher.endAsync();
    }
  });

  it('feeds a platform rule: an aggregation of its stored series read by a condition', async () => {
    const [pt] = (await api<TPlatformTelemetryPage>('GET', p.list)).body.data;
    const graph = (id: number): TFlowGraphInput => ({
      nodes: [
        { id: 'n1', type: 'start', position: { x: 0, y: 0 }, data: { trigger: { kind: 'manual' } } },
        {
          id: 'n2',
          type: 'aggregation',
          position: { x: 0, y: 0 },
          data: { name: 'power', fn: 'max', source: 'platform', platform_telemetry_id: id, amount: 1, unit: 'day' },
        },
        { id: 'n3', type: 'condition', position: { x: 0, y: 0 }, data: { expression: 'power > 1' } },
      ],
      edges: [
        { id: 'e1', source: 'n1', target: 'n2' },
        { id: 'e2', source: 'n2', target: 'n3' },
      ],
    });
    const run = async (name: string, id: number) => {
      const rule = await api<TPlatformRule>('POST', platformRulePaths.rules, { name, draft: graph(id) });
      expect((await api('POST', platformRulePaths.action(rule.body.id, 'apply'))).status).toBe(200);
      expect((await api('POST', platformRulePaths.action(rule.body.id, 'start'))).status).toBe(200);
      const ran = await api<{ run_id: number }>('POST', platformRulePaths.action(rule.body.id, 'run'));
      return (await api<TFlowRun>('GET', platformRulePaths.log(rule.body.id, ran.body.run_id))).body;
    };
    // The largest of the stored points (0.88, 1.32) in the last day.
    const ok = await run('power check', pt.id);
    expect(ok.steps.map((st) => [st.node_id, st.output])).toEqual([
      ['n1', null],
      ['n2', 1.32],
      ['n3', true],
    ]);
    // Another tenant's platform telemetry reads as missing, and the run stops there.
    const [theirs] = await t.server.ctx.db
      .insert(platformTelemetries)
      .values({ tenantId: t.other.tenantId, name: 'Theirs', formula: 'm1.current' })
      .returning();
    const stopped = await run('foreign power', theirs.id);
    expect(stopped.steps.at(-1)).toMatchObject({ node_id: 'n2', error: `platform telemetry ${theirs.id} is not one of this tenant's` });
  });

  it('refuses a bad formula with its position, a device of another tenant, a duplicate alias or name', async () => {
    const bad = await api('POST', p.list, input({ name: 'Bad', formula: 'm1.current + m2.curent' }));
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('FORMULA_INVALID');
    expect(bad.body.details).toEqual([{ path: 'formula', message: 'unknown name m2.curent', position: 13 }]);
    const syntax = await api('POST', p.list, input({ name: 'Bad', formula: 'm1.current * (2' }));
    expect(syntax.body.details?.[0]).toMatchObject({ path: 'formula', position: 15 });
    const foreignDevice = await api(
      'POST',
      p.list,
      input({ name: 'Bad', devices: [{ alias: 'm1', tangram_id: foreign.devices[0].tangramId }] }),
    );
    expect(foreignDevice.status).toBe(400);
    expect(foreignDevice.body.details).toEqual([
      { path: 'devices.0.tangram_id', message: `device ${foreign.devices[0].tangramId} not found` },
    ]);
    expect((await api('POST', p.list, input({ name: 'Bad', devices: [mount(0), mount(1, 'm1')] }))).status).toBe(400);
    expect((await api('POST', p.list, input({ name: 'x'.repeat(33) }))).status).toBe(400);
    expect((await api('POST', p.list, input())).status).toBe(409);
  });

  it('previews a formula on the latest values without saving, and answers a problem with its position', async () => {
    const preview = await api<TFormulaPreview>('POST', p.preview, {
      formula: 'max(m1.current, m2.current)',
      coefficient: 2,
      devices: [mount(0), mount(1)],
    });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ value: 7, problem: null, run_error: null });
    const problem = await api<TFormulaPreview>('POST', p.preview, { formula: 'm1.current +', coefficient: 1, devices: [mount(0)] });
    expect(problem.body).toMatchObject({ value: null, problem: { code: 'syntax', position: 12 } });
    const missing = await api<TFormulaPreview>('POST', p.preview, { formula: 'm1.humidity', coefficient: 1, devices: [mount(2, 'm1')] });
    expect(missing.body).toMatchObject({ value: null, problem: null, run_error: 'm1.humidity has no value yet' });
  });

  it('lists the value of one made or edited over devices that already published at once, not only after their next point', async () => {
    // m1.current = 3.5 and m2.current = 2.5 are stored; neither device publishes while this runs.
    const made = await api<TPlatformTelemetry>(
      'POST',
      p.list,
      input({ name: 'Motor sum', formula: 'm1.current + m2.current', coefficient: 1 }),
    );
    expect(made.status).toBe(201);
    const listed = async () => (await api<TPlatformTelemetryPage>('GET', `${p.list}?q=motor`)).body.data;
    expect((await listed()).map((x) => [x.name, x.latest_value, x.latest_error])).toEqual([['Motor sum', 6, null]]);
    const edited = await api<TPlatformTelemetry>(
      'PUT',
      p.item(made.body.id),
      input({ name: 'Motor sum', formula: 'm1.current * 10', coefficient: 1 }),
    );
    expect(edited.status).toBe(200);
    expect((await listed()).map((x) => [x.name, x.latest_value])).toEqual([['Motor sum', 35]]);
    expect((await api<TPlatformTelemetry>('GET', p.item(made.body.id))).body.latest_value).toBe(35);
    expect((await api('DELETE', p.item(made.body.id))).status).toBe(204);
  });

  it('updates, lists with search and deletes; another tenant, a user and a caller without the section are refused', async () => {
    const list = await api<TPlatformTelemetryPage>('GET', `${p.list}?q=power`);
    expect(list.body.data.map((x) => x.name)).toEqual(['Line power']);
    const id = list.body.data[0].id;
    const updated = await api<TPlatformTelemetry>(
      'PUT',
      p.item(id),
      input({ name: 'Line current', formula: 'm1.current', coefficient: 1, unit: 'A' }),
    );
    expect(updated.status).toBe(200);
    // The new formula's value on the latest current at once (m1.current = 3.5).
    expect(updated.body).toMatchObject({ name: 'Line current', latest_value: 3.5, latest_error: null });

    expect((await api('GET', p.item(id), undefined, t.other.token)).status).toBe(404);
    expect((await api('PUT', p.item(id), input(), t.other.token)).status).toBe(404);
    expect((await api('DELETE', p.item(id), undefined, t.other.token)).status).toBe(404);
    // The other tenant lists only its own.
    expect((await api<TPlatformTelemetryPage>('GET', p.list, undefined, t.other.token)).body.data.map((x) => x.name)).toEqual(['Theirs']);
    const ungranted = await buildAccount(t.server, { level: 'vendor', tenantId: t.vendor.tenantId, fea: ['4'] });
    const granted = await buildAccount(t.server, { level: 'user', tenantId: t.vendor.tenantId, fea: ['12'] });
    for (const [method, url, body] of [
      ['GET', p.list, undefined],
      ['POST', p.list, input({ name: 'probe' })],
      ['POST', p.preview, { formula: 'm1.current', coefficient: 1, devices: [mount(0)] }],
      ['GET', p.item(id), undefined],
      ['PUT', p.item(id), input()],
      ['DELETE', p.item(id), undefined],
      ['GET', `${p.timeseries(id)}?startTs=0&endTs=1`, undefined],
      ['GET', `${p.statistics(id)}?startTs=0&endTs=1`, undefined],
    ] as const) {
      expect((await t.server.api(method, url, { body })).status, url).toBe(401);
      expect((await t.server.api(method, url, { token: ungranted.token, body })).status, url).toBe(403);
      expect((await t.server.api(method, url, { token: granted.token, body })).status, url).toBe(403);
      expect((await t.server.api(method, url, { token: t.user.token, body })).status, url).toBe(403);
    }
    expect((await api('DELETE', p.item(id))).status).toBe(204);
    expect((await api('GET', p.item(id))).status).toBe(404);
  });
});
