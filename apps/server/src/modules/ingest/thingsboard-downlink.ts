/**
 * What the platform sends a device logged in with its access token (docs/protocol.md "ThingsBoard device API",
 * docs/decisions/device-apis.md "RPC", "Shared attributes reach the device"): shared attribute updates on
 * `v1/devices/me/attributes` (MQTT) or as the answer of a long poll `GET /api/v1/{token}/attributes/updates` (HTTP),
 * and remote-control commands as RPC requests on `v1/devices/me/rpc/request/{n}` (MQTT) or as the answer of a long
 * poll `GET /api/v1/{token}/rpc` (HTTP); and the device's RPC answers, handed back to the
 * command that waits for them as the native reply on `devices/{id}/commands/{reqId}/reply`.
 *
 * A device may be connected to another replica than the one that changes an attribute or sends a command: every
 * replica LISTENs on one PostgreSQL channel (as device revocation does, device-revocation.ts) and delivers what
 * names a device it holds; an RPC answer that arrives where nobody waits for it is relayed back the same way.
 * Notifications are small (≤ 8000 bytes): an attribute change says only since when to read the device's shared
 * attributes; an RPC answer is bounded by RPC_RESPONSE_MAX_BYTES.
 *
 * A notification sent while this replica's listening connection was lost does not reach it: when it listens again
 * it pushes once, to the devices it holds, the shared attributes written since a little before the loss was found
 * (a value may come twice; a deletion made meanwhile is not told); one that died silently is found by the listener's
 * probe. An RPC sent meanwhile times out (504).
 */
import { randomUUID } from 'node:crypto';
import type { Client, PublishPacket } from 'aedes';
import type { Logger } from 'pino';
import { and, eq, isNotNull, or, sql } from 'drizzle-orm';
import { RPC_RESPONSE_MAX_BYTES, type TAttributeMap, topics } from '@tessera/contracts';
import { LISTEN_DEADLINE_MS, LISTENER_PROBE_MS, startDatabaseListener, type TDatabaseListener } from '../../core/database-listener.js';
import type { Database, Db } from '../../db/client.js';
import { deviceAccessTokens, devices } from '../../db/schema.js';
import { attributeObject, devicesWithSharedWritesSince, readAttributes } from '../attributes/attribute-store.js';
import { DeviceLongPolls } from './device-long-polls.js';
import { ReplicaQueries } from './replica-queries.js';

/** The NOTIFY channel between replicas; the payload is one {@link TDownlinkNote} as JSON. */
export const DEVICE_DOWNLINK_CHANNEL = 'tessera_device_downlink';
/** What a token device subscribes to for shared attribute updates, attribute answers and RPC requests. */
export const TB_ATTRIBUTES_TOPIC = 'v1/devices/me/attributes';
export const TB_ATTRIBUTE_RESPONSE_FILTER = 'v1/devices/me/attributes/response/+';
export const TB_RPC_REQUEST_FILTER = 'v1/devices/me/rpc/request/+';
export const TB_RPC_RESPONSE_FILTER = 'v1/devices/me/rpc/response/+';
/** How long a replica waits for another to say it holds a device, in milliseconds. */
export const ELSEWHERE_WAIT_MS = 500;
/** How long an RPC request id is remembered for its answer (above COMMAND_TIMEOUT_MS's largest value), in ms. */
const RPC_ID_TTL_MS = 130_000;
/**
 * How far before the listening connection was found lost the catch-up reads shared attributes, in milliseconds: a
 * connection that died silently is found up to a probe interval and a probe's deadline later, and replicas' clocks
 * differ by a little.
 */
export const SHARED_ATTRIBUTES_CATCH_UP_MARGIN_MS = LISTENER_PROBE_MS + LISTEN_DEADLINE_MS + 5_000;
/** A catch-up the database failed is tried again after CATCH_UP_RETRY_MS, CATCH_UP_ATTEMPTS times in all. */
const [CATCH_UP_RETRY_MS, CATCH_UP_ATTEMPTS] = [5_000, 3];
/** PostgreSQL refuses a notification payload of 8000 bytes or more. */
const NOTIFY_MAX_BYTES = 7_900;

/** A message between replicas: `r` is the sender's replica id (a replica ignores its own). */
type TDownlinkNote =
  /** A command for device `t`: deliver it as RPC if you hold the device. */
  | { k: 'rpc'; r: string; t: string; id: string; m: string; p: unknown }
  /** Device `t` answered request `id`: publish the native reply `b` (base64) if you wait for it. */
  | { k: 'reply'; r: string; t: string; id: string; b: string }
  /** Device `t` answered RPC `n` here, but another replica sent it (HTTP behind a load balancer): take it, say `here`. */
  | { k: 'answer'; r: string; t: string; n: string; b: string; q: string }
  /** Device `t`'s shared attributes changed at `s` (epoch ms) and `d` were deleted: tell it if you hold it. */
  | { k: 'attrs'; r: string; t: string; i: number; s: number; d: string[] }
  /** Who holds device `t` listening for RPC? Answer `here` or `nothere` with query `q`. */
  | { k: 'where'; r: string; t: string; q: string }
  | { k: 'here'; r: string; q: string }
  /** Not this replica (to `where` and `answer`): the asker stops waiting once every other replica said so. */
  | { k: 'nothere'; r: string; q: string };

/** An RPC request as a device receives it (the HTTP long poll's answer; on MQTT without `id`, which is in the topic). */
export interface TRpcRequest {
  id: number;
  method: string;
  params: unknown;
}

/** What the downlink needs of the replica. */
export interface TDownlinkDeps {
  database: Database;
  db: Db;
  log: Logger;
  /** The connections of device `tangramId` on this replica logged in with its access token. */
  tokenClients(tangramId: string): Client[];
  /** Publishes as the server on this replica's broker (no client: no ACL). */
  publishLocal(topic: string, payload: Buffer): Promise<void>;
  /** Whether a subscription of this replica's broker matches `topic`. */
  isWatchedLocally(topic: string): boolean;
  /** Whether device `tangramId` is connected here natively and subscribed to its commands. */
  listensNatively(tangramId: string): boolean;
  /** Gateways on this replica holding devices (gateway-sessions.ts): reached as the device API would reach them. */
  gateways?: {
    holds(tangramId: string, filter: string): boolean;
    deliver(tangramId: string, filter: string, topic: string, payload: string): number;
  };
}

/** The native reply (`{ ok, result | error }`, docs/protocol.md "Commands") an RPC answer of a device stands for. */
export function rpcAnswerToNativeReply(payload: Buffer): Buffer {
  if (payload.length > RPC_RESPONSE_MAX_BYTES) {
    return Buffer.from(JSON.stringify({ ok: false, error: `the answer is larger than ${RPC_RESPONSE_MAX_BYTES} bytes` }));
  }
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return Buffer.from(JSON.stringify({ ok: false, error: 'the answer is not JSON' }));
  }
  const isError =
    typeof json === 'object' &&
    json !== null &&
    !Array.isArray(json) &&
    Object.keys(json).length === 1 &&
    typeof (json as { error?: unknown }).error === 'string';
  return Buffer.from(JSON.stringify(isError ? { ok: false, error: (json as { error: string }).error } : { ok: true, result: json }));
}

/**
 * A shared attribute change as a device's attribute long poll receives it: the attributes written, and `deleted`
 * (the keys deleted) when some were — ThingsBoard's attribute update notification.
 */
export type TSharedAttributeUpdate = TAttributeMap & { deleted?: string[] };

/** Parses `devices/{tangramId}/commands/{reqId}` (a command, not its reply), or null. */
function commandTopicParts(topic: string): { tangramId: string; reqId: string } | null {
  const parts = topic.split('/');
  if (parts.length !== 4 || parts[0] !== 'devices' || parts[2] !== 'commands') return null;
  return { tangramId: parts[1] ?? '', reqId: parts[3] ?? '' };
}

/** Shared attributes and RPC towards token devices, on this replica and through the others. */
export class ThingsboardDownlink {
  private readonly replica = randomUUID();
  private readonly listener: TDatabaseListener;
  private readonly rpcPolls = new DeviceLongPolls<TRpcRequest>();
  private readonly attributePolls = new DeviceLongPolls<TSharedAttributeUpdate>();
  /** `{tangramId}:{n}` → the command's request id, while its answer may come. */
  private readonly rpcIds = new Map<string, { reqId: string; timer: NodeJS.Timeout }>();
  private readonly questions: ReplicaQueries;
  private nextRpcId = 1;

  constructor(private readonly deps: TDownlinkDeps) {
    this.questions = new ReplicaQueries(deps.database, DEVICE_DOWNLINK_CHANNEL);
    this.listener = startDatabaseListener({
      database: deps.database,
      channel: DEVICE_DOWNLINK_CHANNEL,
      log: deps.log,
      onNotify: (payload) => this.onNote(payload),
      onListening: ({ lostAtMs }) => {
        if (lostAtMs === null) return;
        void this.catchUpSharedAttributes(lostAtMs - SHARED_ATTRIBUTES_CATCH_UP_MARGIN_MS);
      },
    });
  }

  /** Pushes the shared attributes written at or after `sinceMs` (epoch ms) as the notes missed meanwhile would have. */
  private async catchUpSharedAttributes(sinceMs: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        for (const { id, tangramId } of await devicesWithSharedWritesSince(this.deps.db, sinceMs)) {
          await this.pushShared(tangramId, id, sinceMs, []);
        }
        return;
      } catch (err) {
        const again = attempt < CATCH_UP_ATTEMPTS;
        this.deps.log.warn({ err, attempt, again }, 'ThingsBoard downlink: shared attributes written while not listening not pushed');
        if (!again) return;
        await new Promise((r) => setTimeout(r, CATCH_UP_RETRY_MS).unref());
      }
    }
  }

  /** Waits until this replica listens for the others (tests; a replica that is not yet listening misses notes). */
  ready(deadlineMs: number): Promise<boolean> {
    return this.listener.ready(deadlineMs);
  }

  /** Token connections of `tangramId` here holding a subscription to `filter`, with its QoS. */
  private subscribers(tangramId: string, filter: string): { client: Client; qos: 0 | 1 }[] {
    const out: { client: Client; qos: 0 | 1 }[] = [];
    for (const client of this.deps.tokenClients(tangramId)) {
      const sub = (client as unknown as { subscriptions?: Record<string, { qos?: number }> }).subscriptions?.[filter];
      if (sub) out.push({ client, qos: (sub.qos ?? 0) >= 1 ? 1 : 0 });
    }
    return out;
  }

  /**
   * Publishes `payload` on `topic` to each token connection of `tangramId` subscribed to `filter`, and through the
   * gateways here holding it; answers to how many connections.
   */
  deliver(tangramId: string, filter: string, topic: string, payload: string): number {
    const targets = this.subscribers(tangramId, filter);
    for (const { client, qos } of targets) {
      const packet = { cmd: 'publish', topic, payload: Buffer.from(payload), qos, retain: false, dup: false } as PublishPacket;
      client.publish(packet, (err) => {
        if (err) this.deps.log.debug({ err, topic }, 'ThingsBoard downlink message not delivered');
      });
    }
    return targets.length + (this.deps.gateways?.deliver(tangramId, filter, topic, payload) ?? 0);
  }

  /** Whether `tangramId` is reached here on `filter`: a token connection of it subscribed, or a gateway holding it. */
  private hasSubscriber(tangramId: string, filter: string): boolean {
    return this.subscribers(tangramId, filter).length > 0 || this.deps.gateways?.holds(tangramId, filter) === true;
  }

  /** True when `tangramId` is connected here by token and subscribed to RPC, or long-polls for it here. */
  isListening(tangramId: string): boolean {
    return this.rpcPolls.has(tangramId) || this.hasSubscriber(tangramId, TB_RPC_REQUEST_FILTER);
  }

  /**
   * Whether another replica holds `tangramId` listening for RPC: asks them all and waits for the first to say so, or
   * for all to say not, at most ELSEWHERE_WAIT_MS. Only devices with an access token are asked about (others never
   * log in by token); with no other replica listening, nobody is asked.
   */
  async isListeningElsewhere(tangramId: string): Promise<boolean> {
    if (!(await this.hasAccessToken(tangramId))) return false;
    return this.askOthers((q) => ({ k: 'where', r: this.replica, t: tangramId, q }));
  }

  /** Sends the note `make(q)` to the other replicas and answers whether one said `here` to query `q` (ReplicaQueries.ask). */
  private async askOthers(make: (q: string) => TDownlinkNote): Promise<boolean> {
    const others = await this.questions.otherListeners(await this.listener.ready(0));
    return this.questions.ask((q) => this.notify(make(q)), others, ELSEWHERE_WAIT_MS);
  }

  private async hasAccessToken(tangramId: string): Promise<boolean> {
    const rows = await this.deps.db
      .select({ id: devices.id })
      .from(devices)
      .leftJoin(deviceAccessTokens, eq(devices.id, deviceAccessTokens.deviceId))
      // A device behind a gateway is reached through its gateway's token login.
      .where(and(eq(devices.tangramId, tangramId), or(isNotNull(deviceAccessTokens.deviceId), isNotNull(devices.gatewayId))))
      .limit(1);
    return rows.length > 0;
  }

  /**
   * A command was published on this replica's broker (`devices/{id}/commands/{reqId}`, payload `{ name, params }`):
   * deliver it as RPC to the device's token connections and long polls here, else ask the other replicas to.
   */
  onCommandPublished(topic: string, payload: Buffer): void {
    const parts = commandTopicParts(topic);
    if (!parts) return;
    let command: { name?: unknown; params?: unknown };
    try {
      command = JSON.parse(payload.toString('utf8')) as typeof command;
    } catch {
      return;
    }
    if (typeof command.name !== 'string') return;
    if (this.deliverRpc(parts.tangramId, parts.reqId, command.name, command.params ?? {})) return;
    // A native device listening here took it; otherwise a token device may be on another replica.
    if (this.deps.listensNatively(parts.tangramId)) return;
    void this.notify({ k: 'rpc', r: this.replica, t: parts.tangramId, id: parts.reqId, m: command.name, p: command.params ?? {} });
  }

  /** Delivers a command to `tangramId`'s token connections or one long poll here; answers whether any took it. */
  private deliverRpc(tangramId: string, reqId: string, method: string, params: unknown): boolean {
    const hasMqtt = this.hasSubscriber(tangramId, TB_RPC_REQUEST_FILTER);
    if (!hasMqtt && !this.rpcPolls.has(tangramId)) return false;
    const id = this.nextRpcId++;
    const key = `${tangramId}:${id}`;
    const timer = setTimeout(() => this.rpcIds.delete(key), RPC_ID_TTL_MS);
    timer.unref();
    this.rpcIds.set(key, { reqId, timer });
    if (hasMqtt) this.deliver(tangramId, TB_RPC_REQUEST_FILTER, `v1/devices/me/rpc/request/${id}`, JSON.stringify({ method, params }));
    else this.rpcPolls.answerOne(tangramId, { id, method, params });
    return true;
  }

  /**
   * Device `tangramId` answered RPC request `rpcId` (MQTT `v1/devices/me/rpc/response/{n}`, HTTP `POST
   * /api/v1/{token}/rpc/{n}`): the answer goes to the command waiting for it, here or on another replica. With
   * `relay`, an id this replica did not send is offered to the others (an HTTP device's poll and answer may reach
   * different replicas; MQTT answers come where the request went). Answers false for an id no replica sent the
   * device (unknown, answered already, or expired).
   */
  async rpcAnswered(tangramId: string, rpcId: string, payload: Buffer, relay = true): Promise<boolean> {
    const native = rpcAnswerToNativeReply(payload);
    if (await this.takeAnswer(tangramId, rpcId, native)) return true;
    if (!relay) return false;
    // Over HTTP the poll and the answer may reach different replicas: the one that sent request `rpcId` takes it.
    return this.askOthers((q) => ({ k: 'answer', r: this.replica, t: tangramId, n: rpcId, b: native.toString('base64'), q }));
  }

  /** Hands `native` to the command this replica sent `tangramId` as RPC `rpcId`; false when it sent no such request. */
  private async takeAnswer(tangramId: string, rpcId: string, native: Buffer): Promise<boolean> {
    const key = `${tangramId}:${rpcId}`;
    const sent = this.rpcIds.get(key);
    if (!sent) return false;
    clearTimeout(sent.timer);
    this.rpcIds.delete(key);
    const topic = topics.commandReply(tangramId, sent.reqId);
    if (this.deps.isWatchedLocally(topic)) await this.deps.publishLocal(topic, native);
    else await this.notify({ k: 'reply', r: this.replica, t: tangramId, id: sent.reqId, b: native.toString('base64') });
    return true;
  }

  /** Waits up to `timeoutMs` for a command to `tangramId` (HTTP long poll); null when none came or `signal` aborted. */
  poll(tangramId: string, timeoutMs: number, signal?: AbortSignal): Promise<TRpcRequest | null> {
    return this.rpcPolls.wait(tangramId, timeoutMs, signal);
  }

  /**
   * Waits up to `timeoutMs` for a change of `tangramId`'s shared attributes (HTTP long poll), made on any replica;
   * null when none came or `signal` aborted.
   */
  pollSharedAttributes(tangramId: string, timeoutMs: number, signal?: AbortSignal): Promise<TSharedAttributeUpdate | null> {
    return this.attributePolls.wait(tangramId, timeoutMs, signal);
  }

  /**
   * Tells device `tangramId` (id `deviceId`) — on whichever replica it is connected — that its shared attributes
   * written at or after `sinceMs` changed, and that `deleted` were deleted. Call after the change committed.
   */
  async sharedAttributesChanged(tangramId: string, deviceId: number, sinceMs: number, deleted: string[]): Promise<void> {
    await this.pushShared(tangramId, deviceId, sinceMs, deleted);
    await this.notify({ k: 'attrs', r: this.replica, t: tangramId, i: deviceId, s: sinceMs, d: deleted });
  }

  /** Sends the change to this replica's token connections of `tangramId` subscribed to attributes and its long polls. */
  private async pushShared(tangramId: string, deviceId: number, sinceMs: number, deleted: string[]): Promise<void> {
    const subscribed = this.hasSubscriber(tangramId, TB_ATTRIBUTES_TOPIC);
    if (!subscribed && !this.attributePolls.has(tangramId)) return;
    if (subscribed && deleted.length > 0) this.deliver(tangramId, TB_ATTRIBUTES_TOPIC, TB_ATTRIBUTES_TOPIC, JSON.stringify({ deleted }));
    const changed: TAttributeMap = attributeObject(await readAttributes(this.deps.db, deviceId, 'shared', undefined, sinceMs));
    const written = Object.keys(changed).length > 0;
    if (subscribed && written) this.deliver(tangramId, TB_ATTRIBUTES_TOPIC, TB_ATTRIBUTES_TOPIC, JSON.stringify(changed));
    if (written || deleted.length > 0) this.attributePolls.answerAll(tangramId, deleted.length > 0 ? { ...changed, deleted } : changed);
  }

  private async notify(note: TDownlinkNote): Promise<void> {
    const text = JSON.stringify(note);
    if (Buffer.byteLength(text) > NOTIFY_MAX_BYTES) {
      this.deps.log.warn({ kind: note.k }, 'ThingsBoard downlink: too large to reach other replicas');
      return;
    }
    await this.deps.db.execute(sql`select pg_notify(${DEVICE_DOWNLINK_CHANNEL}, ${text})`).catch((err: unknown) => {
      this.deps.log.warn({ err, kind: note.k }, 'ThingsBoard downlink: other replicas not notified');
    });
  }

  private onNote(payload: string): void {
    let note: TDownlinkNote;
    try {
      note = JSON.parse(payload) as TDownlinkNote;
    } catch {
      return;
    }
    if (note.r === this.replica) return;
    switch (note.k) {
      case 'rpc':
        this.deliverRpc(note.t, note.id, note.m, note.p);
        return;
      case 'reply': {
        const topic = topics.commandReply(note.t, note.id);
        if (this.deps.isWatchedLocally(topic)) void this.deps.publishLocal(topic, Buffer.from(note.b, 'base64')).catch(() => undefined);
        return;
      }
      case 'attrs':
        this.pushShared(note.t, note.i, note.s, note.d).catch((err: unknown) =>
          this.deps.log.warn({ err, tangramId: note.t }, 'shared attributes not pushed to the device'),
        );
        return;
      case 'answer':
        this.takeAnswer(note.t, note.n, Buffer.from(note.b, 'base64')).then(
          (taken) => {
            void this.notify({ k: taken ? 'here' : 'nothere', r: this.replica, q: note.q });
          },
          (err: unknown) => this.deps.log.warn({ err, tangramId: note.t }, 'RPC answer not handed on'),
        );
        return;
      case 'where':
        void this.notify({ k: this.isListening(note.t) ? 'here' : 'nothere', r: this.replica, q: note.q });
        return;
      case 'here':
      case 'nothere':
        this.questions.answered(note.q, note.k === 'here');
        return;
    }
  }

  /** Ends the long polls and stops listening. */
  async close(): Promise<void> {
    this.rpcPolls.endAll();
    this.attributePolls.endAll();
    for (const { timer } of this.rpcIds.values()) clearTimeout(timer);
    this.rpcIds.clear();
    this.questions.close();
    await this.listener.close();
  }
}
