/**
 * A consumer of an external MQTT broker that acknowledges each QoS 1 message only once its handler resolved — for
 * ingest, once the message's batch committed (docs/decisions/ingest.md, docs/decisions/lorawan.md "ChirpStack's MQTT
 * integration"). MQTT 5, a persistent session (clean false, `sessionExpiryS`) under a stable client id, so what was
 * not acknowledged when the connection or the server went away is delivered again when the same client id returns.
 *
 * Many messages in flight on one connection: MQTT.js handles one incoming packet at a time and sends a QoS 1 PUBACK
 * when `handleMessage` calls back (or `customHandleAcks` answers), so holding that callback until the commit would
 * hold the connection to one message per batch. Instead the consumer takes the message, calls back with an error
 * (MQTT.js then sends nothing and reads the next packet) and writes the PUBACK itself once the handler resolved, in
 * PUBLISH order (MQTT 5 §4.6) and only on the connection the message came on (after a reconnect the broker sends it
 * again). The broker bounds what is in flight (its receive window, Mosquitto's `max_inflight_messages`, 20 by
 * default, and our CONNECT Receive Maximum, {@link RECEIVE_MAXIMUM}).
 *
 * Reconnects itself with exponential backoff ({@link RECONNECT_MIN_MS} doubling to {@link RECONNECT_MAX_MS}) and
 * subscribes again on every connection (Mosquitto 2.0 restores a persisted session without routing to its shared
 * subscriptions; bench/scale/engines/consume-mqtt.ts).
 *
 * The one ack-after-commit consumer of an external MQTT broker: device ingest in MQTT_URL mode (external-broker.ts)
 * and the ChirpStack MQTT integration (lorawan/mqtt-subscriptions.ts) both run on it.
 */
import type { Socket } from 'node:net';
import mqtt, { type IClientOptions, type IPublishPacket, type MqttClient } from 'mqtt';
import type { Logger } from 'pino';

/** The CONNECT Receive Maximum: at most this many QoS 1 messages unacknowledged on one connection. */
export const RECEIVE_MAXIMUM = 1000;
/** The first reconnection delay after a connection is lost or refused, in milliseconds. */
export const RECONNECT_MIN_MS = 1000;
/** The longest reconnection delay by default, in milliseconds (a third party's broker: be gentle). */
export const RECONNECT_MAX_MS = 60_000;

/** What the consumer reports of its connection. */
export type TConsumerEvent = { kind: 'connected' } | { kind: 'disconnected'; error: string };

/** What {@link startAckingConsumer} needs. */
export interface TAckingConsumerOptions {
  url: string;
  /** Stable across restarts of the same replica, so its session (and what it did not acknowledge) is resumed. */
  clientId: string;
  username?: string;
  password?: string;
  /** Subscribed with QoS 1 on every connection (shared-subscription filters `$share/<group>/…` included). */
  filters: string[];
  /** How long the broker keeps the session while the consumer is away, in seconds. */
  sessionExpiryS: number;
  /**
   * Stores one message; resolves once it is stored (or refused for good: it is acknowledged either way), rejects when
   * it was not (it is then not acknowledged, and comes again after the next reconnection).
   */
  handle(topic: string, payload: Buffer): Promise<void>;
  log: Logger;
  /** Told when the connection comes up or goes down (and why). */
  onEvent?(event: TConsumerEvent): void;
  /** MQTT.js options added to the connection's (e.g. TLS). */
  connectOptions?: Partial<IClientOptions>;
  /** The longest reconnection delay in milliseconds (default {@link RECONNECT_MAX_MS}). */
  reconnectMaxMs?: number;
}

/** A running consumer. */
export interface TAckingConsumer {
  isConnected(): boolean;
  /**
   * Resolves once the first connection's subscription was acknowledged (SUBACK), so what devices publish from then on
   * is routed to this consumer's session.
   * @throws Error with the last connection error when that did not happen within `timeoutMs` (the consumer keeps
   *   trying; the caller decides whether to close it).
   */
  ready(timeoutMs: number): Promise<void>;
  /** Messages taken and not acknowledged yet (their handler has not resolved, or an earlier one has not). */
  unacknowledged(): number;
  /** Unsubscribes (the broker routes the shared subscriptions to other members from now on). */
  stopAccepting(): Promise<void>;
  /**
   * Waits up to `waitMs` for the messages in hand to settle, then disconnects. The session is ended (expiry 0) when
   * nothing is left unacknowledged, else kept for `sessionExpiryS` so that the same client id receives those again.
   */
  close(waitMs?: number): Promise<void>;
}

/** A message taken: its packet id, the connection it came on, and whether its handler settled. */
interface THeld {
  messageId: number;
  generation: number;
  settled: boolean;
  stored: boolean;
}

/** The MQTT.js internal that writes a packet: the one way to send a PUBACK of our own. */
interface TPacketWriter {
  _sendPacket(packet: { cmd: 'puback'; messageId: number }, cb: () => void): void;
}

/** Starts the consumer; it connects in the background (see {@link TAckingConsumerOptions.onEvent}). */
export function startAckingConsumer(opts: TAckingConsumerOptions): TAckingConsumer {
  const { log } = opts;
  let generation = 0;
  let closing = false;
  let accepting = true;
  let delayMs = RECONNECT_MIN_MS;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let lastError = 'connection closed';
  /** Messages taken, in PUBLISH order. */
  const held: THeld[] = [];
  /** Messages of this connection that settled without being stored: the session must outlive a stop for them. */
  let notStored = 0;
  const settledWaiters: (() => void)[] = [];
  let subscribed = false;
  const readyWaiters: (() => void)[] = [];

  const client: MqttClient = mqtt.connect(opts.url, {
    ...opts.connectOptions,
    protocolVersion: 5,
    clientId: opts.clientId,
    username: opts.username || undefined,
    password: opts.password || undefined,
    clean: false,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    properties: { sessionExpiryInterval: opts.sessionExpiryS, receiveMaximum: RECEIVE_MAXIMUM },
  });
  const writer = client as unknown as TPacketWriter;

  /** Acknowledges the settled messages at the head of the order: a batch's PUBACKs leave in one write. */
  const acknowledge = () => {
    const stream = client.stream as Partial<Pick<Socket, 'cork' | 'uncork'>> | undefined;
    stream?.cork?.();
    while (held[0]?.settled) {
      const h = held.shift() as THeld;
      if (!h.stored) notStored += 1;
      if (h.stored && h.generation === generation && client.connected)
        writer._sendPacket({ cmd: 'puback', messageId: h.messageId }, () => undefined);
    }
    stream?.uncork?.();
    if (held.length === 0) for (const resolve of settledWaiters.splice(0)) resolve();
  };

  /**
   * Acknowledges once the uplinks settling now have all settled: a committed batch resolves its messages in one run of
   * promise callbacks, and the next tick writes their PUBACKs together.
   */
  let acknowledging = false;
  const scheduleAcknowledge = () => {
    if (acknowledging) return;
    acknowledging = true;
    process.nextTick(() => {
      acknowledging = false;
      acknowledge();
    });
  };

  client.handleMessage = (packet: IPublishPacket, callback) => {
    const topic = packet.topic;
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
    // QoS 0 (the sender asked for no acknowledgement): stored best effort.
    if (packet.qos === 0 || packet.messageId === undefined) {
      opts.handle(topic, payload).catch((err: unknown) => log.warn({ err, topic }, 'mqtt consumer: a QoS 0 message was not stored'));
      return callback();
    }
    const h: THeld = { messageId: packet.messageId, generation, settled: false, stored: false };
    held.push(h);
    opts
      .handle(topic, payload)
      .then(
        () => {
          h.stored = true;
        },
        (err: unknown) => {
          if (!closing) log.warn({ err, topic }, 'mqtt consumer: message not stored, not acknowledged (sent again after a reconnection)');
        },
      )
      .finally(() => {
        h.settled = true;
        scheduleAcknowledge();
      });
    // An error makes MQTT.js send no PUBACK of its own and read the next packet.
    callback(new Error('acknowledged once stored'));
  };

  const subscribe = () => {
    if (!accepting) return;
    client.subscribe(opts.filters, { qos: 1 }, (err) => {
      if (err) {
        lastError = err.message;
        log.warn({ err: err.message, filters: opts.filters }, 'mqtt consumer: subscribe failed');
        return;
      }
      subscribed = true;
      for (const resolve of readyWaiters.splice(0)) resolve();
    });
  };
  client.on('connect', () => {
    delayMs = RECONNECT_MIN_MS;
    // PUBACKs leave at once (they are written together, above): Nagle's algorithm would hold a PUBACK until the
    // broker's TCP acknowledgement of the last one, and the broker's window of unacknowledged messages with it.
    (client.stream as Partial<Pick<Socket, 'setNoDelay'>> | undefined)?.setNoDelay?.(true);
    // The resumed session sends what was not acknowledged again.
    notStored = 0;
    subscribe();
    opts.onEvent?.({ kind: 'connected' });
  });
  client.on('error', (err) => {
    lastError = err.message;
  });
  client.on('close', () => {
    // Messages of this connection can no longer be acknowledged on it: the broker sends them again.
    generation += 1;
    if (closing) return;
    opts.onEvent?.({ kind: 'disconnected', error: lastError });
    lastError = 'connection closed';
    if (reconnectTimer) return;
    const wait = delayMs * (0.8 + Math.random() * 0.4);
    delayMs = Math.min(opts.reconnectMaxMs ?? RECONNECT_MAX_MS, delayMs * 2);
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      if (!closing) client.reconnect();
    }, wait);
  });

  return {
    isConnected: () => client.connected,
    ready(timeoutMs) {
      if (subscribed) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`mqtt consumer: not subscribed within ${timeoutMs} ms: ${lastError}`)), timeoutMs);
        readyWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    unacknowledged: () => held.length,
    async stopAccepting() {
      accepting = false;
      if (client.connected) await client.unsubscribeAsync(opts.filters).catch(() => undefined);
    },
    async close(waitMs = 5000) {
      accepting = false;
      if (held.length > 0) {
        await Promise.race([
          new Promise<void>((resolve) => settledWaiters.push(resolve)),
          new Promise((resolve) => setTimeout(resolve, waitMs).unref()),
        ]);
      }
      closing = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const keep = held.length + notStored > 0;
      if (keep)
        log.warn(
          { unacknowledged: held.length + notStored },
          'mqtt consumer: stopping with messages not stored; the session is kept for them',
        );
      // The PUBACKs just written reach the wire before the DISCONNECT (MQTT.js writes packets in order).
      await client.endAsync(false, keep ? {} : { properties: { sessionExpiryInterval: 0 } }).catch(() => client.end(true));
    },
  };
}
