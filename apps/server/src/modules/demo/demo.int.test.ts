import { valuesOf } from '@tessera/device-sim';
import {
  DAY_MS,
  dashboardPaths,
  DEFAULT_FEATURES,
  machinePaths,
  paths,
  type TMachineConfigureList,
  type TMachineInstanceList,
  type TDashboardPageList,
  type TDashboardState,
  type TStatisticsSummary,
  type TTimeseriesResponse,
  platformRulePaths,
  rulePaths,
  type TPlatformRuleList,
  type TDevice,
  type TDeviceDetail,
  type TProject,
  type TSimpleRule,
} from '@tessera/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVendor } from '../../../test/factories.js';
import { openTestDatabase, startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { sha256, verifyPassword } from '../../core/crypto.js';
import { rowsOf, type Database } from '../../db/client.js';
import { dayStartOf, firstHotDay } from '../telemetry-store/days.js';
import { accounts, deviceAuthz, devices, machines, products, projects, telemetryLatest, tenants } from '../../db/schema.js';
import {
  DEMO_ACCOUNTS,
  DEMO_DASHBOARD_NAME,
  DEMO_DEVICES,
  DEMO_MACHINE,
  DEMO_MACHINE_CONFIGURE,
  DEMO_PASSWORD,
  DEMO_RULE,
  DEMO_STATUS_GROUPS,
} from './demo-data.js';
import { DEMO_HISTORY_DAYS, historyStepMs } from './history.js';
import { rotateDemoSecrets } from './seed.js';

async function tokenOf(server: TTestServer, email: string): Promise<string> {
  const [a] = await server.ctx.db.select().from(accounts).where(eq(accounts.email, email));
  return server.ctx.tokens.sign({ sub: String(a.id), tid: a.tenantId, email, level: a.level, fea: a.features });
}

describe(`demo seed (${TEST_DB_KIND})`, () => {
  let database: Database;
  let server: TTestServer;
  let startedAt = 0;
  beforeAll(async () => {
    database = await openTestDatabase();
    startedAt = Date.now();
    server = await startTestServer({ demo: true }, database);
  });
  afterAll(async () => {
    await server?.stop();
    await database.close();
  });

  it('creates the three logins with password Demo#2026, no forced password change', async () => {
    const rows = await server.ctx.db.select().from(accounts);
    expect(rows.map((a) => [a.email, a.level]).sort()).toEqual(DEMO_ACCOUNTS.map((a) => [a.email, a.level]).sort());
    for (const a of rows) {
      expect(await verifyPassword(a.passwordHash, DEMO_PASSWORD)).toBe(true);
      expect(a.mustSetPassword).toBe(false);
      expect(a.features).toEqual([...DEFAULT_FEATURES[a.level]]);
    }
    const vendor = rows.find((a) => a.level === 'vendor')!;
    const user = rows.find((a) => a.level === 'user')!;
    expect(user.tenantId).toBe(vendor.tenantId);
    const [tenant] = await server.ctx.db.select().from(tenants).where(eq(tenants.id, vendor.tenantId));
    expect(tenant.name).toBe('Demo Vendor');
    // The login route belongs to the auth module; when it is registered, the demo logins must pass through it.
    for (const a of DEMO_ACCOUNTS) {
      const res = await server.api<{ token?: string }>('POST', paths.login, {
        body: { email: a.email, password: DEMO_PASSWORD, role: a.level === 'user' ? 'user' : 'vendor' },
      });
      if (res.status === 404) continue;
      expect(res.status, a.email).toBe(200);
      expect(res.body.token).toBeTruthy();
    }
  });

  it('gives the vendor a product, a project with status groups on the motor & environment module, and 5 devices', async () => {
    const token = await tokenOf(server, 'vendor@example.com');
    expect((await server.api<{ total: number }>('GET', paths.productsSum, { token })).body.total).toBe(1);
    const projectList = await server.api<{ data: TProject[] }>('GET', paths.projects, { token });
    expect(projectList.body.data).toHaveLength(1);
    const project = projectList.body.data[0];
    expect(project).toMatchObject({ device_count: 5, status_groups: DEMO_STATUS_GROUPS });
    expect(project.tangram.product).toMatch(/Motor/);
    const list = await server.api<{ data: TDevice[] }>('GET', paths.devices, { token });
    expect(list.body.data).toHaveLength(5);
    const detail = await server.api<TDeviceDetail>('GET', paths.deviceV2(list.body.data[0].tangram_id), { token });
    expect(detail.body.sensors.map((s) => s.key).sort()).toEqual(['current', 'humidity', 'temperature', 'vibration']);
    const classes = await server.api<{ product_count: number }[]>('GET', paths.productClasses, { token });
    expect(classes.body).toEqual([expect.objectContaining({ product_count: 1 })]);
  });

  it('gives the demo project a simple rule on the simulated motor current, so alerts appear live', async () => {
    const token = await tokenOf(server, 'vendor@example.com');
    const [project] = (await server.api<{ data: TProject[] }>('GET', paths.projects, { token })).body.data;
    const rules = await server.api<{ data: TSimpleRule[] }>('GET', rulePaths.simples(project.id), { token });
    expect(rules.body.data).toEqual([expect.objectContaining({ ...DEMO_RULE, id: expect.any(Number) })]);
    // The simulator's current peaks at 2.0 A every 10 minutes, above the rule's threshold.
    expect(Math.max(...Array.from({ length: 600 }, (_, s) => valuesOf('current', s * 1000, () => 0.5)[0]))).toBeGreaterThan(
      DEMO_RULE.threshold,
    );
  });

  it('gives the demo vendor two running platform rules: line overheating on telemetry and a nightly device check', async () => {
    const token = await tokenOf(server, 'vendor@example.com');
    const list = await server.api<TPlatformRuleList>('GET', platformRulePaths.rules, { token });
    expect(list.body.data.map((r) => [r.name, r.status, r.trigger_kind, r.version]).sort()).toEqual([
      ['Line overheating', 'running', 'telemetry', 1],
      ['Nightly device check', 'running', 'schedule', 1],
    ]);
    // Both deploy as they are: the demo graphs pass the same checks an apply makes.
    for (const r of list.body.data) expect((await server.api('POST', platformRulePaths.action(r.id, 'apply'), { token })).status).toBe(200);
  });

  it('gives the demo vendor an air compressor whose motor and head are the first two demo devices, with the project’s keys', async () => {
    const token = await tokenOf(server, 'vendor@example.com');
    const configures = (await server.api<TMachineConfigureList>('GET', machinePaths.configures, { token })).body;
    expect(configures.data).toEqual([expect.objectContaining({ name: DEMO_MACHINE_CONFIGURE.name, instance_count: 1, in_use: true })]);
    const components = configures.data[0].components;
    expect(components.map((c) => [c.name, c.keys])).toEqual(DEMO_MACHINE_CONFIGURE.components.map((c) => [c.name, [...c.keys]]));
    const device = (await server.api<{ data: TDevice[] }>('GET', paths.devices, { token })).body.data[0];
    const detail = await server.api<TDeviceDetail>('GET', paths.deviceV2(device.tangram_id), { token });
    const projectKeys = detail.body.sensors.map((s) => s.key);
    for (const c of components) expect(projectKeys).toEqual(expect.arrayContaining(c.keys));
    const machines = (await server.api<TMachineInstanceList>('GET', machinePaths.instances, { token })).body;
    expect(machines.data).toHaveLength(1);
    expect(machines.data[0]).toMatchObject({ ...DEMO_MACHINE, configure_name: DEMO_MACHINE_CONFIGURE.name });
    expect(machines.data[0].components.map((c) => c.device?.name)).toEqual(DEMO_DEVICES.slice(0, 2).map((d) => d.name));
  });

  it('authorises the demo user for exactly 2 of the 5 devices', async () => {
    const token = await tokenOf(server, 'user@example.com');
    const list = await server.api<{ data: TDevice[]; total_items: number }>('GET', paths.devices, { token });
    expect(list.body.total_items).toBe(2);
    expect(list.body.data.map((d) => d.sno).sort()).toEqual(['DE0000000001', 'DE0000000002']);
    // …and holds the compressor through an allowed machine request (its equipment page lists it).
    const held = (await server.api<TMachineInstanceList>('GET', machinePaths.instances, { token })).body;
    expect(held.data.map((m) => m.name)).toEqual([DEMO_MACHINE.name]);
  });

  it('streams: the in-process simulator’s telemetry reaches the database for the demo devices', async () => {
    const deadline = Date.now() + 20_000;
    let rows: (typeof telemetryLatest.$inferSelect)[] = [];
    while (Date.now() < deadline) {
      rows = await server.ctx.db.select().from(telemetryLatest);
      if (new Set(rows.map((r) => r.deviceId)).size === 5) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(new Set(rows.map((r) => r.deviceId)).size).toBe(5);
    expect(new Set(rows.map((r) => r.key))).toEqual(new Set(['current', 'humidity', 'temperature', 'vibration']));
  });

  it('hands the simulator the 5 demo devices with working credentials and their project’s telemetry keys', async () => {
    const sim = await rotateDemoSecrets(server.ctx.db);
    expect(sim).toHaveLength(5);
    const rows = await server.ctx.db.select().from(devices);
    for (const d of sim!) {
      expect(rows.find((r) => r.tangramId === d.tangramId)?.secretHash).toBe(sha256(d.secret));
      expect([...(d.keys ?? [])].sort()).toEqual(['current', 'humidity', 'temperature', 'vibration']);
    }
    // The compressor's motor (the first demo device) is the one whose vibration drifts into zone C.
    expect(sim!.map((d) => d.vibrationProfile)).toEqual(['drifting', 'steady', 'steady', 'steady', 'steady']);
  });

  // Waits up to 60 s for the backfill (about 15 s alone; twice that beside another file's load on the 2-core CI
  // machine), so the test's own limit is above that wait rather than integration's 30 s.
  it('starts with a week of history written in the background: daily temperature cycles and current excursions', {
    timeout: 90_000,
  }, async () => {
    const token = await tokenOf(server, 'vendor@example.com');
    const ids = (await server.api<{ data: TDevice[] }>('GET', paths.devices, { token })).body.data.map((d) => d.tangram_id);
    const week = `startTs=${startedAt - DEMO_HISTORY_DAYS * DAY_MS}&endTs=${startedAt}`;
    // Every demo device gets a point a minute of current and one every 5 minutes of the other keys (the last batch
    // lands within seconds of the start).
    // Polled once a second: a refused poll (the API's request allowance per token) counts as "not written yet".
    let status = 0;
    const summary = async () => {
      const res = await server.api<TStatisticsSummary>(
        'GET',
        `${paths.tsStatisticsSummary}?tangramIds=${ids.join(',')}&keys=current,temperature&${week}`,
        { token },
      );
      status = res.status;
      return res.status === 200 ? res.body.data : [];
    };
    const complete = (rows: TStatisticsSummary['data']) =>
      rows.length === ids.length * 2 && rows.every((s) => s.count >= (DEMO_HISTORY_DAYS * DAY_MS) / historyStepMs(s.key) - 2);
    const deadline = Date.now() + 60_000;
    let stats = await summary();
    while (Date.now() < deadline && !complete(stats)) {
      await new Promise((r) => setTimeout(r, 1_000));
      stats = await summary();
    }
    expect(status).toBe(200);
    expect(stats).toHaveLength(ids.length * 2);
    for (const s of stats) {
      expect(s.count, `${s.tangramId} ${s.key}`).toBeGreaterThanOrEqual((DEMO_HISTORY_DAYS * DAY_MS) / historyStepMs(s.key) - 2);
      if (s.key === 'current') expect(s.max).toBeGreaterThan(DEMO_RULE.threshold);
      // 22 ± 4 °C over each day.
      if (s.key === 'temperature') expect((s.max ?? 0) - (s.min ?? 0)).toBeGreaterThan(6);
    }
    // The history chart of the week answers from the minute rollups: a 30-minute bucket, each one filled.
    const chart = await server.api<TTimeseriesResponse>(
      'GET',
      `${paths.tsTimeseriesV2}?tangramId=${ids[0]}&key=temperature&${week}&width=600`,
      {
        token,
      },
    );
    expect(chart.body).toMatchObject({ source: 'rollup_1m', bucket_ms: 1_800_000 });
    expect(chart.body.points.length).toBeGreaterThanOrEqual(DEMO_HISTORY_DAYS * 48 - 1);
  });

  // Waits up to 60 s too (the storage job after the backfill).
  it('compresses the cold days of its week of history once written (the storage job runs then)', { timeout: 90_000 }, async () => {
    const firstHot = firstHotDay(Date.now(), server.ctx.config.telemetryHotWindowMs);
    const coldDays = Math.round((firstHot - dayStartOf(startedAt - DEMO_HISTORY_DAYS * DAY_MS)) / DAY_MS);
    const state = async () =>
      rowsOf<{ hot: number; days: number }>(
        await server.ctx.db.execute(sql`select (select count(*)::int from telemetry where ts < ${firstHot})
            + (select count(*)::int from telemetry_cold_pending) as hot,
          (select count(distinct day_start)::int from telemetry_chunk where day_start < ${firstHot}) as days`),
      )[0];
    const deadline = Date.now() + 60_000;
    let now = await state();
    while (Date.now() < deadline && (now.hot > 0 || now.days < coldDays)) {
      await new Promise((r) => setTimeout(r, 500));
      now = await state();
    }
    expect(coldDays).toBeGreaterThanOrEqual(DEMO_HISTORY_DAYS - 2);
    expect(now).toEqual({ hot: 0, days: coldDays });
  });

  it('gives the demo vendor and the demo user a first dashboard page over the devices each may see', async () => {
    for (const [email, count] of [
      ['vendor@example.com', 5],
      ['user@example.com', 2],
    ] as const) {
      const token = await tokenOf(server, email);
      const pages = await server.api<TDashboardPageList>('GET', dashboardPaths.pages, { token });
      expect(pages.body.data.map((p) => [p.name, p.widget_count])).toEqual([[DEMO_DASHBOARD_NAME, 6]]);
      const state = await server.api<TDashboardState>('GET', dashboardPaths.widgets(pages.body.data[0].id), { token });
      expect(state.body.widgetList.map((w) => w.type)).toEqual(['latest', 'gauge', 'status', 'alerts', 'line', 'devices']);
      const table = state.body.widgetList.find((w) => w.type === 'devices');
      expect(JSON.parse(table?.parameter ?? '{}').tangram_ids).toHaveLength(count);
    }
  });

  it('is idempotent: a second start adds nothing and gives the demo devices fresh secrets', async () => {
    const hashes = async () => (await server.ctx.db.select().from(devices)).map((d) => d.secretHash).sort();
    const before = await hashes();
    await server.stop();
    server = await startTestServer({ demo: true }, database);
    const db = server.ctx.db;
    expect(await db.select().from(accounts)).toHaveLength(3);
    expect(await db.select().from(products)).toHaveLength(1);
    expect(await db.select().from(projects)).toHaveLength(1);
    expect(await db.select().from(devices)).toHaveLength(5);
    expect(await db.select().from(deviceAuthz)).toHaveLength(2);
    expect(await db.select().from(machines)).toHaveLength(1);
    const after = await hashes();
    expect(after).toHaveLength(5);
    for (const h of after) expect(before).not.toContain(h);
  });
});

describe(`demo on a database that already has accounts (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  beforeAll(async () => {
    const database = await openTestDatabase();
    const plain = await startTestServer({}, database);
    await buildVendor(plain, 'someone@example.com');
    await plain.stop();
    server = await startTestServer({ demo: true }, database);
    const close = server.stop;
    server.stop = async () => {
      await close();
      await database.close();
    };
  });
  afterAll(() => server.stop());

  it('loads nothing', async () => {
    expect((await server.ctx.db.select().from(accounts)).map((a) => a.email)).toEqual(['someone@example.com']);
    expect(await server.ctx.db.select().from(devices)).toEqual([]);
  });
});
