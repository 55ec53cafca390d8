/**
 * A rule on a hot key through the real engine (docs/platform-rules.md "What a trace costs"): its runs are sampled,
 * the run list counts what was not traced (every run in a traced row or counted on one), and the trace never holds
 * more than `trace_runs` plus one batch of the writer.
 */
import {
  DEFAULT_ENGINE_CONFIG,
  FLOW_TRACE_SAMPLE_PER_S,
  platformRulePaths as p,
  type TFlowRunList,
  type TPlatformRule,
} from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.js';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { TRACE_BATCH } from '../evaluation/flows/trace-writer.js';
import { overheating } from './platform-rules.fixtures.js';

const TRIGGERS = 600;

describe(`platform-rule trace sampling (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let project: TBuiltProject;
  let ruleId: number;

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 3 });
    // Nothing passes the condition: every run is of one kind (did nothing).
    const created = await api<TPlatformRule>('POST', p.rules, { name: 'hot key', draft: overheating(project.projectId, 'value > 1000') });
    ruleId = created.body.id;
    expect((await api('POST', p.action(ruleId, 'apply'))).status).toBe(200);
    expect((await api<TPlatformRule>('POST', p.action(ruleId, 'start'))).body.status).toBe('running');
  });
  afterAll(async () => {
    await server?.stop();
  });

  const api = <T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => server.api<T>(method, url, { token: vendor.token, body });

  /** Hands the engine `n` committed points of `temperature`, as ingest does, a batch of 100 at a time. */
  async function hotPoints(n: number): Promise<void> {
    const devices = new Map(
      project.devices.map((d) => [d.id, { ...d, tenantId: vendor.tenantId, projectId: project.projectId, secretHash: '' }]),
    );
    for (let sent = 0; sent < n; sent += 100) {
      const telemetry = Array.from({ length: Math.min(100, n - sent) }, (_, i) => ({
        deviceId: (project.devices[(sent + i) % project.devices.length] as { id: number }).id,
        key: 'temperature',
        ts: Date.now(),
        svcRecvTs: Date.now(),
        v1: 20,
        v2: null,
        v3: null,
      }));
      server.flows.accept({ telemetry, status: [], devices });
      await new Promise((r) => setImmediate(r));
    }
    await server.flows.idle();
  }

  const storedRuns = async () =>
    Number(
      rowsOf<{ n: string | number }>(
        await server.ctx.db.execute(sql`select count(*) as n from platform_rule_runs where rule_id = ${ruleId}`),
      )[0]?.n,
    );

  it('traces a sample of a hot rule and the run list says how many runs were not traced', async () => {
    const runsBefore = server.flows.counters.runs;
    await hotPoints(TRIGGERS);
    expect(server.flows.counters.runs - runsBefore).toBe(TRIGGERS);
    const list = (await api<TFlowRunList>('GET', `${p.logs(ruleId)}?limit=100`)).body;
    expect(list.total_items).toBeGreaterThan(0);
    // Sampled: far fewer rows than runs, and each run either traced or counted as not traced.
    expect(list.total_items).toBeLessThan(TRIGGERS / 2);
    expect(list.total_items + list.untraced).toBe(TRIGGERS);
    expect(list.data.some((r) => r.untraced_before > 0)).toBe(true);
    // At most the allowance of each second in full, plus one run standing for the rest of it.
    const seconds = new Set(list.data.map((r) => Math.floor(r.started_at / 1000))).size;
    expect(list.total_items).toBeLessThanOrEqual((seconds + 1) * (FLOW_TRACE_SAMPLE_PER_S + 1));
  });

  it('never holds more than trace_runs plus one batch, the run list still counting the runs it stands for', async () => {
    const config = { ...DEFAULT_ENGINE_CONFIG, trace_runs: 10 };
    expect((await api('PUT', p.engineConfig, config)).status).toBe(200);
    let most = 0;
    let loading = true;
    const watcher = (async () => {
      while (loading) {
        most = Math.max(most, await storedRuns());
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    await hotPoints(TRIGGERS);
    loading = false;
    await watcher;
    expect(await storedRuns()).toBeLessThanOrEqual(10);
    expect(most).toBeLessThanOrEqual(10 + TRACE_BATCH);
    const list = (await api<TFlowRunList>('GET', p.logs(ruleId))).body;
    expect(list.total_items).toBeLessThanOrEqual(10);
    expect(list.untraced).toBeGreaterThan(0);
  });
});
