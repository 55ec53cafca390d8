/**
 * Stopping the server as a process manager does (docs/deployment.md "Stopping"): SIGTERM to the start command's top
 * process ends every process of its tree; with a frozen database the server still refuses new connections at once
 * and exits by its deadline, without losing an acknowledged point; under load with a platform rule on the loaded
 * key it skips the rule's queued runs and exits cleanly by its deadline.
 */
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ENGINE_CONFIG } from '@tessera/contracts';
import { count, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite, type Database } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';
import { platformEngineConfigs, platformRuleRuns } from '../src/db/schema.js';
import { insertRunningDemoRule } from './demo-rule.js';
import { buildDeviceProject, type TBuiltProject } from './device-factory.js';
import { startDeviceLoad } from './device-load.js';
import { openScratchPostgres, TEST_DB_KIND } from './helpers.js';
import { startPgProxy } from './pg-proxy.js';
import { descendantsOf, isAlive, REPO_ROOT, spawnServer } from './spawn-server.js';
import { tcpProbe, until } from './until.js';

const SHUTDOWN_TIMEOUT_MS = 3_000;

/** Resolves true when a TCP connection to `port` is refused. */
const refuses = async (port: number): Promise<boolean> => (await tcpProbe(port)) === 'refused';

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

/**
 * A project whose devices the load drives, with the demo's "Line overheating" platform rule running on the loaded
 * key and a tenant rate of `runsPerS` runs a second, so the rule's queue fills within a second of load.
 */
async function seedRuleOnLoadedKey(database: Database, runsPerS: number): Promise<{ project: TBuiltProject; ruleId: number }> {
  const project = await buildDeviceProject(database.db, { count: 4 });
  await database.db
    .insert(platformEngineConfigs)
    .values({ tenantId: project.tenantId, config: { ...DEFAULT_ENGINE_CONFIG, runs_per_second: runsPerS } });
  return { project, ruleId: await insertRunningDemoRule(database.db, project) };
}

describe('stopping under load with a platform rule on the loaded key', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  });

  it('skips the queued runs, exits 0 by its deadline and loses no acknowledged point', { timeout: 90_000 }, async () => {
    // The server's database, seeded before it starts; on PGlite the directory it will own (reopened after the exit).
    const dataDir = mkdtempSync(join(tmpdir(), 'tessera-stop-rules-'));
    const adminUrl = process.env.DATABASE_URL ?? '';
    const scratch = TEST_DB_KIND === 'postgres' ? await openScratchPostgres(adminUrl, 2, 'tessera_stop') : null;
    if (scratch) cleanups.push(() => scratch.close());
    const seeding = scratch ?? (await openPglite(dataDir));
    await runMigrations(seeding);
    // 20 runs a second against 2,000 points a second: the queue holds thousands of runs when the signal comes, which
    // the engine used to work off before the drain could end (minutes here; seconds at the default rate).
    const { project, ruleId } = await seedRuleOnLoadedKey(seeding, 20);
    if (!scratch) await seeding.close();
    const dbEnv: Record<string, string> = scratch
      ? { DATABASE_URL: Object.assign(new URL(adminUrl), { pathname: `/${scratch.name}` }).toString() }
      : { DATA_DIR: dataDir };
    const server = await spawnServer('node', ['--import', 'tsx', 'apps/server/src/main.ts'], {
      ...dbEnv,
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    });
    cleanups.push(async () => void server.child.kill('SIGKILL'));
    const load = await startDeviceLoad({
      mqttUrl: `mqtt://127.0.0.1:${server.mqttPort}`,
      devices: project.devices,
      periodMs: 20,
      pointsPerMessage: 10,
    });
    cleanups.push(() => load.stop(0));
    await until(async () => (load.acked() > 3_000 ? true : undefined), 20_000);

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    const { code } = await server.exited;
    const exitedAfterMs = Date.now() - signalledAt;
    await load.stop(0);

    expect(code).toBe(0);
    expect(exitedAfterMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 1_000);
    const stopped = server
      .output()
      .split('\n')
      .find((l) => l.includes('platform rules: stopped'));
    expect(JSON.parse(stopped ?? '{}')).toMatchObject({ skippedRuns: expect.any(Number) });
    expect((JSON.parse(stopped ?? '{}') as { skippedRuns: number }).skippedRuns).toBeGreaterThan(100);
    const after = scratch ?? (await openPglite(dataDir));
    try {
      const [runs] = await after.db.select({ n: count() }).from(platformRuleRuns).where(eq(platformRuleRuns.ruleId, ruleId));
      expect(runs?.n).toBeGreaterThan(0);
      expect(load.acked()).toBeGreaterThan(3_000);
      expect(await load.lostPoints(after.db)).toBe(0);
    } finally {
      if (!scratch) await after.close();
    }
  });
});
