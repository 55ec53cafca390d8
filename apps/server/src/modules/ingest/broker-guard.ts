/**
 * What the embedded broker refuses before it spends memory on a client (docs/decisions/ingest.md "Broker limits";
 * docs/protocol.md "Connection limits"): connections beyond MQTT_MAX_CONNECTIONS in total or
 * MQTT_MAX_CONNECTIONS_PER_IP from one address group, and connections not yet logged in beyond
 * MQTT_MAX_PENDING_CONNECTS in total or MQTT_MAX_PENDING_CONNECTS_PER_IP from one address group, are closed at once
 * (so one host holding half-open sockets cannot take the logins of everyone else); a packet announcing more than
 * MQTT_MAX_PACKET_BYTES_BEFORE_LOGIN before login, or MQTT_MAX_PACKET_BYTES after, closes its connection as soon as
 * its fixed header is read — Aedes' parser (mqtt-packet) would otherwise buffer all of it, however large, from anyone
 * who opens a socket. Every refusal is counted and logged (one line per reason and address per 10 s).
 */
import type { Aedes, Client } from 'aedes';
import type { Logger } from 'pino';
import { AddressCounter, addressGroup } from '../../core/connection-limits.js';
import { ThrottledLog } from '../../core/throttled-log.js';

/** Why the broker closed a connection (`client_id_rejected`: counted by the login hook, ingest/auth.ts). */
export type TBrokerRefusal =
  | 'packet_too_large'
  | 'too_many_connections'
  | 'too_many_connections_from_address'
  | 'too_many_pending_connects'
  | 'too_many_pending_connects_from_address'
  | 'client_id_rejected';

/** The guard's limits (README "Configuration": MQTT_MAX_CONNECTIONS, MQTT_MAX_CONNECTIONS_PER_IP, MQTT_MAX_PENDING_CONNECTS…). */
export interface TBrokerLimits {
  /** Largest packet before and after login, in bytes. */
  packetBytesBeforeLogin: number;
  packetBytesAfterLogin: number;
  /** Open connections in total, and from one address group. */
  connections: number;
  connectionsPerAddress: number;
  /** Connections open and not yet logged in, in total and from one address group. */
  pendingConnects: number;
  pendingConnectsPerAddress: number;
}

/** The parts of Aedes' Client and its mqtt-packet parser this relies on (aedes 1.2.0, mqtt-packet 9, pinned). */
interface TAedesParserView {
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
    too_many_connections: 0,
    too_many_connections_from_address: 0,
    too_many_pending_connects: 0,
    too_many_pending_connects_from_address: 0,
    client_id_rejected: 0,
  };
  private readonly byAddress: AddressCounter;
  private readonly pendingByAddress: AddressCounter;
  /** Clients not yet logged in, with their address group. */
  private readonly pending = new WeakMap<Client, string>();
  private pendingCount = 0;
  private openCount = 0;
  private readonly warn: ThrottledLog;

  constructor(
    private readonly limits: TBrokerLimits,
    log: Logger,
  ) {
    this.warn = new ThrottledLog(log);
    this.byAddress = new AddressCounter(limits.connectionsPerAddress);
    this.pendingByAddress = new AddressCounter(limits.pendingConnectsPerAddress);
  }

  /** Connections open now from `address`'s group. */
  connectionsFrom(address: string): number {
    return this.byAddress.count(addressGroup(address));
  }

  /** Connections open now. */
  get connections(): number {
    return this.openCount;
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
    const group = addressGroup(address);
    if (this.openCount >= this.limits.connections) return this.refuse(conn, 'too_many_connections', 'all');
    if (this.byAddress.count(group) >= this.limits.connectionsPerAddress) {
      return this.refuse(conn, 'too_many_connections_from_address', group);
    }
    if (this.pendingCount >= this.limits.pendingConnects) return this.refuse(conn, 'too_many_pending_connects', 'all');
    if (!this.pendingByAddress.tryTake(group)) return this.refuse(conn, 'too_many_pending_connects_from_address', group);
    this.byAddress.tryTake(group);
    this.openCount += 1;
    const client = handle();
    this.pending.set(client, group);
    this.pendingCount += 1;
    conn.once('close', () => {
      this.byAddress.release(group);
      this.openCount -= 1;
      this.loggedIn(client);
    });
    this.limitPacketSize(client, group);
    return client;
  }

  /** `client` logged in (Aedes `clientReady`) or left: it no longer counts as pending. */
  loggedIn(client: Client): void {
    const group = this.pending.get(client);
    if (group === undefined) return;
    this.pending.delete(client);
    this.pendingCount -= 1;
    this.pendingByAddress.release(group);
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

  /** Counts and logs a refusal: one line per reason and address group (or `all` for a total) every 10 s. */
  private count(reason: TBrokerRefusal, address: string): void {
    this.refusals[reason] += 1;
    this.warn.warn(`${reason}:${address}`, { reason, address }, 'MQTT connection refused');
  }

  /**
   * Fails the parse as soon as a packet's fixed header announces more than allowed: the connection's first packet
   * (its CONNECT) may take MQTT_MAX_PACKET_BYTES_BEFORE_LOGIN, every later one MQTT_MAX_PACKET_BYTES. The limit
   * cannot follow Aedes' `connected` flag: it turns true only at the end of the connect sequence, after CONNACK went
   * out and reading resumed, so a device publishing its backlog right after CONNACK would be cut off. Nor can it
   * follow authentication: a publish sent in the same TCP write as CONNECT is parsed before the login is checked.
   * Bounding every packet after the first by the after-login limit costs no memory before login because Aedes reads
   * nothing more from a connection while its CONNECT is being handled (read-ahead.ts): what a client that never
   * logs in can make the server hold is the one chunk already read.
   */
  private limitPacketSize(client: Client, address: string): void {
    const parser = (client as unknown as TAedesParserView)._parser;
    if (typeof parser?._parseLength !== 'function' || typeof parser._emitError !== 'function') {
      throw new Error('aedes/mqtt-packet internals changed: BrokerGuard needs _parser._parseLength and _emitError');
    }
    const parseLength = parser._parseLength.bind(parser);
    let isFirstPacket = true;
    parser._parseLength = () => {
      if (!parseLength()) return false;
      const max = isFirstPacket ? this.limits.packetBytesBeforeLogin : this.limits.packetBytesAfterLogin;
      isFirstPacket = false;
      if (parser.packet.length <= max) return true;
      this.count('packet_too_large', address);
      // Aedes closes a client whose parser fails; nothing more of the packet is read or kept.
      parser._emitError(new Error(`packet of ${parser.packet.length} bytes is over the ${max}-byte limit`));
      return false;
    };
  }
}
