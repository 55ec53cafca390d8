/**
 * The embedded broker (ARCHITECTURE.md "One process by default"): Aedes on MQTT TCP and on WebSocket `/mqtt` of
 * the HTTP server (the `ws` package directly; aedes-server-factory would pull in ws 3).
 */
import { createServer, type AddressInfo, type Server as NetServer } from 'node:net';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import proxyAddr from '@fastify/proxy-addr';
import type { Logger } from 'pino';
import { Aedes, type AedesOptions, type AedesPublishPacket, type Client, type PublishPacket } from 'aedes';
import { MQTT_CLIENT_ID_MAX, MQTT_CONNECT_TIMEOUT_MS, MQTT_MAX_PACKET_BYTES } from '@tessera/contracts';
import { createWebSocketStream, WebSocketServer } from 'ws';
import type { TBrokerHooks } from './auth.js';
import type { BrokerGuard } from './broker-guard.js';
import { readAheadBounded } from './read-ahead.js';
import type { TReadGate } from './read-gate.js';
import { listenTls, type TTlsFiles, type TTlsListener } from './tls-listener.js';

/** The WebSocket path of MQTT on the HTTP server. */
export const MQTT_WS_PATH = '/mqtt';

/** A running Aedes with its listeners. */
export interface TEmbeddedBroker {
  aedes: Aedes;
  /** Listens for MQTT over TCP; answers the bound port. */
  listenTcp(port: number, host: string): Promise<number>;
  /** Listens for MQTT over TLS with the certificate of `files`, reloaded when they change (tls-listener.ts). */
  listenTls(files: TTlsFiles, port: number, host: string, log: Logger): Promise<TTlsListener>;
  /** Serves MQTT over WebSocket at {@link MQTT_WS_PATH} on `httpServer`. */
  attachWebSocket(httpServer: HttpServer): void;
  /** Publishes as the server (no client: ACL hooks pass it). Resolves once Aedes took it. */
  publish(topic: string, payload: string | Buffer, opts?: { qos?: 0 | 1; retain?: boolean }): Promise<void>;
  /**
   * Delivers every publish matching `topic` (a filter) to `onMessage` with its topic (a server-side subscription);
   * resolves to its removal.
   */
  subscribe(topic: string, onMessage: (payload: Buffer, topic: string) => void): Promise<() => Promise<void>>;
  /**
   * True when some subscription of the broker matches `topic` (a client's or the server's): a QoS 0 message on a
   * topic nobody subscribes to is delivered to no one, retained nowhere, so it need not be built or published.
   */
  isWatched(topic: string): boolean;
  /** True when a connected client holds a subscription under `devices/{tangramId}/commands/` (the ACL lets only that device). */
  isDeviceListening(tangramId: string): boolean;
  /** The connected clients (Aedes keeps them but does not type the map). */
  connectedClients(): Client[];
  /** Refuses new connections; connected clients stay. */
  stopAccepting(): void;
  /** Closes every client and the broker. */
  close(): Promise<void>;
}

/** What {@link TEmbeddedBroker.isDeviceListening} reads of Aedes: its connected clients and their subscriptions. */
interface TAedesClientsView {
  clients: Record<string, { connected: boolean; subscriptions: Record<string, unknown> }>;
}

/**
 * What {@link TEmbeddedBroker.isWatched} reads of Aedes: its emitter's topic matcher (mqemitter's qlobber), which
 * holds every subscription of a connected client and of the server.
 */
interface TAedesMatcherView {
  mq: { _matcher: { match: (topic: string) => unknown[] } };
}

/** Room for the WebSocket frame around the largest MQTT packet (its fixed header), in bytes. */
const WS_FRAME_MARGIN_BYTES = 16;

/**
 * The address a `/mqtt` WebSocket upgrade `req` comes from, for the per-address limits: the socket's peer, or — when
 * that peer is a proxy named by TRUST_PROXY (`isTrustedProxy`) — the client address its `X-Forwarded-For` gives, as
 * proxy-addr reads it for HTTP requests. Behind nginx every browser's connection would otherwise count as nginx's.
 */
export function upgradeAddress(req: IncomingMessage, isTrustedProxy: ((address: string, hop: number) => boolean) | null): string {
  if (!isTrustedProxy) return req.socket.remoteAddress ?? 'unknown';
  return proxyAddr(req, isTrustedProxy);
}

/**
 * Creates the broker with `hooks` (authentication and ACL); `guard` refuses connections and packets over the
 * limits (broker-guard.ts); `readGate` stops every connection's reading while ingest holds too much (read-gate.ts). A
 * client that sends no CONNECT within MQTT_CONNECT_TIMEOUT_MS is closed. `trustProxy` (TRUST_PROXY) names the proxies
 * whose `X-Forwarded-For` gives a `/mqtt` connection's address ({@link upgradeAddress}).
 */
export async function createEmbeddedBroker(
  hooks: AedesOptions & Pick<TBrokerHooks, 'isDevice'>,
  guard: BrokerGuard,
  readGate: TReadGate,
  trustProxy?: string[],
): Promise<TEmbeddedBroker> {
  const isTrustedProxy = trustProxy ? proxyAddr.compile(trustProxy) : null;
  // MQTT 3.1 capped client ids at 23 characters; ours start with the 30-character Tangram ID (client-ids.ts).
  const aedes = await Aedes.createBroker({ ...hooks, connectTimeout: MQTT_CONNECT_TIMEOUT_MS, maxClientsIdLength: MQTT_CLIENT_ID_MAX });
  guard.attach(aedes);
  const { _matcher: matcher } = (aedes as unknown as TAedesMatcherView).mq;
  if (typeof matcher?.match !== 'function')
    throw new Error('aedes internals changed: isWatched needs mq._matcher.match (embedded-broker.ts)');
  // Only logged-in devices wait at the gate: a new connection reads its CONNECT (Aedes reads nothing more until it is
  // handled; broker-guard.ts bounds its size), and browsers, which hand ingest nothing, keep the live console going.
  const gateOf = (client: Client): TReadGate => ({
    isOpen: () => !hooks.isDevice(client) || readGate.isOpen(),
    whenOpen: (resume) => readGate.whenOpen(resume),
  });
  const handle = (conn: Duplex, req?: IncomingMessage): Client => {
    const client = aedes.handle(conn, req);
    return readAheadBounded(client, gateOf(client));
  };
  let tcp: NetServer | null = null;
  let tls: TTlsListener | null = null;
  let http: HttpServer | null = null;
  let accepting = true;
  // ws buffers a whole message before handing it on: cap it at the largest MQTT packet (its default is 100 MiB).
  const wss = new WebSocketServer({ noServer: true, maxPayload: MQTT_MAX_PACKET_BYTES + WS_FRAME_MARGIN_BYTES });

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== MQTT_WS_PATH) return;
    if (!accepting) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const stream = createWebSocketStream(ws);
      guard.accept(stream, upgradeAddress(req, isTrustedProxy), () => handle(stream, req));
    });
  };

  return {
    aedes,
    async listenTcp(port, host) {
      const server = createServer((socket) => {
        guard.accept(socket, socket.remoteAddress ?? 'unknown', () => handle(socket));
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      tcp = server;
      return (server.address() as AddressInfo).port;
    },
    async listenTls(files, port, host, log) {
      tls = await listenTls(
        files,
        port,
        host,
        (socket) => {
          if (!accepting) return void socket.destroy();
          guard.accept(socket, socket.remoteAddress ?? 'unknown', () => handle(socket));
        },
        log,
      );
      return tls;
    },
    attachWebSocket(httpServer) {
      http = httpServer;
      httpServer.on('upgrade', onUpgrade);
    },
    publish(topic, payload, opts = {}) {
      const packet = { cmd: 'publish', topic, payload, qos: opts.qos ?? 0, retain: opts.retain ?? false, dup: false } as PublishPacket;
      return new Promise((resolve, reject) => aedes.publish(packet, (err) => (err ? reject(err) : resolve())));
    },
    subscribe(topic, onMessage) {
      const deliver = (packet: AedesPublishPacket, done: () => void) => {
        onMessage(Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload), packet.topic);
        done();
      };
      const remove = () => new Promise<void>((resolve) => aedes.unsubscribe(topic, deliver, resolve));
      return new Promise((resolve) => aedes.subscribe(topic, deliver, () => resolve(remove)));
    },
    isWatched: (topic) => matcher.match(topic).length > 0,
    isDeviceListening(tangramId) {
      const prefix = `devices/${tangramId}/commands/`;
      // Aedes keeps the live clients and their granted filters (restored sessions included) but does not type them.
      const { clients } = aedes as unknown as TAedesClientsView;
      return Object.values(clients).some((c) => c.connected && Object.keys(c.subscriptions).some((f) => f.startsWith(prefix)));
    },
    connectedClients() {
      // Registered clients (logged in) that are not closed. Aedes sets `connected` only once its whole connect
      // series ran, the queued messages included, which can be well after the CONNACK: a client that publishes and
      // subscribes may still read `connected: false`.
      const { clients } = aedes as unknown as { clients: Record<string, Client & { closed: boolean }> };
      return Object.values(clients).filter((c) => !c.closed);
    },
    stopAccepting() {
      accepting = false;
      tcp?.close();
      tls?.close();
      http?.off('upgrade', onUpgrade);
    },
    async close() {
      accepting = false;
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
