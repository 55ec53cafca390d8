/**
 * ThingsBoard's gateway API on this replica (docs/protocol.md "ThingsBoard gateway API", docs/decisions/device-apis.md
 * "Gateway"): what a gateway's connection publishes on `v1/gateway/…` for the devices behind it, and what the platform
 * sends those devices through it. Each gateway holds the devices it said are connected (by name → device, so a
 * telemetry message costs no database look-up once its devices are known) while one of its connections here is open;
 * a device the gateway names without connecting it first is connected by that message, as ThingsBoard does.
 *
 * Up: connect / disconnect (online state), telemetry (rewritten per device into the native message and handed to the
 * one ingest pipeline: the same validation, rate allowance per device, refusal counters and PUBACK after the commit as
 * the device API), client attributes, attribute requests (answered on `v1/gateway/attributes/response`) and RPC
 * answers (handed to the command waiting, as `v1/devices/me/rpc/response/{n}` is). Down ({@link deliver}, called by
 * thingsboard-downlink.ts for any device it would reach by token): shared attribute updates and RPC requests, wrapped
 * as `{"device": name, "data": …}`.
 */
import type { Client, PublishPacket } from 'aedes';
import type { Logger } from 'pino';
import { DEVICE_ONLINE_WINDOW_MS, GATEWAY_TOPICS } from '@tessera/contracts';
import { ThrottledLog } from '../../core/throttled-log.js';
import type { Db } from '../../db/client.js';
import { answerAttributeRequest } from '../attributes/attribute-store.js';
import type { TIngestDevice } from './directory.js';
import type { GatewayDirectory, TGatewayRefusal } from './gateway-directory.js';
import { deviceNameOf, namedEntries, parseAttributeRequest, parseJsonObject, type TGatewayTopic } from './gateway-topics.js';
import type { IngestPipeline, TIngestWay } from './pipeline.js';
import type { ThingsboardDownlink } from './thingsboard-downlink.js';
import { thingsboardJsonToNative } from './thingsboard-telemetry.js';
import { storeClientAttributes } from './thingsboard-uplink.js';
import { refuseClaim } from './claim-refusal.js';

/** A native message ingest's parser refuses as `malformed`: what a gateway's unreadable telemetry is counted as. */
const MALFORMED = Buffer.from('{}');
/** How often the devices connected behind this replica's gateways are marked as heard from, in ms. */
export const GATEWAY_KEEPALIVE_MS = DEVICE_ONLINE_WINDOW_MS / 2;

/** The device API's downlink filter → the gateway filter the same message reaches a gateway on. */
const GATEWAY_FILTER_OF: Readonly<Record<string, string>> = {
  'v1/devices/me/attributes': GATEWAY_TOPICS.attributes,
  'v1/devices/me/rpc/request/+': GATEWAY_TOPICS.rpc,
};

/** What the gateway sessions need. */
export interface TGatewayDeps {
  db: Db;
  log: Logger;
  pipeline: IngestPipeline;
  names: GatewayDirectory;
  /** Where RPC answers go (the device API's downlink, which knows the commands waiting). */
  downlink: () => ThingsboardDownlink;
}

/**
 * One gateway on this replica: its connections (those that published or subscribed on `v1/gateway/…`) and the devices
 * it holds connected, by the name it gave. The devices stay connected until the gateway disconnects them or its last
 * connection here closes, so a gateway may publish on one connection and listen on another (as `mosquitto_pub` and
 * `mosquitto_sub` do); what the platform sends them goes to each of its connections subscribed.
 */
interface TSession {
  gateway: TIngestDevice;
  clients: Set<Client>;
  children: Map<string, TIngestDevice>;
  /** When the gateway's own `last_seen_at` was last written from here (epoch ms; 0 before). */
  gatewaySeenAtMs: number;
}

/** The QoS `client` subscribed to `filter` with, or null when it did not. */
function subscribedQos(client: Client, filter: string): 0 | 1 | null {
  const sub = (client as unknown as { subscriptions?: Record<string, { qos?: number }> }).subscriptions?.[filter];
  if (!sub) return null;
  return (sub.qos ?? 0) >= 1 ? 1 : 0;
}

/** Publishes `payload` on `topic` to `client` when it subscribed to `topic`; answers whether it did. */
function publishTo(client: Client, topic: string, payload: string, log: Logger): boolean {
  const qos = subscribedQos(client, topic);
  if (qos === null) return false;
  const packet = { cmd: 'publish', topic, payload: Buffer.from(payload), qos, retain: false, dup: false } as PublishPacket;
  client.publish(packet, (err) => {
    if (err) log.debug({ err, topic }, 'gateway downlink message not delivered');
  });
  return true;
}

/** The gateway connections of this replica and the devices behind them. */
export class GatewaySessions {
  /** By the gateway's device id. */
  private readonly sessions = new Map<number, TSession>();
  private readonly byClient = new Map<Client, TSession>();
  /** Device Tangram ID → the sessions holding it, with the name each knows it by. */
  private readonly byChild = new Map<string, Map<TSession, string>>();
  private readonly refusedLog: ThrottledLog;
  private readonly keepalive: NodeJS.Timeout;

  constructor(private readonly deps: TGatewayDeps) {
    this.refusedLog = new ThrottledLog(deps.log);
    this.keepalive = setInterval(() => this.markStillConnected(), GATEWAY_KEEPALIVE_MS);
    this.keepalive.unref();
  }

  /**
   * Handles `payload` that gateway `gateway` published on `topic` through `client` (which came by `way`). Resolves once
   * it is done — telemetry committed, attributes stored, online state written — so the broker's PUBACK follows;
   * rejects when the database or ingest failed (the gateway resends).
   */
  async handle(client: Client, gateway: TIngestDevice, topic: TGatewayTopic, payload: Buffer, way: TIngestWay): Promise<void> {
    const session = this.attach(client, gateway);
    await this.heardFromGateway(session, Date.now());
    switch (topic.kind) {
      case 'telemetry':
        return this.telemetry(session, payload, way);
      case 'attributes':
        return this.attributes(session, payload);
      case 'claim':
        return refuseClaim(this.deps.db, this.refusedLog, gateway, GATEWAY_TOPICS.claim);
      case 'connect':
      case 'disconnect':
      case 'attribute_request':
      case 'rpc': {
        const parsed = parseJsonObject(payload);
        const name = parsed.ok ? deviceNameOf(parsed.value) : null;
        if (!parsed.ok || !name) return this.malformed(session, topic.kind, parsed.ok ? 'no device name' : parsed.reason);
        if (topic.kind === 'disconnect') return this.disconnect(session, name);
        const device = await this.child(session, name, Date.now());
        if (topic.kind === 'attribute_request') return this.attributeRequest(session, parsed.value, device);
        if (topic.kind === 'rpc' && device) {
          const answer = Buffer.from(JSON.stringify(parsed.value.data ?? null));
          const taken = await this.deps.downlink().rpcAnswered(device.tangramId, String(parsed.value.id), answer, false);
          if (!taken)
            this.deps.log.debug({ gateway: gateway.tangramId, id: parsed.value.id }, 'gateway RPC answer to no pending request ignored');
        }
        return;
      }
    }
  }

  /** Counts `client` among gateway `gateway`'s connections here (it publishes or subscribes on `v1/gateway/…`). */
  attach(client: Client, gateway: TIngestDevice): TSession {
    const known = this.byClient.get(client);
    if (known) return known;
    let session = this.sessions.get(gateway.id);
    if (!session) {
      session = { gateway, clients: new Set(), children: new Map(), gatewaySeenAtMs: 0 };
      this.sessions.set(gateway.id, session);
    }
    session.clients.add(client);
    this.byClient.set(client, session);
    return session;
  }

  /**
   * The gateway published: it is heard from (online) like any device, its `last_seen_at` written at most once per
   * keep-alive period (the keep-alive touches it in between while it stays connected).
   */
  private async heardFromGateway(session: TSession, nowMs: number): Promise<void> {
    if (nowMs - session.gatewaySeenAtMs < GATEWAY_KEEPALIVE_MS) return;
    session.gatewaySeenAtMs = nowMs;
    await this.deps.names.stillConnected([session.gateway.id], nowMs);
  }

  /**
   * The device `name` of the session, connected now if it was not: looked up (and created when the project allows)
   * and marked online. Null, counted on the gateway and logged, when the name is refused.
   */
  private async child(session: TSession, name: string, nowMs: number): Promise<TIngestDevice | null> {
    const held = session.children.get(name);
    if (held) return held;
    const [device] = await this.connectAll(session, [name], nowMs);
    return device ?? null;
  }

  /** Connects the devices `names` (not yet held) in one write; answers them in order, null for a refused name. */
  private async connectAll(session: TSession, names: string[], nowMs: number): Promise<(TIngestDevice | null)[]> {
    const found = await Promise.all(names.map((n) => this.deps.names.resolve(session.gateway, n)));
    const refused = new Map<TGatewayRefusal, number>();
    const fresh: TIngestDevice[] = [];
    const out = found.map((r, i) => {
      if (r.kind === 'refused') {
        refused.set(r.reason, (refused.get(r.reason) ?? 0) + 1);
        this.refusedLog.warn(
          `gateway:${session.gateway.tangramId}:${r.reason}`,
          { gateway: session.gateway.tangramId, device: names[i], reason: r.reason },
          'gateway message for a device refused',
        );
        return null;
      }
      if (!session.children.has(names[i] as string)) fresh.push(r.device);
      this.hold(session, names[i] as string, r.device);
      return r.device;
    });
    await this.deps.names.connected(
      session.gateway,
      fresh.map((d) => d.id),
      nowMs,
    );
    for (const [reason, count] of refused) await this.deps.names.countRefused(session.gateway, reason, count, nowMs);
    return out;
  }

  private hold(session: TSession, name: string, device: TIngestDevice): void {
    session.children.set(name, device);
    let holders = this.byChild.get(device.tangramId);
    if (!holders) {
      holders = new Map();
      this.byChild.set(device.tangramId, holders);
    }
    holders.set(session, name);
  }

  private release(session: TSession, name: string): TIngestDevice | null {
    const device = session.children.get(name);
    if (!device) return null;
    session.children.delete(name);
    const holders = this.byChild.get(device.tangramId);
    holders?.delete(session);
    if (holders?.size === 0) this.byChild.delete(device.tangramId);
    return device;
  }

  private async disconnect(session: TSession, name: string): Promise<void> {
    const device = this.release(session, name);
    if (device) await this.deps.names.left(session.gateway, [device.id], Date.now());
  }

  /** `{"Device A": [{"ts":…,"values":{…}}] | {…}, …}`: each device's part goes to ingest as its own message. */
  private async telemetry(session: TSession, payload: Buffer, way: TIngestWay): Promise<void> {
    const nowMs = Date.now();
    const parsed = namedEntries(payload);
    if (!parsed.ok) return this.malformed(session, 'telemetry', parsed.reason, way);
    const submits: Promise<void>[] = [];
    const unknown: [string, unknown][] = [];
    for (const entry of parsed.entries) {
      const device = session.children.get(entry[0]);
      if (!device) unknown.push(entry);
      else submits.push(this.deps.pipeline.submit(device, 'telemetry', thingsboardJsonToNative(entry[1], nowMs), nowMs, way));
    }
    if (unknown.length > 0) {
      const devices = await this.connectAll(
        session,
        unknown.map(([name]) => name),
        nowMs,
      );
      devices.forEach((device, i) => {
        const values = unknown[i]?.[1];
        if (device) submits.push(this.deps.pipeline.submit(device, 'telemetry', thingsboardJsonToNative(values, nowMs), nowMs, way));
      });
    }
    await Promise.all(submits);
  }

  /** `{"Device A": {"firmware":"1.4.2"}, …}`: each device's client attributes, stored before the PUBACK. */
  private async attributes(session: TSession, payload: Buffer): Promise<void> {
    const nowMs = Date.now();
    const parsed = namedEntries(payload);
    if (!parsed.ok) return this.malformed(session, 'attributes', parsed.reason);
    const devices = await Promise.all(parsed.entries.map(([name]) => this.child(session, name, nowMs)));
    await Promise.all(
      devices.map(async (device, i) => {
        if (!device) return;
        const stored = await storeClientAttributes(this.deps.db, device, Buffer.from(JSON.stringify(parsed.entries[i]?.[1])), nowMs);
        if (!stored.ok) {
          this.refusedLog.warn(
            `gateway-attributes:${device.tangramId}`,
            { gateway: session.gateway.tangramId, tangramId: device.tangramId, reason: stored.reason },
            'client attributes from a gateway refused',
          );
        }
      }),
    );
  }

  /** Answers an attribute request on `v1/gateway/attributes/response` to the connection that asked. */
  private async attributeRequest(session: TSession, json: Record<string, unknown>, device: TIngestDevice | null): Promise<void> {
    const parsed = parseAttributeRequest(json);
    let answer: Record<string, unknown>;
    if (!parsed.ok) answer = { id: json.id, device: json.device, error: `malformed: ${parsed.reason}` };
    else if (!device) answer = { id: json.id, device: json.device, error: 'unknown device' };
    else {
      const req = parsed.req;
      const head = { id: req.id, device: req.device };
      if (req.form === 'lists') answer = { ...head, ...(await answerAttributeRequest(this.deps.db, device.id, req.client, req.shared)) };
      else {
        const keys = req.form === 'key' ? [req.key] : req.keys;
        const scoped = await answerAttributeRequest(
          this.deps.db,
          device.id,
          req.scope === 'client' ? keys : undefined,
          req.scope === 'shared' ? keys : undefined,
        );
        const values = scoped[req.scope] ?? {};
        answer = req.form === 'key' ? { ...head, value: values[req.key] ?? null } : { ...head, values };
      }
    }
    for (const client of session.clients) publishTo(client, GATEWAY_TOPICS.attributeResponse, JSON.stringify(answer), this.deps.log);
  }

  /**
   * A message that is not what its topic takes: logged (throttled), acknowledged and dropped, as the device API drops
   * refused attributes. Unreadable telemetry is also counted on the gateway as ingest counts it (`malformed`).
   */
  private async malformed(session: TSession, kind: TGatewayTopic['kind'], reason: string, way?: TIngestWay): Promise<void> {
    this.refusedLog.warn(
      `gateway-malformed:${session.gateway.tangramId}:${kind}`,
      { gateway: session.gateway.tangramId, topic: kind, reason },
      'gateway message refused',
    );
    if (kind === 'telemetry') await this.deps.pipeline.submit(session.gateway, 'telemetry', MALFORMED, Date.now(), way);
  }

  /** True when a gateway here holds `tangramId` and subscribed to where the device API's `filter` sends it messages. */
  holds(tangramId: string, filter: string): boolean {
    const gatewayFilter = GATEWAY_FILTER_OF[filter];
    const holders = this.byChild.get(tangramId);
    if (!gatewayFilter || !holders) return false;
    for (const session of holders.keys())
      for (const client of session.clients) if (subscribedQos(client, gatewayFilter) !== null) return true;
    return false;
  }

  /**
   * Sends the gateways here holding `tangramId` what the device API would publish it on `topic` (under `filter`):
   * shared attributes as `{"device": name, "data": {…}}` on `v1/gateway/attributes`, an RPC request
   * `v1/devices/me/rpc/request/{n}` as `{"device": name, "data": {"id": n, "method", "params"}}` on `v1/gateway/rpc`.
   * Answers to how many connections it went.
   */
  deliver(tangramId: string, filter: string, topic: string, payload: string): number {
    const gatewayFilter = GATEWAY_FILTER_OF[filter];
    const holders = this.byChild.get(tangramId);
    if (!gatewayFilter || !holders) return 0;
    let data = JSON.parse(payload) as Record<string, unknown>;
    if (gatewayFilter === GATEWAY_TOPICS.rpc) {
      const n = topic.slice(topic.lastIndexOf('/') + 1);
      data = { id: /^\d+$/.test(n) ? Number(n) : n, ...data };
    }
    let sent = 0;
    for (const [session, name] of holders) {
      const message = JSON.stringify({ device: name, data });
      for (const client of session.clients) if (publishTo(client, gatewayFilter, message, this.deps.log)) sent += 1;
    }
    return sent;
  }

  /** Connection `client` closed: when it was its gateway's last here, the devices the gateway held are offline from now. */
  clientGone(client: Client): void {
    const session = this.byClient.get(client);
    if (!session) return;
    this.byClient.delete(client);
    session.clients.delete(client);
    if (session.clients.size > 0) return;
    this.sessions.delete(session.gateway.id);
    const ids = [...session.children.keys()].map((name) => this.release(session, name)?.id).filter((id): id is number => id !== undefined);
    this.deps.names.left(session.gateway, ids, Date.now()).catch((err: unknown) => {
      this.deps.log.warn({ err, gateway: session.gateway.tangramId }, 'devices behind a gateway not marked offline');
    });
  }

  /** Every gateway connected here and the devices it holds are still heard from (online). */
  private markStillConnected(): void {
    const ids = new Set([...this.sessions.values()].flatMap((s) => [s.gateway.id, ...[...s.children.values()].map((d) => d.id)]));
    this.deps.names.stillConnected([...ids], Date.now()).catch((err: unknown) => {
      this.deps.log.warn({ err }, 'devices behind gateways not kept online');
    });
  }

  /** Stops the keep-alive and marks every device held here offline (the server stops). */
  async close(): Promise<void> {
    clearInterval(this.keepalive);
    const nowMs = Date.now();
    const all = [...this.sessions.values()];
    this.sessions.clear();
    this.byClient.clear();
    this.byChild.clear();
    await Promise.all(
      all.map((s) =>
        this.deps.names
          .left(
            s.gateway,
            [...s.children.values()].map((d) => d.id),
            nowMs,
          )
          .catch(() => undefined),
      ),
    );
  }
}
