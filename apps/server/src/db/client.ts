/**
 * Opens the database: PGlite in DATA_DIR (embedded default) or PostgreSQL via DATABASE_URL (ARCHITECTURE.md
 * "One process by default"). Both give the same Drizzle type {@link Db}; raw SQL goes through `db.execute`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import * as schema from './schema.js';

/** The Drizzle database, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** An open database and how to close it. */
export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The pg pool when `kind` is postgres (used by the COPY-free bulk paths and benchmarks). */
  pool?: pg.Pool;
  /** The PGlite instance when `kind` is pglite. */
  pglite?: PGlite;
  /** True when the database answers `select 1`. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Thrown when another process already owns the PGlite data directory. */
export class DataDirLockedError extends Error {
  constructor(readonly dir: string) {
    super(`the data directory ${dir} is in use by another Tessera process; stop it or set DATA_DIR to another folder`);
  }
}

// node-postgres returns int8 as strings by default; our bigints are epoch ms and 40-bit words, exact in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/**
 * Opens PostgreSQL at `url` (a pool of `poolSize` connections). An idle connection that the server drops (a
 * restart, an administrator's terminate) is taken out of the pool and reported to `onIdleError` instead of
 * crashing the process; the next query opens a fresh one. `close()` resolves only once every connection's
 * socket has ended (pg-pool's own `end()` resolves earlier), so a caller may drop the database right after.
 * @throws when the server cannot be reached.
 */
export async function openPostgres(url: string, poolSize = 10, onIdleError: (err: Error) => void = () => {}): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', onIdleError);
  await pool.query('select 1');
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    pool,
    ping: () => ping(db),
    close: async () => {
      const open = pool.totalCount;
      let removed = 0;
      const allEnded = new Promise<void>((resolve) => {
        if (open === 0) resolve();
        pool.on('remove', () => {
          removed += 1;
          if (removed >= open) resolve();
        });
      });
      await pool.end();
      await allEnded;
    },
  };
}

/**
 * Opens PGlite in `dir` (or in memory when `dir` is `memory://`), holding a lock file so that a second process
 * is refused clearly instead of corrupting the data.
 * @throws DataDirLockedError when another process holds the directory.
 */
export async function openPglite(dir: string): Promise<Database> {
  let release: (() => Promise<void>) | undefined;
  let dataDir = dir;
  if (!dir.startsWith('memory://')) {
    mkdirSync(dir, { recursive: true });
    try {
      release = await lockfile.lock(dir, { lockfilePath: join(dir, 'tessera.lock'), stale: 30_000, update: 10_000 });
    } catch {
      throw new DataDirLockedError(dir);
    }
    dataDir = join(dir, 'pglite');
  }
  const client = new PGlite(dataDir);
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite: client,
    ping: () => ping(db),
    close: async () => {
      await client.close();
      await release?.();
    },
  };
}

/** Opens PostgreSQL when `databaseUrl` is set, else PGlite in `dataDir`; `onIdleError` as in {@link openPostgres}. */
export function openDatabase(opts: { databaseUrl?: string; dataDir: string; onIdleError?: (err: Error) => void }): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, 10, opts.onIdleError) : openPglite(opts.dataDir);
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/** Rows of a raw `db.execute` result, typed by the caller (both drivers expose `.rows`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
