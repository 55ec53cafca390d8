/**
 * The MQTT side of the server (ARCHITECTURE.md "Device protocol", docs/protocol.md): embedded Aedes (TCP +
 * WebSocket `/mqtt`) by default, or an external broker with MQTT_URL; the ingest pipeline; the live channel.
 */
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { TAppContext, TMessageBus } from '../../core/context.js';
import { createBrokerHooks } from './auth.js';
import { createDeviceReports, type TDeviceReportListener } from './device-reports.js';
import { DeviceDirectory } from './directory.js';
import { ingestDeviceTelemetry } from './device-telemetry.js';
import { ingestTokenTelemetry } from './token-telemetry.js';
import { MQTT_MAX_PACKET_BYTES, MQTT_MAX_PACKET_BYTES_BEFORE_LOGIN, LIVE_ACCESS_FILTER, ZLiveAccessMessage } from '@tessera/contracts';
import { BrokerGuard, type TBrokerRefusal } from './broker-guard.js';
import { startDeviceRevocation } from './device-revocation.js';
import { staleDeviceSessions } from './session-recheck.js';
import { createEmbeddedBroker } from './embedded-broker.js';
import { connectExternalBroker, type TExternalBroker } from './external-broker.js';
import { IngestPipeline, type TBatchObserver, type TCommittedRows, type TIngestCounters } from './pipeline.js';
import { sha256 } from '../../core/crypto.js';
import { ThingsboardDownlink } from './thingsboard-downlink.js';
import { ThingsboardUplink } from './thingsboard-uplink.js';
import { GatewayDirectory } from './gateway-directory.js';
import { GatewaySessions } from './gateway-sessions.js';
import { startProjectKeyChanges } from './project-key-changes.js';

function safeJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    return null;
  }
}

/** How long close() waits after the drain for the last acknowledgements to be written, in milliseconds. */
const PUBACK_GRACE_MS = 100;

/** The MQTT side of the server. */
export interface TMessaging {
  bus: TMessageBus;
  /**
   * Starts listening: MQTT TCP on config.mqttPort (embedded, unless MQTT_PLAIN=0), MQTT over TLS on
   * config.mqttTls.port (when a certificate is configured) and WebSocket `/mqtt` on `httpServer`.
   */
  listen(httpServer: Server): Promise<void>;
  /** The MQTT TCP port actually bound (embedded mode), or null. */
  mqttPort(): number | null;
  /** The MQTT-over-TLS port actually bound (embedded mode with a certificate), or null. */
  mqttTlsPort(): number | null;
  /**
   * Refuses new connections (MQTT TCP, WebSocket `/mqtt`; external mode: stops taking messages from the broker).
   * Connected clients stay until {@link TMessaging.close}. Idempotent.
   */
  stopAccepting(): Promise<void>;
  /**
   * Stops taking publishes and writes what is pending, so every acknowledged point is stored and the last batch is
   * acknowledged; then lets the commit listener finish. Waits for the database: the caller bounds it
   * (core/shutdown.ts). Publishes not stored by then are never acknowledged, so their devices send them again.
   */
  drain(): Promise<void>;
  /** Disconnects every client and closes the broker (or the connection to the external one). */
  close(): Promise<void>;
  /** In-process ingest counters since start (accepted, duplicates, refused by reason). */
  ingestCounters(): TIngestCounters;
  /** Connections the embedded broker closed since start, by reason (broker-guard.ts). */
  brokerRefusals(): Readonly<Record<TBrokerRefusal, number>>;
  /** Clients logged in to the embedded broker now, devices and browsers (counted on each call: for scrapes). */
  connections(): { devices: number; browsers: number };
  /** True while ingest holds too much and devices' sockets are not read (back-pressure, read-gate.ts). */
  isReadingPaused(): boolean;
  /** Hands every committed batch slice's size and commit time to `observer` (metrics). */
  setBatchObserver(observer: TBatchObserver): void;
  /**
   * Hands every committed batch to `listener.accept` after its acknowledgements (the rule engine, docs/rules.md);
   * on close, `listener.close()` runs after the last batch is drained and before the broker closes, so the final
   * evaluations still reach the database and the broker.
   */
  setCommitListener(listener: TCommitListener): void;
  /** Hands every `devices/{id}/model/state` report to `listener` (modules/model-deployments). */
  setModelStateListener(listener: TDeviceReportListener): void;
}

/** Receives committed batches (see {@link TMessaging.setCommitListener}). */
export interface TCommitListener {
  accept(rows: TCommittedRows): void;
  close(): Promise<void>;
}

/**
 * Builds the messaging side. Embedded mode (no `config.mqttUrl`): one Aedes serves devices (TCP and WebSocket)
 * and browsers. External mode: devices live on the external broker (its own authentication and ACL); this
 * server ingests through shared subscriptions and serves only browsers on `/mqtt`.
 */
export async function createMessaging(ctx: Omit<TAppContext, 'bus'>): Promise<TMessaging> {
  const { config, db, log, tokens } = ctx;
  const directory = new DeviceDirectory(db);
  let external: TExternalBroker | null = null;
  const isExternal = !!config.mqttUrl;

  const pipeline: IngestPipeline = new IngestPipeline({
    // Batches go through the writers' own pool when there is one: never queued behind other work's queries.
    db: ctx.database.ingestDb ?? db,
    log,
    directory,
    batchMax: config.ingestBatchMax,
    flushMs: config.ingestFlushMs,
    stallMs: config.ingestStallMs,
    publishLive: (topic, message) => {
      const payload = JSON.stringify(message);
      const sent = external ? external.publish(topic, payload) : broker.publish(topic, payload);
      sent.catch((err: unknown) => log.warn({ err, topic }, 'live message not published'));
    },
    // Embedded: a QoS 0 message without a subscriber goes nowhere. External: browsers of other replicas may watch.
    isLiveWatched: (topic) => isExternal || broker.isWatched(topic),
  });
  const guard = new BrokerGuard(
    {
      packetBytesBeforeLogin: MQTT_MAX_PACKET_BYTES_BEFORE_LOGIN,
      packetBytesAfterLogin: MQTT_MAX_PACKET_BYTES,
      connections: config.mqttMaxConnections,
      connectionsPerAddress: config.mqttMaxConnectionsPerIp,
      pendingConnects: config.mqttMaxPendingConnects,
      pendingConnectsPerAddress: config.mqttMaxPendingConnectsPerIp,
    },
    log,
  );
  const reports = createDeviceReports();
  // Attributes and RPC of token devices (ThingsBoard's device API); the downlink needs the broker, made below.
  let downlink: ThingsboardDownlink | null = null;
  const thingsboard = new ThingsboardUplink(db, log, () => {
    if (!downlink) throw new Error('the ThingsBoard downlink is not started');
    return downlink;
  });
  // ThingsBoard's gateway API: devices behind gateways, by name (gateway-sessions.ts).
  const gateways = new GatewaySessions({
    db,
    log,
    pipeline,
    names: new GatewayDirectory(db, log),
    downlink: () => {
      if (!downlink) throw new Error('the ThingsBoard downlink is not started');
      return downlink;
    },
  });
  const hooks = createBrokerHooks({
    thingsboard: isExternal ? undefined : thingsboard,
    gateways: isExternal ? undefined : gateways,
    db,
    tokens,
    directory,
    pipeline: isExternal ? null : pipeline,
    reports,
    log,
    onClientIdRejected: () => {
      guard.refusals.client_id_rejected += 1;
    },
  });
  const broker = await createEmbeddedBroker(hooks, guard, pipeline.readGate, config.trustProxy);
  broker.aedes.on('clientDisconnect', (client) => gateways.clientGone(client));
  const tbDownlink = new ThingsboardDownlink({
    database: ctx.database,
    db,
    log,
    tokenClients: (tangramId) => hooks.tokenClients(broker.connectedClients(), tangramId),
    publishLocal: (topic, payload) => broker.publish(topic, payload, { qos: 1 }),
    isWatchedLocally: (topic) => broker.isWatched(topic),
    listensNatively: (tangramId) => broker.isDeviceListening(tangramId),
    gateways,
  });
  downlink = tbDownlink;
  // A command published on this broker goes to a token device as RPC, here or through another replica.
  await broker.subscribe('devices/+/commands/+', (payload, topic) => tbDownlink.onCommandPublished(topic, payload));
  // An account's access shrank (an authorisation revoked, on this replica or another: in external mode the message
  // comes back through the broker's live relay): close its browser connections that watch a device it lost.
  await broker.subscribe(LIVE_ACCESS_FILTER, (payload) => {
    const parsed = ZLiveAccessMessage.safeParse(safeJson(payload));
    if (!parsed.success) return;
    hooks.dropRevokedLive(broker.connectedClients(), parsed.data.account_id).then(
      (closed) => closed > 0 && log.info({ accountId: parsed.data.account_id, closed }, 'live connections closed after access was revoked'),
      (err: unknown) => log.warn({ err }, 'live connections not checked after an access change'),
    );
  });
  const revocation = startDeviceRevocation({
    database: ctx.database,
    db,
    log,
    managementUrl: config.rabbitmqManagementUrl,
    revokeLocally(tangramId, loginsBeforeMs) {
      directory.forget(tangramId);
      const closed = hooks.dropDevice(broker.connectedClients(), tangramId, loginsBeforeMs);
      if (closed > 0) log.info({ tangramId, closed }, 'device connections closed after its credentials were revoked');
    },
    forgetAll: () => directory.forgetAll(),
    async recheckSessions(loginsBeforeMs) {
      const sessions = hooks.deviceSessions(broker.connectedClients(), loginsBeforeMs);
      if (sessions.length === 0) return;
      const stale = await staleDeviceSessions(db, sessions);
      for (const session of stale) session.client.close();
      if (stale.length > 0) {
        log.warn(
          { closed: stale.length, checked: sessions.length },
          'device connections closed: their credentials changed while revocations could not be heard',
        );
      }
    },
  });
  const keyChanges = startProjectKeyChanges({ database: ctx.database, db, log, directory });
  let boundPort: number | null = null;
  let tlsPort: number | null = null;
  let commitListener: TCommitListener | null = null;

  const bus: TMessageBus = {
    async publish(topic, payload, opts) {
      if (!isExternal) return broker.publish(topic, payload, opts);
      if (!external) throw new Error('the external MQTT broker is not connected yet');
      return external.publish(topic, payload, opts);
    },
    isUp: () => (isExternal ? (external?.isUp() ?? false) : !broker.aedes.closed),
    async subscribe(topic, onMessage) {
      if (!isExternal) return broker.subscribe(topic, onMessage);
      if (!external) throw new Error('the external MQTT broker is not connected yet');
      return external.subscribe(topic, onMessage);
    },
    isDeviceListening: (tangramId) => (isExternal ? null : broker.isDeviceListening(tangramId) || tbDownlink.isListening(tangramId)),
    ingestBacklog: () => pipeline.backlog(),
    revokeDevice: (tangramId) => revocation.revoke(tangramId),
    projectKeysChanged: (projectId) => keyChanges.changed(projectId),
    ingestTokenTelemetry: (token, payload) => ingestTokenTelemetry({ directory, pipeline }, token, payload),
    tokenDevice: (token) => directory.deviceByTokenHash(sha256(token)),
    isDeviceListeningElsewhere: (tangramId) => (isExternal ? Promise.resolve(false) : tbDownlink.isListeningElsewhere(tangramId)),
    pollRpc: (tangramId, timeoutMs, signal) => tbDownlink.poll(tangramId, timeoutMs, signal),
    pollSharedAttributes: (tangramId, timeoutMs, signal) => tbDownlink.pollSharedAttributes(tangramId, timeoutMs, signal),
    answerRpc: (tangramId, id, payload) => tbDownlink.rpcAnswered(tangramId, id, payload),
    sharedAttributesChanged: (tangramId, deviceId, sinceMs, deleted) =>
      tbDownlink.sharedAttributesChanged(tangramId, deviceId, sinceMs, deleted),
    ingestDeviceTelemetry: (tangramId, payload) => ingestDeviceTelemetry({ directory, pipeline }, tangramId, payload, 'lorawan'),
  };

  return {
    bus,
    async listen(httpServer) {
      broker.attachWebSocket(httpServer);
      if (!config.mqttUrl) {
        if (config.mqttPlain) boundPort = await broker.listenTcp(config.mqttPort, config.host);
        if (config.mqttTls) tlsPort = (await broker.listenTls(config.mqttTls, config.mqttTls.port, config.host, log)).port;
        return;
      }
      const httpPort = (httpServer.address() as AddressInfo | null)?.port ?? config.port;
      if (!config.amqpUrl) {
        log.warn(
          'MQTT_URL without AMQP_URL: the broker acknowledges devices on receipt, so what it drops under load is lost; ' +
            'replicas should use the queue engine (docs/decisions/scale-out.md)',
        );
      }
      external = await connectExternalBroker({
        url: config.mqttUrl,
        amqpUrl: config.amqpUrl,
        clientIdBase: `tessera-${hostname()}-${httpPort}`,
        shareGroup: config.mqttShareGroup,
        pipeline,
        directory,
        reports,
        log,
        onLive: (topic, payload) => {
          broker.publish(topic, payload).catch(() => undefined);
        },
      });
    },
    mqttPort: () => boundPort,
    mqttTlsPort: () => tlsPort,
    async stopAccepting() {
      broker.stopAccepting();
      await external?.stopAccepting();
    },
    async drain() {
      await pipeline.drain();
      await commitListener?.close();
      // Let the PUBACKs of the drained batch reach the wire before the connections close.
      await new Promise((r) => setTimeout(r, PUBACK_GRACE_MS));
    },
    async close() {
      broker.stopAccepting();
      await external?.close();
      await gateways.close();
      await tbDownlink.close();
      await broker.close();
      await revocation.close();
      await keyChanges.close();
    },
    ingestCounters: () => pipeline.counters,
    brokerRefusals: () => guard.refusals,
    connections() {
      let devices = 0;
      let browsers = 0;
      for (const client of broker.connectedClients()) {
        if (hooks.isDevice(client)) devices += 1;
        else browsers += 1;
      }
      return { devices, browsers };
    },
    isReadingPaused: () => !pipeline.readGate.isOpen(),
    setBatchObserver: (observer) => pipeline.setBatchObserver(observer),
    setModelStateListener: (listener) => reports.setModelStateListener(listener),
    setCommitListener(listener) {
      commitListener = listener;
      pipeline.setCommitListener((rows) => listener.accept(rows));
    },
  };
}
