/**
 * External-broker modes (MQTT_URL; docs/decisions/ingest.md, docs/decisions/scale-out.md). A control connection
 * publishes the server's messages and relays `live/devices/+`, `live/accounts/+/alerts`, `live/accounts/+/access` and
 * `live/platform-telemetry/+` to this replica's browser WebSocket. Ingest comes either
 * - from the queue engine (AMQP_URL, RabbitMQ): the durable queue drained over AMQP (queue-ingest.ts), the control
 *   connection speaking MQTT 3.1.1 (RabbitMQ 3.10's MQTT plugin has no MQTT 5); or
 * - from a plain MQTT broker (Mosquitto/EMQX) as MQTT 5 clients: ingest connections share
 *   `$share/tessera/devices/+/telemetry|status` with QoS 1, keep a session (clean false, session expiry) under a
 *   stable client id per replica, and acknowledge a message only after its batch commits — acking-consumer.ts, the
 *   consumer the ChirpStack MQTT integration runs on too: many messages in flight per connection, each PUBACK after
 *   its commit in PUBLISH order, none for a message not stored (the broker sends it again after a reconnection).
 *   The broker acknowledges devices on receipt, so this mode can lose what the broker drops.
 */
import { LIVE_ACCESS_FILTER } from '@tessera/contracts';
import mqtt from 'mqtt';
import type { Logger } from 'pino';
import { startAckingConsumer, type TAckingConsumer } from './acking-consumer.js';
import { classifyDeviceTopic } from './acl.js';
import type { TDeviceReports } from './device-reports.js';
import type { DeviceDirectory } from './directory.js';
import type { IngestPipeline, TIngestWay } from './pipeline.js';
import { consumeIngestQueue, type TQueueIngest } from './queue-ingest.js';

/** The ingest subscriptions of a replica in shared-subscription group `shareGroup` (config MQTT_SHARE_GROUP). */
export function ingestFilters(shareGroup: string): string[] {
  return [
    `$share/${shareGroup}/devices/+/telemetry`,
    `$share/${shareGroup}/devices/+/status`,
    `$share/${shareGroup}/devices/+/model/state`,
  ];
}
/**
 * Ingest connections (sessions) per replica. Each holds many messages until their batch commits, but the broker
 * bounds what it sends one session unacknowledged (Mosquitto's `max_inflight_messages`, 20 by default), so several
 * sessions let a batch hold more messages.
 */
export const INGEST_CONNECTIONS = 4;
/** How long start-up waits for the ingest connections to subscribe, in milliseconds. */
export const INGEST_READY_TIMEOUT_MS = 10_000;
/** The longest wait between reconnections of an ingest connection to the external broker, in milliseconds. */
export const INGEST_RECONNECT_MAX_MS = 5_000;
/** How long the broker keeps a crashed replica's session (and its unacknowledged messages), in seconds. */
export const SESSION_EXPIRY_S = 600;

/** The server's side of an external broker. */
export interface TExternalBroker {
  publish(topic: string, payload: string | Buffer, opts?: { qos?: 0 | 1; retain?: boolean }): Promise<void>;
  isUp(): boolean;
  /** Subscribes the control connection to the exact `topic` (QoS 1); resolves once subscribed, to its removal. */
  subscribe(topic: string, onMessage: (payload: Buffer) => void): Promise<() => Promise<void>>;
  /** Unsubscribes the ingest connections (the broker routes to other replicas from now on). */
  stopAccepting(): Promise<void>;
  /** Ends the sessions and connections (after the pipeline drained). */
  close(): Promise<void>;
}

/** What the external mode needs. */
export interface TExternalDeps {
  url: string;
  /** The queue engine's AMQP address (RabbitMQ); unset: ingest through MQTT shared subscriptions. */
  amqpUrl?: string;
  /** Stable per replica (host and HTTP port), so a restarted replica resumes its session. */
  clientIdBase: string;
  /** The shared-subscription group of every replica of this deployment (config MQTT_SHARE_GROUP). */
  shareGroup: string;
  pipeline: IngestPipeline;
  directory: DeviceDirectory;
  /** Where model-state reports go. */
  reports: TDeviceReports;
  log: Logger;
  /** Called with each live message seen on the broker (to forward to local browsers). */
  onLive(topic: string, payload: Buffer): void;
}

/** Connects the control and ingest clients; resolves once all are connected and subscribed. */
export async function connectExternalBroker(deps: TExternalDeps): Promise<TExternalBroker> {
  const { log, pipeline, directory } = deps;

  async function ingest(topic: string, message: Buffer, way: TIngestWay): Promise<void> {
    const t = classifyDeviceTopic(topic);
    if (!t || (t.kind !== 'telemetry' && t.kind !== 'status' && t.kind !== 'model_state')) return;
    const device = await directory.device(t.tangramId);
    if (!device) {
      log.warn({ topic }, 'ingest: message from an unknown device dropped');
      return;
    }
    if (t.kind === 'model_state') await deps.reports.modelState(device, message);
    else await pipeline.submit(device, t.kind, message, Date.now(), way);
  }

  const control = await mqtt.connectAsync(deps.url, {
    protocolVersion: deps.amqpUrl ? 4 : 5,
    clientId: `${deps.clientIdBase}-ctl`,
    clean: true,
    reconnectPeriod: 1000,
  });
  // Exact-topic subscriptions of this replica (command replies); everything else on the control connection is live.
  const handlers = new Map<string, (payload: Buffer) => void>();
  control.on('message', (topic, payload) => {
    const handler = handlers.get(topic);
    if (handler) handler(payload);
    else deps.onLive(topic, payload);
  });
  await control.subscribeAsync(['live/devices/+', 'live/accounts/+/alerts', LIVE_ACCESS_FILTER, 'live/platform-telemetry/+'], { qos: 0 });

  const queue: TQueueIngest | null = deps.amqpUrl
    ? await consumeIngestQueue({ url: deps.amqpUrl, ingest: (topic, message) => ingest(topic, message, 'queue'), log })
    : null;
  const ingesters: TAckingConsumer[] = [];
  for (let i = 0; i < (queue ? 0 : INGEST_CONNECTIONS); i += 1) {
    ingesters.push(
      startAckingConsumer({
        url: deps.url,
        clientId: `${deps.clientIdBase}-in${i}`,
        filters: ingestFilters(deps.shareGroup),
        sessionExpiryS: SESSION_EXPIRY_S,
        // The platform's own broker: devices' messages wait in it while a replica is away, so come back quickly.
        reconnectMaxMs: INGEST_RECONNECT_MAX_MS,
        handle: (topic, message) => ingest(topic, message, 'external_mqtt'),
        log,
        onEvent: (event) => {
          if (event.kind === 'disconnected') log.warn({ connection: i, error: event.error }, 'external broker: ingest connection lost');
        },
      }),
    );
  }
  try {
    await Promise.all(ingesters.map((c) => c.ready(INGEST_READY_TIMEOUT_MS)));
  } catch (err) {
    await Promise.all(ingesters.map((c) => c.close(0)));
    await control.endAsync(true);
    await queue?.close();
    throw err;
  }

  return {
    async publish(topic, payload, opts = {}) {
      await control.publishAsync(topic, payload, { qos: opts.qos ?? 0, retain: opts.retain ?? false });
    },
    isUp: () => control.connected && ingesters.every((c) => c.isConnected()) && (queue?.isUp() ?? true),
    async subscribe(topic, onMessage) {
      handlers.set(topic, onMessage);
      await control.subscribeAsync(topic, { qos: 1 });
      return async () => {
        handlers.delete(topic);
        await control.unsubscribeAsync(topic).catch(() => undefined);
      };
    },
    async stopAccepting() {
      await queue?.stopAccepting();
      await Promise.all(ingesters.map((c) => c.stopAccepting()));
    },
    async close() {
      // A graceful stop (after the pipeline drained) ends the sessions (expiry 0) so the broker stops queueing for this
      // replica — unless a message was not stored: that session is kept, and this client id receives it again.
      await queue?.close();
      await Promise.all(ingesters.map((c) => c.close()));
      await control.endAsync();
    },
  };
}
