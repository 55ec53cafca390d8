/**
 * What the embedded broker refuses before it spends memory on a client (docs/decisions/ingest.md "Broker limits";
 * docs/protocol.md "Limits and bad payloads"): connections beyond MQTT_MAX_CONNECTIONS_PER_IP from one address or
 * beyond MQTT_MAX_PENDING_CONNECTS not yet logged in are closed at once; a packet announcing more than
 * MQTT_MAX_PACKET_BYTES_BEFORE_LOGIN before login, or MQTT_MAX_PACKET_BYTES after, closes its connection as soon as
 * its fixed header is read — Aedes' parser (mqtt-packet) would otherwise buffer all of it, however large, from anyone
 * who opens a socket. Every refusal is counted and logged (one line per reason and address per 10 s).
 */
import type { Aedes, Client } from 'aedes';
import type { Logger } from 'pino';
import { ThrottledLog } from './throttled-log.js';

/** Why the broker closed a connection. */
export type TBrokerRefusal = 'packet_too_large' | 'too_many_connections_from_address' | 'too_many_pending_connects';

/** The guard's limits (README "Configuration": MQTT_MAX_CONNECTIONS_PER_IP, MQTT_MAX_PENDING_CONNECTS). */
export interface TBrokerLimits {
  /** Largest packet before and after login, in bytes. */
  packetBytesBeforeLogin: number;
  packetBytesAfterLogin: number;
  /** Open connections from one address. */
  connectionsPerAddress: number;
  /** Connections open and not yet logged in, from all addresses. */
  pendingConnects: number;
}

/** The parts of Aedes' Client and its mqtt-packet parser this relies on (aedes 1.2.0, mqtt-packet 9, pinned). */
interface TAedesParserView {
  connected: boolean;
  _parser: {
    packet: { length: number };
    _parseLength: () => boolean;
    _emitError: (err: Error) => void;
  };
}

/** An MQTT connection as the guard sees it: something it can close. */
interface TClosable {
  destroy(): void;
  once(event: 'close', listener: () => void): unknown;
}

/** Counts connections and refuses what is over the limits. */
export class BrokerGuard {
  /** Refusals since start, by reason. */
  readonly refusals: Record<TBrokerRefusal, number> = {
    packet_too_large: 0,
    too_many_connections_from_address: 0,
    too_many_pending_connects: 0,
  };
  private readonly byAddress = new Map<string, number>();
  private readonly pending = new WeakSet<Client>();
  private pendingCount = 0;
  private readonly warn: ThrottledLog;

  constructor(
    private readonly limits: TBrokerLimits,
    log: Logger,
  ) {
    this.warn = new ThrottledLog(log);
  }

  /** Connections open now from `address`. */
  connectionsFrom(address: string): number {
    return this.byAddress.get(address) ?? 0;
  }

  /** Connections open now and not yet logged in. */
  get pendingConnects(): number {
    return this.pendingCount;
  }

  /**
   * Takes a new connection from `address`: closes it at once when it is over a connection limit, else hands it to
   * Aedes (`handle`) and watches its packet sizes and its login. Answers the Aedes client, or null.
   */
  accept(conn: TClosable, address: string, handle: () => Client): Client | null {
    const from = this.connectionsFrom(address);
    if (from >= this.limits.connectionsPerAddress) return this.refuse(conn, 'too_many_connections_from_address', address);
    if (this.pendingCount >= this.limits.pendingConnects) return this.refuse(conn, 'too_many_pending_connects', address);
    this.byAddress.set(address, from + 1);
    const client = handle();
    this.pending.add(client);
    this.pendingCount += 1;
    conn.once('close', () => {
      const left = this.connectionsFrom(address) - 1;
      if (left > 0) this.byAddress.set(address, left);
      else this.byAddress.delete(address);
      this.loggedIn(client);
    });
    this.limitPacketSize(client, address);
    return client;
  }

  /** `client` logged in (Aedes `clientReady`) or left: it no longer counts as pending. */
  loggedIn(client: Client): void {
    if (this.pending.delete(client)) this.pendingCount -= 1;
  }

  /** Listens to `aedes` for logins. */
  attach(aedes: Aedes): void {
    aedes.on('clientReady', (client) => this.loggedIn(client));
  }

  private refuse(conn: TClosable, reason: TBrokerRefusal, address: string): null {
    conn.destroy();
    this.count(reason, address);
    return null;
  }

  private count(reason: TBrokerRefusal, address: string): void {
    this.refusals[reason] += 1;
    this.warn.warn(`${reason}:${address}`, { reason, address }, 'MQTT connection refused');
  }

  /** Fails the parse as soon as a packet's fixed header announces more than the client's state allows. */
  private limitPacketSize(client: Client, address: string): void {
    const view = client as unknown as TAedesParserView;
    const parser = view._parser;
    if (typeof parser?._parseLength !== 'function' || typeof parser._emitError !== 'function') {
      throw new Error('aedes/mqtt-packet internals changed: BrokerGuard needs _parser._parseLength and _emitError');
    }
    const parseLength = parser._parseLength.bind(parser);
    parser._parseLength = () => {
      if (!parseLength()) return false;
      const max = view.connected ? this.limits.packetBytesAfterLogin : this.limits.packetBytesBeforeLogin;
      if (parser.packet.length <= max) return true;
      this.count('packet_too_large', address);
      // Aedes closes a client whose parser fails; nothing more of the packet is read or kept.
      parser._emitError(new Error(`packet of ${parser.packet.length} bytes is over the ${max}-byte limit`));
      return false;
    };
  }
}
