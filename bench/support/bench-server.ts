/**
 * A server for the API benchmarks: a scratch PostgreSQL database (DATABASE_URL's server), the real server started
 * in-process on free ports, a project of `devices` devices and a vendor of its tenant with a signed access token.
 */
import { DEFAULT_FEATURES } from '@tessera/contracts';
import pino, { type Logger } from 'pino';
import { accounts, loadConfig, startServer, type TConfig, type TRunningServer } from '@tessera/server';
import { buildDeviceProject, openScratchPostgres, type TBuiltProject } from '@tessera/server/testing';

/** What {@link startBenchServer} answers; `stop()` closes the server and drops the scratch database. */
export interface TBenchServer {
  database: Awaited<ReturnType<typeof openScratchPostgres>>;
  server: TRunningServer;
  project: TBuiltProject;
  /** A vendor's bearer token for the project's tenant. */
  token: string;
  stop(): Promise<void>;
}

/** Starts the bench server; `config` overrides the server's config; `log` is its logger (default: pino at warn). */
export async function startBenchServer(
  opts: { devices?: number; poolSize?: number; log?: Logger } & Partial<TConfig> = {},
): Promise<TBenchServer> {
  const { devices = 1, poolSize = 10, log = pino({ level: 'warn' }), ...overrides } = opts;
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const database = await openScratchPostgres(adminUrl, poolSize, 'tessera_bench');
  const config = {
    ...loadConfig({ ...process.env, DEMO: '0' }),
    port: 0,
    mqttPort: 0,
    host: '127.0.0.1',
    webDist: '/nonexistent',
    ...overrides,
  };
  const server = await startServer(config, { database, log });
  const project = await buildDeviceProject(database.db, { count: devices });
  const [acct] = await database.db
    .insert(accounts)
    .values({
      tenantId: project.tenantId,
      email: `bench-${project.tenantId}@example.com`,
      name: 'bench',
      passwordHash: 'x',
      level: 'vendor',
      features: [...DEFAULT_FEATURES.vendor],
    })
    .returning();
  const token = await server.ctx.tokens.sign({
    sub: String(acct.id),
    tid: project.tenantId,
    email: acct.email,
    level: 'vendor',
    fea: acct.features,
  });
  return {
    database,
    server,
    project,
    token,
    async stop() {
      await server.close();
      await database.close();
    },
  };
}
