/**
 * The queue engine's ingest (AMQP_URL; docs/decisions/scale-out.md): devices publish to RabbitMQ's MQTT listener,
 * which acknowledges a QoS 1 publish only once the message is persisted in the durable queue `tessera.ingest`
 * (publisher confirms inside the MQTT plugin); every replica consumes that one queue over AMQP 0-9-1 with
 * INGEST_PREFETCH messages in flight and acknowledges each message only after its batch committed (one `ack(multiple)`
 * for the committed prefix, ack-window.ts). A replica that
 * dies leaves its unacknowledged messages to RabbitMQ, which hands them to the other replicas (or to it, restarted);
 * points written twice collapse on (device_id, key, ts). A message not stored (the database refused or the replica is
 * stopping) is given back with a requeue after {@link REQUEUE_DELAY_MS}.
 */
import amqp, { type Channel, type ChannelModel, type ConsumeMessage, type Message } from 'amqplib';
import type { Logger } from 'pino';
import { ThrottledLog } from '../../core/throttled-log.js';
import { AckWindow } from './ack-window.js';

/** The durable queue every replica drains. */
export const INGEST_QUEUE = 'tessera.ingest';
/** RabbitMQ's MQTT plugin routes `devices/{id}/telemetry` through amq.topic as `devices.{id}.telemetry`. */
export const INGEST_BINDINGS = ['devices.*.telemetry', 'devices.*.status', 'devices.*.model.state'] as const;
/** Unacknowledged messages one replica holds at most: a full batch's worth of 1-point messages (INGEST_BATCH_MAX). */
export const INGEST_PREFETCH = 5_000;
/** How long a message the replica could not store waits before it is given back to the queue, in milliseconds. */
export const REQUEUE_DELAY_MS = 1_000;
/** Backoff between reconnects to RabbitMQ, in milliseconds (first, cap). */
const RECONNECT_MS = { first: 250, max: 5_000 };

/** One replica's consumer of the ingest queue. */
export interface TQueueIngest {
  /** True while the AMQP channel is open and consuming. */
  isUp(): boolean;
  /** Cancels the consumer: RabbitMQ stops handing this replica messages (those in flight still finish). */
  stopAccepting(): Promise<void>;
  /** Closes the connection; RabbitMQ requeues what was not acknowledged. */
  close(): Promise<void>;
}

/** What the consumer needs. */
export interface TQueueIngestDeps {
  /** amqp://user:password@host:port/vhost */
  url: string;
  /** Stores one message of `topic` (MQTT form); resolves once committed, rejects when it was not stored. */
  ingest(topic: string, payload: Buffer): Promise<void>;
  log: Logger;
}

/** The MQTT topic of a routing key the MQTT plugin made (`/` and `.` are swapped). */
export function topicOfIngestRoutingKey(routingKey: string): string {
  let out = '';
  for (const ch of routingKey) out += ch === '.' ? '/' : ch === '/' ? '.' : ch;
  return out;
}

/**
 * Declares the queue and its bindings (idempotent: every replica does it at start, so the queue exists before any
 * device publishes — a publish routed to no queue would be confirmed and lost) and consumes it. Reconnects with
 * backoff when RabbitMQ goes away. Resolves once the first consumer is registered.
 * @throws the connection error when RabbitMQ cannot be reached at start.
 */
export async function consumeIngestQueue(deps: TQueueIngestDeps): Promise<TQueueIngest> {
  const { log } = deps;
  const warn = new ThrottledLog(log);
  let model: ChannelModel | null = null;
  let channel: Channel | null = null;
  let consumerTag: string | null = null;
  let stopped = false;
  let closed = false;
  let backoffMs = RECONNECT_MS.first;

  function settle(ch: Channel, acks: AckWindow, msg: ConsumeMessage, stored: boolean): void {
    // Delivery tags belong to their channel: after a reconnect RabbitMQ has requeued these already.
    if (ch !== channel) return;
    if (stored) {
      acks.settle(msg.fields.deliveryTag, true);
      return;
    }
    setTimeout(() => {
      if (ch !== channel || closed) return;
      ch.nack(msg, false, true);
      acks.settle(msg.fields.deliveryTag, false);
    }, REQUEUE_DELAY_MS).unref();
  }

  async function open(): Promise<void> {
    const m = await amqp.connect(deps.url);
    let ch: Channel;
    try {
      ch = await m.createChannel();
      await ch.assertQueue(INGEST_QUEUE, { durable: true, arguments: { 'x-queue-version': 2 } });
      for (const key of INGEST_BINDINGS) await ch.bindQueue(INGEST_QUEUE, 'amq.topic', key);
      await ch.prefetch(INGEST_PREFETCH);
    } catch (err) {
      // Refused (a queue declared with other arguments, missing permissions): don't leave the connection open.
      await m.close().catch(() => undefined);
      throw err;
    }
    model = m;
    channel = ch;
    backoffMs = RECONNECT_MS.first;
    m.on('error', (err: Error) => warn.warn('ingest-queue', { err }, 'ingest queue: connection error'));
    m.on('close', () => {
      if (channel === ch) channel = null;
      model = null;
      if (!closed) reconnectLater();
    });
    ch.on('error', (err: Error) => warn.warn('ingest-queue', { err }, 'ingest queue: channel error'));
    if (stopped) return;
    const acks = new AckWindow((deliveryTag) => {
      if (ch === channel) ch.ack({ fields: { deliveryTag } } as Message, true);
    });
    const reply = await ch.consume(
      INGEST_QUEUE,
      (msg) => {
        if (!msg) return; // cancelled by RabbitMQ (queue deleted): the close handler reconnects
        deps.ingest(topicOfIngestRoutingKey(msg.fields.routingKey), msg.content).then(
          () => settle(ch, acks, msg, true),
          (err: unknown) => {
            warn.warn('ingest-queue-store', { err }, 'ingest queue: message not stored, given back to the queue');
            settle(ch, acks, msg, false);
          },
        );
      },
      { noAck: false },
    );
    consumerTag = reply.consumerTag;
  }

  function reconnectLater(): void {
    const delay = backoffMs;
    backoffMs = Math.min(backoffMs * 2, RECONNECT_MS.max);
    setTimeout(() => {
      if (closed) return;
      open().catch((err: unknown) => {
        warn.warn('ingest-queue-connect', { err }, 'ingest queue: RabbitMQ not reachable, retrying');
        reconnectLater();
      });
    }, delay).unref();
  }

  await open();
  return {
    isUp: () => channel !== null && (stopped || consumerTag !== null),
    async stopAccepting() {
      stopped = true;
      const ch = channel;
      if (ch && consumerTag) await ch.cancel(consumerTag).catch(() => undefined);
      consumerTag = null;
    },
    async close() {
      closed = true;
      const m = model;
      channel = null;
      model = null;
      await m?.close().catch(() => undefined);
    },
  };
}
