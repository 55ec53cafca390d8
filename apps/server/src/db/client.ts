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
import { settlesWithin } from '../core/deadline.js';
import { clientSettings, createPgPool, DB_TIMEOUT_DEFAULTS, type TPgTimeouts } from './pg-pool.js';
import { PgProbe } from './pg-probe.js';
import * as schema from './schema.js';

/** The Drizzle database, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** An open database and how to close it. */
export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The pg pool when `kind` is postgres (used by the COPY-free bulk paths and benchmarks). */
  pool?: pg.Pool;
  /**
   * PostgreSQL only: a pool of its own for the ingest writers (TPostgresOptions.ingestPoolSize connections), so that a
   * burst of other queries — notifications of hundreds of alerts opening at once, an export — never queues ingest's
   * batch statements (and so devices' PUBACKs) behind it in `pool`'s queue. PGlite has one connection: ingest uses `db`.
   */
  ingestDb?: Db;
  /** The pg pool behind `ingestDb` (its connection counts, for the metrics). */
  ingestPool?: pg.Pool;
  /** The PGlite instance when `kind` is pglite. */
  pglite?: PGlite;
  /**
   * True when the database answers `select 1` within {@link DB_PING_DEADLINE_MS}; false when it fails or is late
   * (a partitioned database answers nothing). Never throws.
   */
  ping(): Promise<boolean>;
  /**
   * A connection of its own with no statement or query timeout (PostgreSQL only): migrations, which may wait for
   * another replica's migration lock and build indexes on large tables. The caller ends it.
   */
  connectUnbounded?(): Promise<pg.Client>;
  /**
   * Closes the database. On PostgreSQL it resolves once every connection has closed, waiting at most `deadlineMs`
   * (default {@link DB_CLOSE_DEADLINE_MS}) before destroying the ones a frozen database leaves open.
   */
  close(deadlineMs?: number): Promise<void>;
}

/** Connections of the ingest writers' own pool: one per batch written at once (the ingest pipeline's INGEST_WRITERS). */
export const INGEST_POOL_SIZE = 4;

/** How long {@link Database.ping} waits for the answer, in milliseconds (GET /healthz answers within a second). */
export const DB_PING_DEADLINE_MS = 800;
/** How long {@link Database.close} waits for PostgreSQL's connections to close before destroying them, in ms. */
export const DB_CLOSE_DEADLINE_MS = 5_000;

/** Thrown when another process already owns the PGlite data directory. */
export class DataDirLockedError extends Error {
  constructor(readonly dir: string) {
    super(`the data directory ${dir} is in use by another Tessera process; stop it or set DATA_DIR to another folder`);
  }
}

// node-postgres returns int8 as strings by default; our bigints are epoch ms and 40-bit words, exact in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** How {@link openPostgres} sets up the pool. */
export interface TPostgresOptions {
  /** Connections of the pool (default 10). */
  poolSize?: number;
  /** Connections of the ingest writers' own pool (default {@link INGEST_POOL_SIZE}; Database.ingestDb). */
  ingestPoolSize?: number;
  /** Connection and statement timeouts (default {@link DB_TIMEOUT_DEFAULTS}); see pg-pool.ts for the others. */
  timeouts?: Partial<TPgTimeouts>;
  /** Told of every connection the server or the network dropped (the process goes on; the pool reopens one). */
  onConnectionError?: (err: Error) => void;
}

/**
 * Opens PostgreSQL at `url` with a pool hardened against a database that goes away (pg-pool.ts): a dropped
 * connection, idle or in a transaction, is reported to `onConnectionError` instead of crashing the process; every
 * wait is bounded by `timeouts`. `close()` resolves once every connection's socket has ended, so a caller may drop
 * the database right after.
 * @throws when the server cannot be reached.
 */
export async function openPostgres(url: string, opts: TPostgresOptions = {}): Promise<Database> {
  const timeouts: TPgTimeouts = { ...DB_TIMEOUT_DEFAULTS, ...opts.timeouts };
  const onConnectionError = opts.onConnectionError ?? (() => undefined);
  const { pool, end } = createPgPool(url, opts.poolSize ?? 10, timeouts, onConnectionError);
  // Opened on demand like the main pool's: no connection until the first batch.
  const ingest = createPgPool(url, opts.ingestPoolSize ?? INGEST_POOL_SIZE, timeouts, onConnectionError);
  const endBoth = (deadlineMs: number) => Promise.all([end(deadlineMs), ingest.end(deadlineMs)]).then(() => undefined);
  const probe = new PgProbe(url, DB_PING_DEADLINE_MS);
  try {
    await pool.query('select 1');
  } catch (err) {
    await endBoth(0);
    throw err;
  }
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    pool,
    ingestDb: drizzlePg(ingest.pool, { schema }) as unknown as Db,
    ingestPool: ingest.pool,
    ping: () => probe.ping(),
    async connectUnbounded() {
      const client = new pg.Client({ ...clientSettings(url, timeouts), statement_timeout: 0, query_timeout: undefined });
      client.on('error', opts.onConnectionError ?? (() => undefined));
      await client.connect();
      return client;
    },
    async close(deadlineMs = DB_CLOSE_DEADLINE_MS) {
      probe.close();
      await endBoth(deadlineMs);
    },
  };
}

/** PostgreSQL's type id of `bytea`. */
const BYTEA_OID = 17;

/**
 * `bytea` to and from PGlite in its hex text form through Buffer's native hex codec: PGlite's own maps each byte
 * through a JavaScript string and spends about a second per MiB (blob chunks, images); this takes ~0.1 s.
 */
const PGLITE_BYTEA_CODEC = {
  serializers: {
    [BYTEA_OID]: (value: unknown) => {
      if (!(value instanceof Uint8Array)) throw new TypeError('a bytea parameter must be a Uint8Array (or Buffer)');
      return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
    },
  },
  parsers: { [BYTEA_OID]: (text: string) => Buffer.from(text.slice(2), 'hex') },
};

/**
 * Opens PGlite in `dir` (or in memory when `dir` is `memory://`), holding a lock file so that a second process
 * is refused clearly instead of corrupting the data. `loadDataDir` starts it from a dump (`dumpDataDir`) instead of
 * an empty cluster — tests start from a migrated one in a third of the time.
 * @throws DataDirLockedError when another process holds the directory.
 */
export async function openPglite(dir: string, opts: { loadDataDir?: Blob } = {}): Promise<Database> {
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
  const client = new PGlite(dataDir, { ...PGLITE_BYTEA_CODEC, ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}) });
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite: client,
    ping: () => pingWithin(db, DB_PING_DEADLINE_MS),
    close: async () => {
      await client.close();
      await release?.();
    },
  };
}

/** Opens PostgreSQL when `databaseUrl` is set (with `postgres` options), else PGlite in `dataDir`. */
export function openDatabase(opts: { databaseUrl?: string; dataDir: string; postgres?: TPostgresOptions }): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts.postgres) : openPglite(opts.dataDir);
}

/** True when `select 1` answers within `deadlineMs` (PGlite: it queues behind the writes in flight). */
async function pingWithin(db: Db, deadlineMs: number): Promise<boolean> {
  let failed = false;
  const answered = db.execute(sql`select 1`).catch(() => {
    failed = true;
  });
  return (await settlesWithin(answered, deadlineMs)) && !failed;
}

/** Rows of a raw `db.execute` result, typed by the caller (both drivers expose `.rows`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
