import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { waitUntil } from '../ingest/ingest-test-kit.js';
import { prometheusTools } from './metrics-test-kit.js';

const TOKEN = 'prometheus-scrape-token-0123456789';
const tools = prometheusTools();

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The result vector of an instant query on Prometheus' HTTP API. */
async function query(base: string, promql: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await res.json()) as { status: string; data?: { result: { metric: Record<string, string>; value: [number, string] }[] } };
  return body.status === 'success' ? (body.data?.result ?? []) : [];
}

// Skipped only on a machine without Debian's prometheus package and outside CI; with CI=true a missing tool fails.
describe.skipIf(!tools && !process.env.CI)(`a real Prometheus scrapes /metrics (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let prometheus: ChildProcess | undefined;
  let dir: string;
  let base: string;
  beforeAll(async () => {
    if (!tools) throw new Error('prometheus not installed (Debian package prometheus); CI installs it');
    server = await startTestServer({ metricsToken: TOKEN });
    dir = mkdtempSync(join(tmpdir(), 'tessera-prometheus-'));
    writeFileSync(
      join(dir, 'prometheus.yml'),
      [
        'global: { scrape_interval: 1s, scrape_timeout: 1s }',
        'scrape_configs:',
        '  - job_name: tessera',
        '    authorization: { credentials_file: token }',
        `    static_configs: [{ targets: ["127.0.0.1:${server.httpPort}"] }]`,
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'token'), TOKEN);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      tools.prometheus,
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      { stdio: 'ignore' },
    );
  });
  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((resolve) => prometheus?.once('exit', resolve));
      prometheus.kill('SIGTERM');
      await exited;
    }
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('scrapes with the bearer token and holds a Tessera metric', async () => {
    await waitUntil(async () => (await query(base, 'up{job="tessera"} == 1').catch(() => [])).length === 1, 30_000);
    await waitUntil(async () => (await query(base, 'tessera_ingest_batches_total{job="tessera"}')).length === 1, 15_000);
    const [connected] = await query(base, 'tessera_mqtt_connected_clients{kind="device"}');
    expect(connected.metric.instance).toBe(`127.0.0.1:${server.httpPort}`);
    expect(Number(connected.value[1])).toBe(0);
  });
});
