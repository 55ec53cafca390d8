/**
 * Integration-test harness: a real server (Fastify + Aedes on free ports) over a fresh database — PGlite in
 * memory, or a new database on DATABASE_URL's PostgreSQL when TEST_DB=postgres (CI runs both).
 */
import { randomBytes } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { openPglite, openPostgres, type Database, type TPostgresOptions } from '../src/db/client.js';
import { loadConfig, type TConfig } from '../src/core/config.js';
import { startServer, type TRunningServer } from '../src/app/server.js';

/** Which database the integration run uses. */
export const TEST_DB_KIND: 'pglite' | 'postgres' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/**
 * Opens an empty database for one test file. On PostgreSQL it creates `tessera_t_<random>` and drops it on close.
 * @throws when TEST_DB=postgres and DATABASE_URL is not set.
 */
export async function openTestDatabase(): Promise<Database> {
  if (TEST_DB_KIND === 'pglite') return openPglite('memory://');
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs DATABASE_URL');
  return openScratchPostgres(adminUrl, 5, 'tessera_t');
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
  opts: Omit<TPostgresOptions, 'poolSize'> & { via?: (url: string) => string } = {},
): Promise<Database & { name: string }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(opts.via ? opts.via(url.toString()) : url.toString(), { ...opts, poolSize });
  const close = database.close;
  return Object.assign(database, {
    name,
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

/** The config of a test server: free ports, no demo, silent logs, overridable. */
export function testConfig(overrides: Partial<TConfig> = {}): TConfig {
  return {
    ...loadConfig({}),
    port: 0,
    mqttPort: 0,
    host: '127.0.0.1',
    demo: false,
    logLevel: 'silent',
    webDist: '/nonexistent',
    ...overrides,
  };
}

/** Starts a server on a fresh database. Call `stop()` in afterAll. */
export async function startTestServer(overrides: Partial<TConfig> = {}, database?: Database): Promise<TTestServer> {
  const db = database ?? (await openTestDatabase());
  const log = pino({ level: process.env.TEST_LOG ?? 'silent' });
  const server = await startServer(testConfig(overrides), { database: db, log });
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
