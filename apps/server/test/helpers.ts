/**
 * Integration-test harness: a real server (Fastify + Aedes on free ports) over a fresh database — PGlite in
 * memory, or a new database on DATABASE_URL's PostgreSQL when TEST_DB=postgres (CI runs both).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { InjectOptions } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { openPglite, openPostgres, type Database, type TPostgresOptions } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';
import { loadConfig, type TConfig } from '../src/core/config.js';
import { startServer, type TRunningServer, type TStartOptions } from '../src/app/server.js';

/** Which database the integration run uses. */
export const TEST_DB_KIND: 'pglite' | 'postgres' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

const MIGRATIONS = fileURLToPath(new URL('../drizzle', import.meta.url));

/** The first 16 hex digits of a SHA-256 over every migration file's name and bytes: a new migration, a new digest. */
function migrationsDigest(): string {
  const digest = createHash('sha256');
  for (const f of readdirSync(MIGRATIONS, { recursive: true }).map(String).sort()) {
    const path = join(MIGRATIONS, f);
    if (statSync(path).isFile()) digest.update(f).update(readFileSync(path));
  }
  return digest.digest('hex').slice(0, 16);
}

/**
 * An in-memory PGlite with every migration applied, started from a dump of one kept in the system's temp folder
 * (named by a digest of the migrations, so a new migration makes a new dump): an empty PGlite cluster costs about 4 s
 * of CPU to create, a dump about 1 s to load. The first test file to need it makes the dump.
 */
async function openMigratedPglite(): Promise<Database> {
  const snapshot = join(tmpdir(), `tessera-pglite-${migrationsDigest()}.tar`);
  if (existsSync(snapshot)) return openPglite('memory://', { loadDataDir: new Blob([readFileSync(snapshot)]) });
  const database = await openPglite('memory://');
  await runMigrations(database);
  const dump = await (database.pglite as PGlite).dumpDataDir('none');
  const partial = `${snapshot}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, snapshot);
  return database;
}

/**
 * Opens an empty database for one test file. On PostgreSQL it creates `tessera_t_<random>` and drops it on close; its
 * pool has production's 10 connections (a smaller one ran out under CI load while the demo's backfill, the storage
 * job and the test's own reads shared it).
 * @throws when TEST_DB=postgres and DATABASE_URL is not set.
 */
export async function openTestDatabase(): Promise<Database> {
  if (TEST_DB_KIND === 'pglite') return openMigratedPglite();
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs DATABASE_URL');
  return openScratchPostgres(adminUrl, 10, 'tessera_t', { template: await migratedTemplate(adminUrl) });
}

/**
 * Opens an empty database with no migration applied, for the tests of the migrations themselves: an in-memory PGlite,
 * or on PostgreSQL a new `tessera_t_<random>` (not a copy of the migrated template), dropped on close.
 * @throws when TEST_DB=postgres and DATABASE_URL is not set.
 */
export async function openEmptyTestDatabase(): Promise<Database> {
  if (TEST_DB_KIND === 'pglite') return openPglite('memory://');
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs DATABASE_URL');
  return openScratchPostgres(adminUrl, 10, 'tessera_t');
}

/** Runs one statement on the PostgreSQL server of `adminUrl` over a connection of its own. */
async function adminStatement(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * The name of a database on `adminUrl`'s server with every migration applied, `tessera_tpl_<migrations digest>`, made
 * by the first test file that needs it: a test database is then a copy of it (`create database … template`, about
 * 0.2 s) instead of a run of every migration (about 1.5 s of both processes' CPU per file on the 2-core machine). It is
 * made under another name and renamed when complete, so a half-migrated template is never copied; a file that loses
 * the race to make it drops its own. Templates of other digests (older migrations) are left in place: another run on the
 * same server may still be copying one (a machine's scratch PostgreSQL is not kept for long).
 */
async function migratedTemplate(adminUrl: string): Promise<string> {
  const name = `tessera_tpl_${migrationsDigest()}`;
  const probe = new pg.Client({ connectionString: adminUrl });
  await probe.connect();
  try {
    if ((await probe.query('select 1 from pg_database where datname = $1', [name])).rowCount) return name;
  } finally {
    await probe.end();
  }
  const building = await openScratchPostgres(adminUrl, 2, 'tessera_tplnew');
  await runMigrations(building);
  await building.closePool();
  try {
    await adminStatement(adminUrl, `alter database ${building.name} rename to ${name}`);
  } catch (err) {
    await adminStatement(adminUrl, `drop database if exists ${building.name} with (force)`);
    if ((err as { code?: string }).code !== '42P04') throw err;
  }
  return name;
}

/**
 * Creates `<prefix>_<random>` on the PostgreSQL server of `adminUrl` and opens it with `poolSize` connections;
 * closing the answer drops the database (tests and benchmarks never touch an existing one). `opts.via` rewrites the
 * URL the pool connects to (a fault proxy, test/pg-proxy.ts); the database is created and dropped directly.
 */
export async function openScratchPostgres(
  adminUrl: string,
  poolSize: number,
  prefix: string,
  opts: Omit<TPostgresOptions, 'poolSize'> & { via?: (url: string) => string; template?: string } = {},
): Promise<Database & { name: string; closePool: Database['close'] }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = (statement: string) => adminStatement(adminUrl, statement);
  await admin(opts.template ? `create database ${name} template ${opts.template}` : `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(opts.via ? opts.via(url.toString()) : url.toString(), { ...opts, poolSize });
  const close = database.close;
  return Object.assign(database, {
    name,
    /** Closes the pool and keeps the database (a template being made). */
    closePool: close,
    close: async (deadlineMs?: number) => {
      await close(deadlineMs);
      await admin(`drop database if exists ${name} with (force)`);
    },
  });
}

/** A running test server plus shortcuts. */
export interface TTestServer extends TRunningServer {
  database: Database;
  /** `app.inject` with an optional bearer token; answers status and parsed JSON body. */
  api<T = unknown>(
    method: InjectOptions['method'],
    url: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: T; headers: Record<string, unknown> }>;
  /** mqtt://127.0.0.1:<port> of the embedded broker. */
  mqttUrl: string;
  /** ws://127.0.0.1:<port>/mqtt for browsers. */
  wsUrl: string;
  /** http://127.0.0.1:<port> */
  httpUrl: string;
  stop(): Promise<void>;
}

/**
 * The config of a test server: free ports, no demo, silent logs (TEST_LOG_LEVEL), overridable. Files go to a fresh
 * directory, or to the database when TEST_BLOB_STORE=database (a module's tests run once on each blob store).
 */
export function testConfig(overrides: Partial<TConfig> = {}): TConfig {
  return {
    ...loadConfig({}),
    port: 0,
    mqttPort: 0,
    host: '127.0.0.1',
    demo: false,
    // TEST_LOG_LEVEL=error shows a failing test's server errors (a 500's cause) on stderr.
    logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
    webDist: '/nonexistent',
    blobStore: process.env.TEST_BLOB_STORE === 'database' ? 'database' : 'directory',
    blobDir: mkdtempSync(join(tmpdir(), 'tessera-blobs-')),
    // The tests' webhook receivers listen on 127.0.0.1.
    webhookPrivateNetworks: true,
    // A test server on the machine's shared broker (MQTT_URL) has a group of its own: in one group, two test files
    // running at once would take turns receiving each other's devices' messages, and drop the ones they do not know.
    mqttShareGroup: `tessera-test-${randomBytes(4).toString('hex')}`,
    ...overrides,
  };
}

/**
 * Starts a server on `database`, else on a fresh one (closed again by `stop()`); `options` hands the server a rule
 * clock or notifier wrapper. Call `stop()` in afterAll.
 */
export async function startTestServer(
  overrides: Partial<TConfig> = {},
  database?: Database,
  options: Omit<TStartOptions, 'database' | 'log'> = {},
): Promise<TTestServer> {
  const db = database ?? (await openTestDatabase());
  const log = pino({ level: process.env.TEST_LOG ?? 'silent' });
  const server = await startServer(testConfig(overrides), { ...options, database: db, log });
  return {
    ...server,
    database: db,
    mqttUrl: `mqtt://127.0.0.1:${server.mqttPort}`,
    wsUrl: `ws://127.0.0.1:${server.httpPort}/mqtt`,
    httpUrl: `http://127.0.0.1:${server.httpPort}`,
    async api(method, url, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      const res = await server.app.inject({ method, url, headers, payload: opts.body as InjectOptions['payload'] });
      const text = res.body;
      let body: unknown = text;
      if ((res.headers['content-type'] ?? '').toString().includes('json') && text) body = JSON.parse(text);
      return { status: res.statusCode, body: body as never, headers: res.headers };
    },
    async stop() {
      await server.close();
      if (!database) await db.close();
    },
  };
}
