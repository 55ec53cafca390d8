/**
 * What the HTTP server refuses before it spends a file descriptor's worth of time on a client (docs/deployment.md
 * "Connections and file descriptors"): connections beyond HTTP_MAX_CONNECTIONS in total (Node closes them at accept,
 * `server.maxConnections`) or beyond HTTP_MAX_CONNECTIONS_PER_IP from one address group are closed at once, and a
 * client has HTTP_HEADERS_TIMEOUT_MS to send its request head (a slow-header client — one header line every few
 * seconds — is cut then, not after Node's 60 s). Connections from a trusted reverse proxy (TRUST_PROXY) are not
 * counted per address: behind a proxy every client shares its address. Refusals are counted and logged (one line
 * per reason and address every 10 s).
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { AddressCounter, addressGroup } from './connection-limits.js';
import { ThrottledLog } from './throttled-log.js';

/** How long a client may take to send its request line and headers, in ms (Node's `headersTimeout`). */
export const HTTP_HEADERS_TIMEOUT_MS = 10_000;
/** How often Node checks that timeout, in ms (`connectionsCheckingInterval`; Node's default 30 s lets it run late). */
export const HTTP_CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;

/** Why the HTTP server closed a connection at accept. */
export type THttpRefusal = 'too_many_connections' | 'too_many_connections_from_address';

/** The HTTP connection limits (README "Configuration": HTTP_MAX_CONNECTIONS, HTTP_MAX_CONNECTIONS_PER_IP). */
export interface THttpConnectionLimits {
  maxConnections: number;
  perAddress: number;
  /** True for a peer address whose connections are not counted per address (a trusted reverse proxy). */
  isTrustedProxy: (address: string) => boolean;
}

/** Node http server options that bound the time a request head may take (for Fastify's `http` option). */
export const HTTP_SERVER_TIMEOUTS = {
  headersTimeout: HTTP_HEADERS_TIMEOUT_MS,
  connectionsCheckingInterval: HTTP_CONNECTIONS_CHECKING_INTERVAL_MS,
} as const;

/** The largest request body a route takes unless it sets its own, in bytes. */
export const HTTP_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The Fastify options every HTTP listener of the server shares (the main app, the device HTTP port's thread): a
 * request's id is its `x-request-id` or a new UUID; {@link HTTP_BODY_LIMIT_BYTES}; only the proxies TRUST_PROXY names
 * may set the client's address and scheme (otherwise any client could choose its IP); a slow-header client is cut
 * after {@link HTTP_HEADERS_TIMEOUT_MS}, checked every second.
 */
export function sharedListenerOptions(trustProxy: string[] | undefined) {
  return {
    genReqId: () => randomUUID(),
    requestIdHeader: 'x-request-id',
    bodyLimit: HTTP_BODY_LIMIT_BYTES,
    trustProxy: trustProxy ?? false,
    http: HTTP_SERVER_TIMEOUTS,
  } as const;
}

/**
 * Applies `limits` to `server` (before it listens or right after). Answers the refusal counters since start.
 */
export function guardHttpConnections(server: Server, limits: THttpConnectionLimits, log: Logger): Readonly<Record<THttpRefusal, number>> {
  const refusals: Record<THttpRefusal, number> = { too_many_connections: 0, too_many_connections_from_address: 0 };
  const warn = new ThrottledLog(log);
  const byAddress = new AddressCounter(limits.perAddress);
  // Over the total, one line per window whatever the address; over an address's share, one per address.
  const refuse = (reason: THttpRefusal, address: string) => {
    refusals[reason] += 1;
    warn.warn(reason === 'too_many_connections' ? reason : `${reason}:${address}`, { reason, address }, 'HTTP connection refused');
  };
  server.maxConnections = limits.maxConnections;
  server.on('drop', (data?: { remoteAddress?: string }) => refuse('too_many_connections', data?.remoteAddress ?? 'unknown'));
  // Listeners run in order: this one comes first, so a refused socket never reaches the HTTP parser.
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    if (limits.isTrustedProxy(address)) return;
    const group = addressGroup(address);
    if (!byAddress.tryTake(group)) {
      refuse('too_many_connections_from_address', group);
      socket.destroy();
      return;
    }
    socket.once('close', () => byAddress.release(group));
  });
  return refusals;
}
