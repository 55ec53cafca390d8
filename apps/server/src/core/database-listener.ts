/**
 * Wake-ups that cross processes through the database: PostgreSQL's LISTEN/NOTIFY (a `NOTIFY` — or `pg_notify()` —
 * committed by any replica reaches every connection listening on the channel; PostgreSQL docs "NOTIFY"), or PGlite's
 * `listen` (one process owns a PGlite, so its own notifications are all there is). Waiting for something another
 * replica does then costs no query while nothing happens.
 *
 * On PostgreSQL the listener holds a connection of its own (`Database.connectUnbounded`: LISTEN lasts as long as the
 * session, so it cannot borrow a pooled connection), named after its channel ({@link listenerApplicationName}), and keeps it: a lost connection is reopened with a backoff and
 * LISTEN issued again. Notifications sent while it was not listening are lost, so after every LISTEN the owner is told
 * (`onListening`) to check once what it waits for. A connection that silently died (a partition) is found by
 * {@link TDatabaseListener.probe}: every {@link LISTENER_PROBE_MS}, and whenever the owner calls it (at a safety
 * re-check of its own).
 */
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Database } from '../db/client.js';
import { settlesWithin } from './deadline.js';

/** How long LISTEN, or a probe's `select 1`, may take on the listening connection, in milliseconds. */
export const LISTEN_DEADLINE_MS = 5_000;
/** How often a listening connection is probed by default, in milliseconds. */
export const LISTENER_PROBE_MS = 30_000;
/** The first wait before reopening a lost connection, doubled per failed attempt up to the cap, in milliseconds. */
const RECONNECT_BASE_MS = 250;
const RECONNECT_CAP_MS = 5_000;

/**
 * The `application_name` a replica's listening connection on `channel` takes (PostgreSQL), so that
 * `pg_stat_activity` tells how many replicas listen on it (modules/ingest/replica-queries.ts).
 */
export function listenerApplicationName(channel: string): string {
  return `tessera listen ${channel}`.slice(0, 63);
}

/** A channel name: a plain lower-case identifier, so it reads the same quoted or not. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/** A running listener on one channel. */
export interface TDatabaseListener {
  /** Resolves true once LISTEN is in place, false if it is not within `deadlineMs` (the owner then relies on its re-check). */
  ready(deadlineMs: number): Promise<boolean>;
  /**
   * Checks that the listening connection still answers (`select 1` within {@link LISTEN_DEADLINE_MS}); one that does
   * not is dropped and reopened (then `onListening` runs). PGlite: nothing to check. Never throws.
   */
  probe(): Promise<void>;
  /** Stops listening and ends the connection. */
  close(): Promise<void>;
}

/** What {@link startDatabaseListener} listens for and whom it tells. */
export interface TDatabaseListenerOptions {
  database: Database;
  /** The channel (a lower-case identifier, e.g. `tessera_qr_login`). */
  channel: string;
  log: Logger;
  /** Each notification's payload (the text given to `pg_notify`). */
  onNotify(payload: string): void;
  /** LISTEN is in place (at first, and again after a lost connection): check once what may have been missed. */
  onListening(info: TListeningInfo): void;
  /** How often the listening connection is probed, in milliseconds (default {@link LISTENER_PROBE_MS}). */
  probeEveryMs?: number;
}

/** What {@link TDatabaseListenerOptions.onListening} is told. */
export interface TListeningInfo {
  /**
   * When the previous listening connection was found lost (epoch ms), or null at the first LISTEN. A connection that
   * died silently is found by a probe, so the loss itself may be up to the probe interval plus LISTEN_DEADLINE_MS
   * earlier.
   */
  lostAtMs: number | null;
}

/**
 * Starts listening on `opts.channel` of `opts.database` at once (in the background: see `ready`).
 * @throws Error when the channel name is not a lower-case identifier, or the database offers no way to listen.
 */
export function startDatabaseListener(opts: TDatabaseListenerOptions): TDatabaseListener {
  if (!CHANNEL.test(opts.channel)) throw new Error(`not a channel name: ${opts.channel}`);
  const { database } = opts;
  if (database.kind === 'pglite' && database.pglite) return pgliteListener(database.pglite, opts);
  const connect = database.connectUnbounded?.bind(database);
  if (!connect) throw new Error('this database cannot open a connection to LISTEN on');
  return postgresListener(connect, opts);
}

/** Resolvers of the callers of `ready()` waiting for LISTEN. */
class ReadyGate {
  isOpen = false;
  private waiting: (() => void)[] = [];

  open(): void {
    this.isOpen = true;
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  async wait(deadlineMs: number): Promise<boolean> {
    if (this.isOpen) return true;
    const opened = new Promise<void>((resolve) => this.waiting.push(resolve));
    return (await settlesWithin(opened, deadlineMs)) && this.isOpen;
  }
}

function pgliteListener(pglite: NonNullable<Database['pglite']>, opts: TDatabaseListenerOptions): TDatabaseListener {
  const gate = new ReadyGate();
  const listening = pglite
    .listen(opts.channel, (payload) => opts.onNotify(payload))
    .then((unlisten) => {
      gate.open();
      opts.onListening({ lostAtMs: null });
      return unlisten;
    });
  listening.catch((err: unknown) => opts.log.error({ err, channel: opts.channel }, 'database listener: LISTEN failed'));
  return {
    ready: (deadlineMs) => gate.wait(deadlineMs),
    probe: async () => undefined,
    async close() {
      const unlisten = await listening.catch(() => null);
      // A closed PGlite (the server stopping) has forgotten its listeners already.
      if (unlisten && !pglite.closed) await unlisten().catch(() => undefined);
    },
  };
}

function postgresListener(connect: () => Promise<pg.Client>, opts: TDatabaseListenerOptions): TDatabaseListener {
  const { log, channel } = opts;
  const gate = new ReadyGate();
  let client: pg.Client | null = null;
  let closed = false;
  let failures = 0;
  let wake: (() => void) | null = null;
  /** When the last listening connection was found lost (epoch ms); null until one was. */
  let lostAtMs: number | null = null;

  /** Opens a connection and LISTENs; resolves when that connection is lost (at once when it could not be opened). */
  async function session(): Promise<void> {
    let fresh: pg.Client;
    try {
      fresh = await connect();
    } catch (err) {
      failed(err);
      return;
    }
    const lost = new Promise<void>((resolve) => {
      fresh.once('end', () => resolve());
      fresh.on('error', () => resolve());
    });
    fresh.on('notification', (msg) => {
      if (msg.channel === channel && msg.payload !== undefined) opts.onNotify(msg.payload);
    });
    client = fresh;
    let refused: unknown = null;
    const named = `SET application_name = ${fresh.escapeLiteral(listenerApplicationName(channel))}`;
    const listened = fresh.query(`${named}; LISTEN ${fresh.escapeIdentifier(channel)}`).catch((err: unknown) => {
      refused = err ?? new Error('LISTEN failed');
    });
    if (!(await settlesWithin(listened, LISTEN_DEADLINE_MS)) || refused !== null || closed) {
      if (!closed) failed(refused ?? new Error(`LISTEN not answered within ${LISTEN_DEADLINE_MS} ms`));
      drop(fresh);
      return;
    }
    if (failures > 0) log.info({ channel, failedAttempts: failures }, 'database listener: listening again');
    failures = 0;
    gate.open();
    opts.onListening({ lostAtMs });
    await lost;
    lostAtMs = Date.now();
    gate.isOpen = false;
    client = null;
    if (!closed) log.warn({ channel }, 'database listener: connection lost; reconnecting');
  }

  /** Logs the first failure of a streak only: during an outage every retry would fail alike. */
  function failed(err: unknown): void {
    if (failures === 0) log.warn({ err: (err as Error)?.message, channel }, 'database listener: cannot LISTEN; retrying');
    failures += 1;
  }

  function drop(c: pg.Client): void {
    if (client === c) client = null;
    gate.isOpen = false;
    c.connection.stream.destroy();
    void c.end().catch(() => undefined);
  }

  async function run(): Promise<void> {
    while (!closed) {
      await session();
      if (closed) break;
      const delayMs = Math.min(RECONNECT_BASE_MS * 2 ** Math.max(0, failures - 1), RECONNECT_CAP_MS);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, failures === 0 ? 0 : delayMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  }
  void run();

  async function probe(): Promise<void> {
    const c = client;
    if (!c || !gate.isOpen) return;
    let ok = true;
    const answered = c.query('select 1').catch(() => {
      ok = false;
    });
    if (!(await settlesWithin(answered, LISTEN_DEADLINE_MS)) || !ok) {
      log.warn({ channel }, 'database listener: connection did not answer; reopening');
      drop(c);
    }
  }
  const probing = setInterval(() => void probe(), opts.probeEveryMs ?? LISTENER_PROBE_MS);
  probing.unref();

  return {
    ready: (deadlineMs) => gate.wait(deadlineMs),
    probe,
    async close() {
      closed = true;
      clearInterval(probing);
      wake?.();
      const c = client;
      client = null;
      gate.isOpen = false;
      if (c && !(await settlesWithin(c.end(), LISTEN_DEADLINE_MS))) c.connection.stream.destroy();
    },
  };
}
