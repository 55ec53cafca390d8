/**
 * A TCP proxy between a server under test and PostgreSQL, to make database faults without touching the shared
 * database server: {@link TPgProxy.dropAll} closes every connection (what a database restart or
 * `pg_terminate_backend` does to the client side), {@link TPgProxy.refuse} makes new connections fail at once (a
 * database that is down), {@link TPgProxy.freeze} stops forwarding without closing anything (a network partition:
 * the database is unreachable but nothing refuses). Used by the fault tests and bench/faults.
 */
import { createServer, Socket, type Server } from 'node:net';

/** A running proxy. */
export interface TPgProxy {
  /** The local port the proxy listens on (127.0.0.1). */
  port: number;
  /** `databaseUrl` with its host and port replaced by the proxy's. */
  urlFor(databaseUrl: string): string;
  /** Closes every proxied connection at once (both sides). */
  dropAll(): void;
  /** While on, every new connection is closed as soon as it arrives (the database is down). */
  refuse(on: boolean): void;
  /** Stops forwarding in both directions without closing anything; new connections are held, not forwarded. */
  freeze(): void;
  /** Forwards again what was held while frozen, and connects the held connections. */
  thaw(): void;
  /**
   * Ends a freeze for new connections only: the ones open now stay frozen for good, never closed (a partition that
   * outlived them: their peer is gone and nothing tells the client).
   */
  strandFrozen(): void;
  /** Proxied connections open now. */
  openConnections(): number;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

interface TPair {
  client: Socket;
  upstream: Socket | null;
  /** Frozen for good (strandFrozen). */
  stranded?: boolean;
}

/**
 * Starts a proxy on a free port of 127.0.0.1 forwarding to `target` (host and port of PostgreSQL).
 * @throws when the port cannot be bound.
 */
export async function startPgProxy(target: { host: string; port: number }): Promise<TPgProxy> {
  const pairs = new Set<TPair>();
  let refusing = false;
  let frozen = false;

  const closePair = (pair: TPair) => {
    pairs.delete(pair);
    pair.client.destroy();
    pair.upstream?.destroy();
  };

  const connectUpstream = (pair: TPair) => {
    const upstream = new Socket();
    pair.upstream = upstream;
    upstream.connect(target.port, target.host);
    upstream.on('data', (chunk) => pair.client.write(chunk));
    pair.client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('error', () => closePair(pair));
    upstream.on('close', () => closePair(pair));
    pair.client.resume();
  };

  const server: Server = createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const pair: TPair = { client, upstream: null };
    pairs.add(pair);
    client.on('error', () => closePair(pair));
    client.on('close', () => closePair(pair));
    client.pause();
    if (!frozen) connectUpstream(pair);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;

  return {
    port,
    urlFor(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    dropAll() {
      for (const pair of [...pairs]) closePair(pair);
    },
    refuse(on) {
      refusing = on;
    },
    freeze() {
      frozen = true;
      for (const pair of pairs) {
        pair.client.pause();
        pair.upstream?.pause();
      }
    },
    thaw() {
      frozen = false;
      for (const pair of pairs) {
        if (pair.stranded) continue;
        if (!pair.upstream) connectUpstream(pair);
        pair.client.resume();
        pair.upstream?.resume();
      }
    },
    strandFrozen() {
      for (const pair of pairs) pair.stranded = true;
      frozen = false;
    },
    openConnections: () => pairs.size,
    async close() {
      for (const pair of [...pairs]) closePair(pair);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
