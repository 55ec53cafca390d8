/**
 * The MQTT subscriptions of a replica's LoRaWAN integrations (docs/decisions/lorawan.md "ChirpStack's MQTT
 * integration"): for every integration whose transport is `mqtt`, one consumer of its ChirpStack broker
 * (ingest/acking-consumer.ts) subscribed with QoS 1 to `$share/{MQTT_SHARE_GROUP}-lorawan-{id}/application/{app}/
 * device/+/event/up` — a shared subscription, so each uplink reaches one replica of the deployment — whose uplinks
 * go through the webhook's own reading, DevEUI look-up, mapping and last-payloads log (receive-uplink.ts) into the
 * one ingest pipeline, each acknowledged (PUBACK) once committed. Integrations are (re)read when one changes (the
 * LoRaWAN change channel, lorawan-cache.ts); the connection's state is written on the integration for the console.
 */
import { hostname } from 'node:os';
import { chirpstackUplinkTopic } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { TMessageBus } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { secretBoxFor } from '../../core/secret-box.js';
import type { ThrottledLog } from '../../core/throttled-log.js';
import type { Db } from '../../db/client.js';
import { lorawanIntegrations } from '../../db/schema.js';
import { startAckingConsumer, type TAckingConsumer, type TConsumerEvent } from '../ingest/acking-consumer.js';
import { SESSION_EXPIRY_S } from '../ingest/external-broker.js';
import type { TIntegrationRow, TLorawanRuntime } from './lorawan-cache.js';
import { mqttPasswordContext } from './mqtt-settings.js';
import { handleNetworkServerEvent } from './receive-uplink.js';

/** What the subscriptions need. */
export interface TMqttSubscriptionDeps {
  db: Db;
  runtime: TLorawanRuntime;
  bus: Pick<TMessageBus, 'ingestDeviceTelemetry'>;
  log: Logger;
  throttled: ThrottledLog;
  /** MQTT_SHARE_GROUP: every replica of the deployment joins the same group per integration. */
  shareGroup: string;
  secretsKey?: string;
}

/** How long a stopping replica waits for the uplinks in hand to be stored before it disconnects, in milliseconds. */
const CLOSE_WAIT_MS = 5000;

/** The shared-subscription filter of integration `id` (a group per integration: two may read the same application). */
export function lorawanMqttFilter(shareGroup: string, id: number, applicationId: string): string {
  return `$share/${shareGroup}-lorawan-${id}/${chirpstackUplinkTopic(applicationId)}`;
}

/** One replica's consumers, one per MQTT integration. */
export class LorawanMqttSubscriptions {
  private readonly running = new Map<number, { fingerprint: string; consumer: TAckingConsumer }>();
  private clientIdBase: string | null = null;
  private closed = false;
  /** Changes are applied one at a time, in the order they came. */
  private applying: Promise<void> = Promise.resolve();

  constructor(private readonly deps: TMqttSubscriptionDeps) {}

  /** Starts consuming once the server listens on `httpPort` (its client ids are `tessera-{host}-{port}-lorawan-{id}`). */
  start(httpPort: number): Promise<void> {
    this.clientIdBase = `tessera-${hostname()}-${httpPort}`;
    return this.changed('all');
  }

  /** Acts on a change (`integration:<id>`, `devices`, or anything else: every integration is read again). */
  changed(change: string): Promise<void> {
    if (change === 'devices') return this.applying;
    const [kind, id] = change.split(':');
    this.applying = this.applying
      .then(() => (kind === 'integration' ? this.apply(Number(id)) : this.applyAll()))
      .catch((err: unknown) => this.deps.log.warn({ err, change }, 'LoRaWAN MQTT: subscriptions not updated'));
    return this.applying;
  }

  /** Integrations consumed now, by id (for tests and the console's state). */
  consumer(id: number): TAckingConsumer | undefined {
    return this.running.get(id)?.consumer;
  }

  /**
   * Unsubscribes every consumer (the broker routes to other replicas from now on) and writes the waiting payloads now,
   * at the start of the stop, rather than after the wait for the uplinks in hand (which a stop deadline may cut short).
   */
  async stopAccepting(): Promise<void> {
    await Promise.all([...this.running.values()].map((r) => r.consumer.stopAccepting()));
    await this.deps.runtime.uplinkLog.flush();
  }

  /** Stops every consumer after the uplinks in hand were stored (or {@link CLOSE_WAIT_MS}), and writes their log. */
  async close(): Promise<void> {
    this.closed = true;
    await this.applying;
    await Promise.all([...this.running.values()].map((r) => r.consumer.close(CLOSE_WAIT_MS)));
    this.running.clear();
    await this.deps.runtime.uplinkLog.flush();
  }

  private async applyAll(): Promise<void> {
    const rows = await this.deps.db
      .select({ id: lorawanIntegrations.id })
      .from(lorawanIntegrations)
      .where(eq(lorawanIntegrations.transport, 'mqtt'));
    const ids = new Set([...rows.map((r) => r.id), ...this.running.keys()]);
    for (const id of ids) await this.apply(id);
  }

  private async apply(id: number): Promise<void> {
    if (this.clientIdBase === null) return;
    const [row] = await this.deps.db.select().from(lorawanIntegrations).where(eq(lorawanIntegrations.id, id));
    const wanted = row && row.transport === 'mqtt' && row.mqttUrl && row.mqttApplicationId && !this.closed ? row : null;
    const fingerprint = wanted
      ? JSON.stringify([wanted.mqttUrl, wanted.mqttUsername, wanted.mqttPasswordSealed, wanted.mqttApplicationId])
      : '';
    const current = this.running.get(id);
    if (current && current.fingerprint === fingerprint) return;
    if (current) {
      this.running.delete(id);
      await current.consumer.close(CLOSE_WAIT_MS);
    }
    if (!wanted) return;
    this.running.set(id, { fingerprint, consumer: await this.startConsumer(wanted) });
  }

  private async startConsumer(row: TIntegrationRow): Promise<TAckingConsumer> {
    const { db, log } = this.deps;
    const password = row.mqttPasswordSealed
      ? (await secretBoxFor(db, this.deps.secretsKey)).decrypt(row.mqttPasswordSealed, mqttPasswordContext(row.projectId))
      : undefined;
    const integrationLog = log.child({ lorawanIntegration: row.id });
    return startAckingConsumer({
      url: row.mqttUrl as string,
      clientId: `${this.clientIdBase}-lorawan-${row.id}`,
      username: row.mqttUsername ?? undefined,
      password,
      filters: [lorawanMqttFilter(this.deps.shareGroup, row.id, row.mqttApplicationId as string)],
      sessionExpiryS: SESSION_EXPIRY_S,
      log: integrationLog,
      handle: (topic, payload) => this.receive(row.id, topic, payload),
      onEvent: (event) => this.recordState(row.id, event),
    });
  }

  /**
   * One uplink event of integration `id`: resolves once stored or refused for good (recorded in the last payloads,
   * counted; acknowledged); rejects when the server is stopping (not acknowledged: the broker sends it again).
   */
  private async receive(id: number, topic: string, body: Buffer): Promise<void> {
    const receivedAt = Date.now();
    const { runtime, bus, throttled } = this.deps;
    const integration = await runtime.directory.integration(id);
    // Deleted, or back on the webhook: this consumer is being stopped; the uplink is not this integration's any more.
    if (integration?.transport !== 'mqtt') return;
    const event = topic.slice(topic.lastIndexOf('/') + 1);
    try {
      await handleNetworkServerEvent({ directory: runtime.directory, uplinkLog: runtime.uplinkLog, bus, log: throttled }, integration, {
        networkServer: 'chirpstack',
        chirpstackEvent: event,
        body,
        receivedAt,
      });
    } catch (err) {
      // A refusal the webhook answers 4xx (unreadable body, over the device's rate) is recorded and counted already.
      if (err instanceof AppError && err.statusCode < 500) {
        throttled.warn(
          `lorawan-mqtt:${id}:${err.statusCode}`,
          { integrationId: id, topic, err: err.message },
          'LoRaWAN MQTT uplink refused',
        );
        return;
      }
      throw err;
    }
  }

  private recordState(id: number, event: TConsumerEvent): void {
    if (this.closed) return;
    const set =
      event.kind === 'connected'
        ? { mqttState: 'connected' as const, mqttError: null, mqttStateAt: Date.now() }
        : { mqttState: 'disconnected' as const, mqttError: event.error.slice(0, 500), mqttStateAt: Date.now() };
    if (event.kind === 'disconnected') {
      this.deps.throttled.warn(`lorawan-mqtt-connection:${id}`, { integrationId: id, err: event.error }, 'LoRaWAN MQTT: not connected');
    }
    this.deps.db
      .update(lorawanIntegrations)
      .set(set)
      .where(eq(lorawanIntegrations.id, id))
      .catch((err: unknown) => this.deps.log.warn({ err }, 'LoRaWAN MQTT: state not recorded'));
  }
}
