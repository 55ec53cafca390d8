/**
 * The PostgreSQL connection pool, hardened against a database that goes away (docs/deployment.md "When the
 * database fails"): every connection gets an `'error'` listener for its whole life (pg-pool listens only while a
 * connection is idle, so a connection dropped while a transaction held it would otherwise crash the process), every
 * wait is bounded (connecting, statements, idle transactions, and the answer to any query), and a connection that
 * did not answer in time is closed instead of being handed out again.
 */
import pg from 'pg';
import { settlesWithin } from '../core/deadline.js';

/** Timeouts of the PostgreSQL connections, in milliseconds (README "Configuration"). */
export interface TPgTimeouts {
  /** Opening a connection, and waiting for a free one when the pool is full (pg `connectionTimeoutMillis`). */
  connectMs: number;
  /** PostgreSQL's `statement_timeout`: the server cancels a statement that runs (or waits for a lock) longer. */
  statementMs: number;
}

/** Defaults of {@link TPgTimeouts} (DB_CONNECT_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS). */
export const DB_TIMEOUT_DEFAULTS: TPgTimeouts = { connectMs: 5_000, statementMs: 30_000 };

/**
 * PostgreSQL's `idle_in_transaction_session_timeout`, in milliseconds: a session that holds a transaction open
 * without sending anything this long is closed by the server, so a client that vanished mid-transaction (a
 * partition, a frozen process) does not keep its locks.
 */
export const DB_IDLE_IN_TRANSACTION_MS = 30_000;

/**
 * How much longer than `statementMs` the client waits for any answer before it declares the connection dead (pg
 * `query_timeout`), in milliseconds. A live server answers a cancelled statement well within it; only an
 * unreachable one does not.
 */
export const DB_QUERY_TIMEOUT_MARGIN_MS = 2_000;

/** When TCP keepalive probes start on an idle connection, in milliseconds. */
const KEEPALIVE_DELAY_MS = 10_000;

/** The `application_name` of the server's connections (pg_stat_activity shows it to the operator). */
export const DB_APPLICATION_NAME = 'tessera';

/** What pg keeps of a client's connection state (not in its types). */
interface TClientState {
  _ending?: boolean;
  _ended?: boolean;
  _queryable?: boolean;
}

/** The pg client settings that carry `timeouts` (shared by the pool and the health probe). */
export function clientSettings(url: string, timeouts: TPgTimeouts): pg.ClientConfig {
  return {
    connectionString: url,
    application_name: DB_APPLICATION_NAME,
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    idle_in_transaction_session_timeout: DB_IDLE_IN_TRANSACTION_MS,
    query_timeout: timeouts.statementMs + DB_QUERY_TIMEOUT_MARGIN_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
  };
}

/** A pool and a way to close it within a deadline. */
export interface THardenedPool {
  pool: pg.Pool;
  /**
   * Ends the pool: waits until every connection has closed (pg-pool's own `end()` resolves earlier), at most
   * `deadlineMs`, then destroys the sockets still open (a frozen database never answers the goodbye).
   */
  end(deadlineMs: number): Promise<void>;
}

/**
 * Creates the pool of `poolSize` connections to `url`. A connection error (the server restarted, an administrator
 * terminated the backend, the network dropped) goes to `onConnectionError` and the connection leaves the pool; the
 * query it was running fails, and the next query opens a fresh connection.
 */
export function createPgPool(url: string, poolSize: number, timeouts: TPgTimeouts, onConnectionError: (err: Error) => void): THardenedPool {
  const pool = new pg.Pool({ ...clientSettings(url, timeouts), max: poolSize });
  const open = new Set<pg.PoolClient>();
  // pg-pool re-emits an idle connection's error here; the connection's own listener below has reported it already.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    open.add(client);
    client.on('error', onConnectionError);
    releaseWhenUnusable(client);
  });
  pool.on('remove', (client) => open.delete(client));

  return {
    pool,
    async end(deadlineMs) {
      const allClosed = new Promise<void>((resolve) => {
        if (open.size === 0) return resolve();
        pool.on('remove', () => {
          if (open.size === 0) resolve();
        });
      });
      const ended = pool.end().then(() => allClosed);
      if (await settlesWithin(ended, deadlineMs)) return;
      for (const client of open) client.connection.stream.destroy();
      // A destroyed connection fails its query; its holder releases it, and only then does pg-pool count it closed.
      await settlesWithin(ended, deadlineMs);
    },
  };
}

/**
 * True when `client` cannot run another query after `err`: its connection is closing or closed, the server ended the
 * session (a FATAL error: terminated by an administrator, shutting down), or the query timed out on the client side
 * and is still outstanding on the connection.
 */
function isUnusableAfter(client: pg.PoolClient, err: Error & { severity?: string }): boolean {
  const state = client as TClientState;
  if (state._ending || state._ended || state._queryable === false) return true;
  return err?.message === 'Query read timeout' || err?.severity === 'FATAL' || err?.severity === 'PANIC';
}

/**
 * Keeps a lost connection from holding a slot of the pool. drizzle-orm 0.45's node-postgres `transaction()` runs
 * BEGIN before its try/finally (a BEGIN that fails never releases the client: the pool loses the slot for good) and
 * releases without the error after a failed ROLLBACK (a dead or timed-out connection would go back to the pool).
 * So after a failed query that leaves the connection unusable, the client is released at once with the error, which
 * makes pg-pool destroy it; the holder's own release() then does nothing. Queries of `pool.query` (callback form)
 * are released with their error by pg-pool itself.
 */
function releaseWhenUnusable(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const guarded = (...args: unknown[]) => {
    const result = query(...args);
    if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') {
      (result as Promise<unknown>).catch((err: Error) => {
        if (!isUnusableAfter(client, err)) return;
        const release = client.release;
        client.release = () => undefined;
        try {
          release(err);
        } catch {
          // Not checked out (already released): pg-pool has dealt with it.
        }
      });
    }
    return result;
  };
  client.query = guarded as typeof client.query;
}
