/**
 * Broker hooks of the embedded Aedes (docs/protocol.md "Credentials", "Topics"): who may connect, publish and
 * subscribe, and the hand-off of telemetry/status publishes to ingest. A device connects with username = its
 * Tangram ID and password = its secret; a browser with username `jwt` and password = its access token, and may
 * subscribe to `live/devices/{id}` of devices it may see, to its own account's `live/accounts/{id}/alerts` and
 * `…/access`, and (a vendor) to `live/platform-telemetry/{id}` of its tenant's platform telemetries. When an
 * account's access shrinks, {@link TBrokerHooks.dropRevokedLive} closes its browser connections that watch a device
 * it may no longer see (the console reconnects, and the ACL refuses that device). A device may also log in with its
 * access token as username (ThingsBoard's device API, docs/decisions/device-apis.md): it then publishes telemetry on
 * `v1/devices/me/telemetry`, rewritten into the native message and ingested by the same pipeline, and the other
 * `v1/devices/me/…` topics (attributes, RPC) handled by thingsboard-uplink.ts; it subscribes to shared attributes and
 * RPC requests, which thingsboard-downlink.ts sends it.
 */
import { TLSSocket } from 'node:tls';
import type { AedesOptions, AuthenticateError, Client } from 'aedes';
import type { Logger } from 'pino';
import { sha256, digestEquals } from '../../core/crypto.js';
import type { TPrincipal } from '../../core/principal.js';
import type { TokenService } from '../../core/tokens.js';
import type { Db } from '../../db/client.js';
import { and, eq } from 'drizzle-orm';
import { hasFeature, isBrowserClientId, isDeviceClientId, isTangramId } from '@tessera/contracts';
import { platformTelemetries } from '../../db/schema.js';
import { findVisibleDevice } from '../devices/access.js';
import {
  canDevicePublish,
  canDeviceSubscribe,
  classifyDeviceTopic,
  liveAccountOf,
  livePlatformTelemetryId,
  liveTopicDevice,
} from './acl.js';
import type { TDeviceReports } from './device-reports.js';
import type { DeviceDirectory, TIngestDevice } from './directory.js';
import type { IngestPipeline, TIngestWay } from './pipeline.js';
import { ThrottledLog } from '../../core/throttled-log.js';
import { certificateDevice } from './cert-login.js';
import type { TDeviceSession } from './session-recheck.js';
import {
  classifyThingsboardTopic,
  isThingsboardClientId,
  isThingsboardSubscription,
  thingsboardClientId,
  thingsboardHandledTopic,
} from './thingsboard-acl.js';
import type { GatewaySessions } from './gateway-sessions.js';
import { classifyGatewayTopic, isGatewayNamespace, isGatewaySubscription } from './gateway-topics.js';
import { thingsboardTelemetryToNative } from './thingsboard-telemetry.js';
import type { ThingsboardUplink } from './thingsboard-uplink.js';

/** The MQTT username a browser uses to present its access token as password. */
export const BROWSER_USERNAME = 'jwt';

/**
 * Who is behind one MQTT connection. A device logged in with its Tangram ID and secret, or its certificate, uses the
 * native topics; one logged in with its access token (`via: 'token'`) ThingsBoard's `v1/devices/me/…` topics only. A
 * device's identity keeps the credential it presented (the token's SHA-256, the certificate's fingerprint), against
 * which its session is checked again when revocations may have gone unheard (session-recheck.ts).
 */
export type TConnIdentity =
  | { kind: 'device'; device: TIngestDevice; via?: 'token'; tokenHash?: string; certificateFingerprint?: string }
  | { kind: 'browser'; principal: TPrincipal };

/** The embedded broker's listener `client` came through: `/mqtt` (it has the upgrade request), TLS or plain TCP. */
function wayOf(client: Client): TIngestWay {
  if (client.req) return 'websocket';
  return client.conn instanceof TLSSocket ? 'mqtts' : 'mqtt';
}

/** What the hooks need. `pipeline` null: devices are refused (external mode, where the broker owns them). */
export interface THookDeps {
  db: Db;
  tokens: TokenService;
  directory: DeviceDirectory;
  pipeline: IngestPipeline | null;
  /** Where a device's reports other than telemetry and status go (embedded mode). */
  reports: TDeviceReports;
  log: Logger;
  /** Counts a login refused for its client id (logged once per identity every 10 s). */
  onClientIdRejected?: () => void;
  /** Handles token devices' attribute and RPC publishes (absent: only their telemetry is taken). */
  thingsboard?: ThingsboardUplink;
  /** Handles gateways' `v1/gateway/…` publishes (absent: a gateway may use only the device API). */
  gateways?: GatewaySessions;
}

/** CONNACK return codes (MQTT 3.1.1 §3.2.2.3): 2 "identifier rejected", 3 "server unavailable", 5 "not authorised". */
const IDENTIFIER_REJECTED = 2;
const SERVER_UNAVAILABLE = 3;
const NOT_AUTHORISED = 5;

function refused(): AuthenticateError {
  return Object.assign(new Error('not authorised'), { returnCode: NOT_AUTHORISED }) as AuthenticateError;
}

function identifierRejected(): AuthenticateError {
  return Object.assign(new Error('identifier rejected'), { returnCode: IDENTIFIER_REJECTED }) as AuthenticateError;
}

/**
 * Whether `identity` may use `clientId` (contracts client-ids.ts): checked before Aedes registers the client, so a
 * refused login never takes over the session of the connection that owns the id.
 */
function ownsClientId(identity: TConnIdentity, clientId: string): boolean {
  if (identity.kind === 'browser') return isBrowserClientId(identity.principal.accountId, clientId);
  return identity.via === 'token' ? isThingsboardClientId(clientId) : isDeviceClientId(identity.device.tangramId, clientId);
}

/** A look-up failed (the database is down or late): not a verdict on the credentials, so the device retries. */
function unavailable(): AuthenticateError {
  return Object.assign(new Error('server unavailable'), { returnCode: SERVER_UNAVAILABLE }) as AuthenticateError;
}

/** The Aedes hooks, and what acts on the connections they identified. */
export type TBrokerHooks = Required<Pick<AedesOptions, 'authenticate' | 'authorizePublish' | 'authorizeSubscribe'>> & {
  /**
   * Closes every browser connection of `accountId` among `clients` that holds a `live/devices/{id}` subscription of a
   * device the account may no longer see (checked again now). Answers how many it closed.
   */
  dropRevokedLive(clients: Iterable<Client>, accountId: number): Promise<number>;
  /** True when `client` logged in as a device (what ingest's read gate holds back; browsers hand ingest nothing). */
  isDevice(client: Client): boolean;
  /**
   * Closes every connection among `clients` logged in as device `tangramId` (its credentials were revoked) whose login
   * began before `loginsBeforeMs` (`performance.now()` time). A login begun later read the credentials after the
   * change, and stays. Answers how many it closed.
   */
  dropDevice(clients: Iterable<Client>, tangramId: string, loginsBeforeMs: number): number;
  /** The connections among `clients` logged in with device `tangramId`'s access token. */
  tokenClients(clients: Iterable<Client>, tangramId: string): Client[];
  /**
   * The device sessions among `clients` whose login began before `loginsBeforeMs` (`performance.now()` time), each
   * with what its login was checked against (session-recheck.ts).
   */
  deviceSessions(clients: Iterable<Client>, loginsBeforeMs: number): TDeviceSession[];
};

/** Builds authenticate / authorizePublish / authorizeSubscribe for Aedes. */
export function createBrokerHooks(deps: THookDeps): TBrokerHooks {
  const identities = new WeakMap<Client, TConnIdentity>();
  /** When each connection's login began (`performance.now()`, ms): what a revocation compares with its own time. */
  const loginsBeganMs = new WeakMap<Client, number>();
  const unavailableLog = new ThrottledLog(deps.log);
  const clientIdLog = new ThrottledLog(deps.log);

  async function identify(username: string | undefined, password: Buffer | undefined): Promise<TConnIdentity | null> {
    if (!username) return null;
    // ThingsBoard's device API: the access token as username, the password ignored (mosquitto_pub -u TOKEN).
    // A browser (`jwt`) always presents its access token as password; it never takes the device-token path.
    if (username !== BROWSER_USERNAME && (!password || !isTangramId(username))) {
      if (!deps.pipeline) return null;
      const tokenHash = sha256(username);
      const byToken = await deps.directory.deviceByTokenHash(tokenHash);
      return byToken ? { kind: 'device', device: byToken, via: 'token', tokenHash } : null;
    }
    if (!password) return null;
    if (username === BROWSER_USERNAME) {
      const res = await deps.tokens.verify(password.toString('utf8'));
      if (!res.ok) return null;
      const p = res.payload;
      return {
        kind: 'browser',
        principal: { accountId: Number(p.sub), tenantId: p.tid, email: p.email, level: p.level, fea: p.fea, via: 'jwt' },
      };
    }
    if (!deps.pipeline) return null;
    const device = await deps.directory.device(username);
    if (!device || !digestEquals(sha256(password.toString('utf8')), device.secretHash)) return null;
    return { kind: 'device', device };
  }

  /** A device presenting its registered certificate without a password logs in by it (cert-login.ts); others by credentials. */
  async function identifyClient(client: Client, username: string | undefined, password: Buffer | undefined): Promise<TConnIdentity | null> {
    if (!password?.length && deps.pipeline) {
      const byCertificate = await certificateDevice(deps.db, deps.directory, client, username);
      if (byCertificate) return { kind: 'device', device: byCertificate.device, certificateFingerprint: byCertificate.fingerprint };
    }
    return identify(username, password);
  }

  return {
    isDevice: (client) => identities.get(client)?.kind === 'device',

    tokenClients(clients, tangramId) {
      const out: Client[] = [];
      for (const client of clients) {
        const identity = identities.get(client);
        if (identity?.kind === 'device' && identity.via === 'token' && identity.device.tangramId === tangramId) out.push(client);
      }
      return out;
    },

    deviceSessions(clients, loginsBeforeMs) {
      const sessions: TDeviceSession[] = [];
      for (const client of clients) {
        const identity = identities.get(client);
        if (identity?.kind !== 'device' || (loginsBeganMs.get(client) ?? 0) >= loginsBeforeMs) continue;
        const { device, tokenHash, certificateFingerprint } = identity;
        sessions.push({
          client,
          tangramId: device.tangramId,
          secretHash: device.secretHash,
          isGateway: device.isGateway === true,
          tokenHash,
          certificateFingerprint,
        });
      }
      return sessions;
    },

    dropDevice(clients, tangramId, loginsBeforeMs) {
      let closed = 0;
      for (const client of clients) {
        const identity = identities.get(client);
        if (identity?.kind !== 'device' || identity.device.tangramId !== tangramId) continue;
        if ((loginsBeganMs.get(client) ?? 0) >= loginsBeforeMs) continue;
        client.close();
        closed += 1;
      }
      return closed;
    },

    async dropRevokedLive(clients, accountId) {
      let closed = 0;
      for (const client of clients) {
        const identity = identities.get(client);
        if (identity?.kind !== 'browser' || identity.principal.accountId !== accountId) continue;
        const watched = Object.keys((client as unknown as { subscriptions: Record<string, unknown> }).subscriptions ?? {})
          .map(liveTopicDevice)
          .filter((id): id is string => id !== null);
        const stillVisible = await Promise.all(
          watched.map((id) => findVisibleDevice(deps.db, identity.principal, id, 'view_telemetry').then((d) => d !== null)),
        );
        if (stillVisible.every(Boolean)) continue;
        client.close();
        closed += 1;
      }
      return closed;
    },

    authenticate(client, username, password, done) {
      const beganMs = performance.now();
      identifyClient(client, username, password).then(
        (identity) => {
          if (!identity) return done(refused(), false);
          if (!ownsClientId(identity, client.id)) {
            clientIdLog.warn(
              `client-id:${identity.kind === 'device' ? identity.device.tangramId : identity.principal.accountId}`,
              { kind: identity.kind, clientId: client.id.slice(0, 64) },
              'MQTT login refused: the client id belongs to another identity',
            );
            deps.onClientIdRejected?.();
            return done(identifierRejected(), false);
          }
          // Token logins' ids are kept apart per device (thingsboard-acl.ts); Aedes registers the id after this hook.
          if (identity.kind === 'device' && identity.via === 'token') client.id = thingsboardClientId(identity.device.tangramId, client.id);
          identities.set(client, identity);
          loginsBeganMs.set(client, beganMs);
          done(null, true);
        },
        (err: unknown) => {
          // One line per window, not one per device: during an outage every device retries.
          unavailableLog.warn(
            'unavailable',
            { err: (err as Error)?.message },
            'MQTT login not checked (database unavailable): answered server unavailable',
          );
          done(unavailable(), false);
        },
      );
    },

    authorizePublish(client, packet, done) {
      if (!client) return done(null);
      const identity = identities.get(client);
      if (identity?.kind === 'device' && identity.via === 'token') {
        // ThingsBoard's gateway API: only a device marked as a gateway may publish there (gateway-sessions.ts).
        if (isGatewayNamespace(packet.topic)) {
          const gatewayTopic = classifyGatewayTopic(packet.topic);
          if (!gatewayTopic || !identity.device.isGateway || !deps.gateways)
            return done(new Error(`publish to ${packet.topic} not allowed`));
          const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
          packet.topic = thingsboardHandledTopic(identity.device.tangramId);
          packet.retain = false;
          deps.gateways.handle(client, identity.device, gatewayTopic, payload, wayOf(client)).then(
            () => done(null),
            (err: Error) => done(err),
          );
          return;
        }
        const topic = classifyThingsboardTopic(packet.topic);
        if (!deps.pipeline || !topic || (topic.kind !== 'telemetry' && !deps.thingsboard)) {
          return done(new Error(`publish to ${packet.topic} not allowed`));
        }
        if (topic.kind !== 'telemetry') {
          // Every token device names itself `me`: once handled, the publish is filed where no one subscribes.
          const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
          packet.topic = thingsboardHandledTopic(identity.device.tangramId);
          packet.retain = false;
          deps.thingsboard?.handle(identity.device, topic, payload).then(
            () => done(null),
            (err: Error) => done(err),
          );
          return;
        }
        const svcRecvTs = Date.now();
        const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
        deps.pipeline.submit(identity.device, 'telemetry', thingsboardTelemetryToNative(payload, svcRecvTs), svcRecvTs, wayOf(client)).then(
          () => done(null),
          (err: Error) => done(err),
        );
        return;
      }
      if (identity?.kind !== 'device' || !canDevicePublish(identity.device.tangramId, packet.topic)) {
        return done(new Error(`publish to ${packet.topic} not allowed`));
      }
      const kind = classifyDeviceTopic(packet.topic)?.kind;
      const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
      // Calling done only after the write commits is what delays the QoS 1 PUBACK (Aedes writes it after this hook).
      if (kind === 'model_state' && deps.pipeline) {
        deps.reports.modelState(identity.device, payload).then(
          () => done(null),
          (err: Error) => done(err),
        );
        return;
      }
      if ((kind !== 'telemetry' && kind !== 'status') || !deps.pipeline) return done(null);
      deps.pipeline.submit(identity.device, kind, payload, Date.now(), wayOf(client)).then(
        () => done(null),
        (err: Error) => done(err),
      );
    },

    authorizeSubscribe(client, sub, done) {
      const identity = identities.get(client);
      if (identity?.kind === 'device') {
        // A token login subscribes to ThingsBoard's filters as written (shared attributes, answers, RPC requests).
        if (identity.via === 'token') {
          const asGateway = identity.device.isGateway === true && deps.gateways !== undefined && isGatewaySubscription(sub.topic);
          if (asGateway) deps.gateways?.attach(client, identity.device);
          return done(null, deps.thingsboard && (isThingsboardSubscription(sub.topic) || asGateway) ? sub : null);
        }
        return done(null, canDeviceSubscribe(identity.device.tangramId, sub.topic) ? sub : null);
      }
      const accountOf = liveAccountOf(sub.topic);
      if (accountOf !== null) return done(null, identity?.kind === 'browser' && accountOf === identity.principal.accountId ? sub : null);
      const platformId = livePlatformTelemetryId(sub.topic);
      if (platformId !== null) {
        if (!identity) return done(null, null);
        mayWatchPlatformTelemetry(deps.db, identity.principal, platformId).then(
          (ok) => done(null, ok ? sub : null),
          (err: unknown) => {
            deps.log.error({ err }, 'live subscription check failed');
            done(null, null);
          },
        );
        return;
      }
      const tangramId = identity ? liveTopicDevice(sub.topic) : null;
      if (!identity || !tangramId) return done(null, null);
      findVisibleDevice(deps.db, identity.principal, tangramId, 'view_telemetry').then(
        (device) => done(null, device ? sub : null),
        (err: unknown) => {
          deps.log.error({ err }, 'live subscription check failed');
          done(null, null);
        },
      );
    },
  };
}

/**
 * Whether `principal` may watch platform telemetry `id`: a vendor or admin granted the section, of its tenant (what
 * its API asks, modules/platform-telemetry/routes.ts).
 */
async function mayWatchPlatformTelemetry(db: Db, principal: TPrincipal, id: number): Promise<boolean> {
  if (principal.level === 'user' || !hasFeature(principal.fea, '12:1')) return false;
  const [row] = await db
    .select({ id: platformTelemetries.id })
    .from(platformTelemetries)
    .where(and(eq(platformTelemetries.id, id), eq(platformTelemetries.tenantId, principal.tenantId)));
  return row !== undefined;
}
