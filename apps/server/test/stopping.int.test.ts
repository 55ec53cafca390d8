/**
 * Stopping the server as a process manager does (docs/deployment.md "Stopping"): SIGTERM to the start command's top
 * process ends every process of its tree; with a frozen database the server still refuses new connections at once
 * and exits by its deadline, without losing an acknowledged point.
 */
import { readFileSync, mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDeviceProject } from './device-factory.js';
import { startDeviceLoad } from './device-load.js';
import { openScratchPostgres, TEST_DB_KIND } from './helpers.js';
import { startPgProxy } from './pg-proxy.js';
import { descendantsOf, isAlive, REPO_ROOT, spawnServer } from './spawn-server.js';
import { until } from './until.js';

const SHUTDOWN_TIMEOUT_MS = 3_000;

/** Resolves true once a TCP connection to `port` is refused. */
function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('the start command', () => {
  it('`npm start` builds the console, then hands its process over to `start:server`', () => {
    const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    // `exec`: no shell stays between npm and the server to swallow the signal npm forwards.
    expect(scripts.start).toMatch(/&& exec npm run start:server$/);
    expect(scripts['start:server']).toMatch(/^exec node /);
  });

  it.skipIf(TEST_DB_KIND === 'postgres')('ends every process of its tree on SIGTERM to the top process', { timeout: 90_000 }, async () => {
    const server = await spawnServer('npm', ['run', 'start:server'], { DATA_DIR: mkdtempSync(join(tmpdir(), 'tessera-start-')) });
    const top = server.child.pid as number;
    const tree = [top, ...descendantsOf(top)];
    expect(tree.length).toBeGreaterThan(1);
    server.child.kill('SIGTERM');
    try {
      await until(async () => (tree.every((pid) => !isAlive(pid)) ? true : undefined), 20_000);
    } finally {
      // Whatever outlived the signal would keep its ports: the test's own processes, ended by their pids.
      for (const pid of tree.filter(isAlive)) process.kill(pid, 'SIGKILL');
    }
    expect(server.output()).toMatch(/"msg":"stopped"/);
  });
});

describe.skipIf(TEST_DB_KIND !== 'postgres')('stopping with a frozen database (postgres)', () => {
  const adminUrl = process.env.DATABASE_URL ?? '';
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  });

  it('refuses new connections at once, exits by its deadline, and loses no acknowledged point', { timeout: 90_000 }, async () => {
    const admin = new URL(adminUrl);
    const proxy = await startPgProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
    cleanups.push(() => proxy.close());
    const database = await openScratchPostgres(adminUrl, 2, 'tessera_stop');
    cleanups.push(() => database.close());
    const url = new URL(adminUrl);
    url.pathname = `/${database.name}`;
    const server = await spawnServer('node', ['--import', 'tsx', 'apps/server/src/main.ts'], {
      DATABASE_URL: proxy.urlFor(url.toString()),
      DB_CONNECT_TIMEOUT_MS: '1000',
      DB_STATEMENT_TIMEOUT_MS: '1000',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    });
    cleanups.push(async () => void server.child.kill('SIGKILL'));
    const project = await buildDeviceProject(database.db, { count: 2 });
    const load = await startDeviceLoad({
      mqttUrl: `mqtt://127.0.0.1:${server.mqttPort}`,
      devices: project.devices,
      periodMs: 20,
      pointsPerMessage: 5,
    });
    cleanups.push(() => load.stop(0));
    await until(async () => (load.acked() > 200 ? true : undefined));

    proxy.freeze();
    await new Promise((r) => setTimeout(r, 300));
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await until(async () => ((await refuses(server.mqttPort)) && (await refuses(server.httpPort)) ? true : undefined), 5_000);
    const refusingAfterMs = Date.now() - signalledAt;
    const { code } = await server.exited;
    const exitedAfterMs = Date.now() - signalledAt;
    proxy.thaw();
    await load.stop(0);

    expect(refusingAfterMs).toBeLessThan(1_000);
    // The deadline plus the slack of a loaded machine; before, it never exited at all.
    expect(exitedAfterMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 2_500);
    expect(code).toBe(1);
    expect(server.output()).toMatch(/stopped at the shutdown deadline/);
    expect(load.acked()).toBeGreaterThan(200);
    expect(await load.lostPoints(database.db)).toBe(0);
  });
});
