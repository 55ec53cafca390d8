/**
 * The console's live channel (spec §3 "Live messages", §7 "MQTT over websocket, keepalive 30 s"): one MQTT
 * connection per access token to `/mqtt` (username `jwt`, password = token), shared by every page; topics
 * `live/devices/{tangramId}` are ref-counted so two pages watching one device make one subscription.
 * A token refresh reconnects with the new token and resubscribes. Pages use {@link useLiveDevice}, and
 * {@link useLiveAlerts} for the account's own `live/accounts/{accountId}/alerts` (docs/decisions/alerts.md).
 */
import {
  browserClientId,
  MQTT_KEEPALIVE_S,
  paths,
  type TLiveAccessMessage,
  type TLiveAlertMessage,
  type TLiveMessage,
  type TLivePlatformTelemetry,
  topics,
} from '@tessera/contracts';
import { parseMini, VLiveAccessMessage, VLiveAlertMessage, VLiveMessage, VLivePlatformTelemetry } from '@tessera/contracts/mini';
import Paho from 'paho-mqtt';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { http } from './http';
import { decodeToken, getSession, subscribeSession } from './session';

/** Connection state shown to the user: no watcher, connecting, connected, or lost and retrying. */
export type TLiveState = 'idle' | 'connecting' | 'connected' | 'reconnecting';

/** A live message listener. */
export type TLiveListener = (message: TLiveMessage) => void;

/** Delay before an unwatched connection is closed (ms): switching tabs should not reconnect. */
const IDLE_CLOSE_MS = 10_000;
/** A topic that lost its last listener is unsubscribed this long after (ms), so a remount does not churn it. */
const UNSUBSCRIBE_GRACE_MS = 2_000;
/** Delay between reconnect attempts (ms). */
const RECONNECT_MS = 3_000;
/** A connection attempt that has no CONNACK within this time fails and is tried again (s). */
const CONNECT_TIMEOUT_S = 30;

/** The WebSocket URL of the live channel on the page's own host: wss on https, ws otherwise. */
export function liveUrl(loc: Pick<Location, 'protocol' | 'host'>): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/mqtt`;
}

/** Decodes and parses a live payload with one of the contracts' small live schemas (@tessera/contracts/mini). */
function parseWith<T>(schema: Parameters<typeof parseMini<T>>[0], payload: string | Uint8Array): T | null {
  try {
    const text = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
    return parseMini(schema, JSON.parse(text));
  } catch {
    return null;
  }
}

/** Parses a live payload; null when it is not JSON or not a ZLiveMessage (a bad message is dropped, not thrown). */
export function parseLiveMessage(payload: string | Uint8Array): TLiveMessage | null {
  return parseWith(VLiveMessage, payload);
}

/** Parses a live alert payload (ZLiveAlertMessage); null when malformed. */
export function parseLiveAlertMessage(payload: string | Uint8Array): TLiveAlertMessage | null {
  return parseWith(VLiveAlertMessage, payload);
}

/** What the hub hands to a topic's listeners: the raw payload, parsed by the subscriber. */
type TPayloadListener = (payload: Uint8Array) => void;

/** Listener sets per topic; `add`/`remove` tell when a topic gains its first or loses its last listener. */
export class TopicListeners<L> {
  private readonly byTopic = new Map<string, Set<L>>();

  /** Adds a listener; true when it is the topic's first (the caller subscribes). */
  add(topic: string, listener: L): boolean {
    const set = this.byTopic.get(topic) ?? new Set<L>();
    set.add(listener);
    this.byTopic.set(topic, set);
    return set.size === 1;
  }

  /** Removes a listener; true when the topic has none left (the caller unsubscribes). */
  remove(topic: string, listener: L): boolean {
    const set = this.byTopic.get(topic);
    if (!set?.delete(listener)) return false;
    if (set.size > 0) return false;
    this.byTopic.delete(topic);
    return true;
  }

  /** The listeners of a topic (a copy, so a listener may unsubscribe while being called). */
  of(topic: string): L[] {
    return [...(this.byTopic.get(topic) ?? [])];
  }

  /** Topics with at least one listener. */
  topics(): string[] {
    return [...this.byTopic.keys()];
  }
}

/**
 * The live connection, over Eclipse Paho's MQTT-over-WebSocket client (MQTT 3.1.1, a few KB where MQTT.js with its
 * Node stream and Buffer shims weighs ~85 KB br on every logged-in page; docs/web-bundle.md). Paho's own reconnect
 * backs off up to 128 s and keeps the first password, so the hub reconnects itself: every RECONNECT_MS, with the
 * newest token.
 */
class LiveHub {
  private client: Paho.Client | null = null;
  private token: string | null = null;
  private clientId = '';
  private closeTimer: ReturnType<typeof setTimeout> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new TopicListeners<TPayloadListener>();
  /** Topics that lost their last listener, unsubscribed after UNSUBSCRIBE_GRACE_MS unless a listener comes back. */
  private readonly leaving = new Map<string, ReturnType<typeof setTimeout>>();
  /** Topics subscribed on the current connection (a SUBSCRIBE sent, no UNSUBSCRIBE since). */
  private readonly subscribed = new Set<string>();
  private readonly stateListeners = new Set<() => void>();
  state: TLiveState = 'idle';

  constructor() {
    subscribeSession(() => {
      const watching = this.client !== null || this.listeners.topics().length > 0;
      if (watching && getSession().token !== this.token) this.reconnect();
    });
  }

  subscribe(topic: string, listener: TPayloadListener): () => void {
    clearTimeout(this.closeTimer);
    this.listeners.add(topic, listener);
    clearTimeout(this.leaving.get(topic));
    this.leaving.delete(topic);
    // A new connection subscribes every watched topic on `connect`; a live one only needs a topic it has not
    // subscribed yet (a component that remounts keeps the subscription instead of racing an UNSUBSCRIBE with a
    // SUBSCRIBE).
    if (!this.client) this.reconnect();
    else if (this.client.isConnected() && !this.subscribed.has(topic)) {
      this.subscribed.add(topic);
      this.client.subscribe(topic, { qos: 0 });
    }
    return () => {
      if (this.listeners.remove(topic, listener)) {
        this.leaving.set(
          topic,
          setTimeout(() => {
            this.leaving.delete(topic);
            if (this.listeners.of(topic).length > 0 || !this.subscribed.has(topic)) return;
            this.subscribed.delete(topic);
            if (this.client?.isConnected()) this.client.unsubscribe(topic);
          }, UNSUBSCRIBE_GRACE_MS),
        );
      }
      if (this.listeners.topics().length === 0) {
        clearTimeout(this.closeTimer);
        this.closeTimer = setTimeout(() => this.close(), IDLE_CLOSE_MS);
      }
    };
  }

  onState(listener: () => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  private setState(state: TLiveState): void {
    this.state = state;
    for (const l of this.stateListeners) l();
  }

  /** Ends the current connection (or attempt) without calling back into the hub. */
  private end(): void {
    clearTimeout(this.retryTimer);
    for (const timer of this.leaving.values()) clearTimeout(timer);
    this.leaving.clear();
    this.subscribed.clear();
    const client = this.client;
    this.client = null;
    if (!client) return;
    client.onConnectionLost = () => undefined;
    client.onMessageArrived = () => undefined;
    try {
      client.disconnect();
    } catch {
      // Not connected (yet): nothing to end.
    }
  }

  private close(): void {
    this.end();
    this.setState('idle');
  }

  /** (Re)connects with the current token and subscribes to every watched topic; no token → stays closed. */
  private reconnect(): void {
    // A new connection subscribes only the topics that have listeners.
    this.end();
    this.token = getSession().token;
    if (!this.token || typeof location === 'undefined') {
      this.setState('idle');
      return;
    }
    // The broker binds client ids to who logs in: a browser's start with web-{accountId}- (docs/protocol.md).
    this.clientId = browserClientId(Number(decodeToken(this.token).accountId), Math.random().toString(16).slice(2, 10));
    this.setState('connecting');
    this.attempt();
  }

  /** One connection attempt with the newest token; a failed or lost connection is tried again after RECONNECT_MS. */
  private attempt(): void {
    const client = new Paho.Client(liveUrl(location), this.clientId);
    this.client = client;
    const retry = () => {
      if (this.client !== client) return;
      this.subscribed.clear();
      this.setState('reconnecting');
      this.retryTimer = setTimeout(() => {
        if (this.client !== client) return;
        // The broker refuses an expired token; any API call makes the HTTP client refresh it (spec §8), and the
        // session change then reconnects with the new one.
        const exp = getSession().exp;
        if (exp !== null && exp * 1000 <= Date.now()) void http.get(paths.profile).catch(() => undefined);
        this.token = getSession().token;
        if (!this.token) return this.close();
        this.attempt();
      }, RECONNECT_MS);
    };
    client.onConnectionLost = retry;
    client.onMessageArrived = (message) => {
      const payload = message.payloadBytes;
      const bytes =
        payload instanceof ArrayBuffer ? new Uint8Array(payload) : new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
      for (const l of this.listeners.of(message.destinationName)) l(bytes);
    };
    client.connect({
      userName: 'jwt',
      password: this.token ?? '',
      keepAliveInterval: MQTT_KEEPALIVE_S,
      cleanSession: true,
      timeout: CONNECT_TIMEOUT_S,
      mqttVersion: 4,
      // MQTT 3.1.1 only: Paho would otherwise try 3.1 after a refused login.
      mqttVersionExplicit: true,
      onSuccess: () => {
        if (this.client !== client) return;
        // Every (re)connection is a clean session: subscribe every watched topic again.
        const watched = this.listeners.topics();
        this.subscribed.clear();
        for (const topic of watched) this.subscribed.add(topic);
        for (const topic of watched) client.subscribe(topic, { qos: 0 });
        this.setState('connected');
      },
      onFailure: retry,
    });
  }
}

let hub: LiveHub | null = null;
const getHub = (): LiveHub => (hub ??= new LiveHub());

/**
 * Calls `onMessage` with every live message of a device while the component is mounted (no subscription while
 * `tangramId` is undefined). The latest `onMessage` is used without resubscribing.
 */
export function useLiveDevice(tangramId: string | undefined, onMessage: TLiveListener): void {
  const ref = useRef(onMessage);
  useEffect(() => {
    ref.current = onMessage;
  });
  useEffect(() => {
    if (!tangramId) return;
    return getHub().subscribe(topics.live(tangramId), (payload) => {
      const message = parseLiveMessage(payload);
      if (message) ref.current(message);
    });
  }, [tangramId]);
}

/**
 * Calls `onMessage` with every message of the logged-in account's topic `topicOf(accountId)` (the token's `sub`: the
 * broker lets a login subscribe only to its own account's topics) that `parse` accepts, while the component is
 * mounted. Re-subscribes when the account changes (admin switch); the latest `onMessage` is used without resubscribing.
 */
function useAccountTopic<T>(
  topicOf: (accountId: number) => string,
  parse: (payload: string | Uint8Array) => T | null,
  onMessage: (message: T) => void,
): void {
  const ref = useRef(onMessage);
  useEffect(() => {
    ref.current = onMessage;
  });
  const token = useSyncExternalStore(subscribeSession, () => getSession().token);
  const accountId = token ? Number(decodeToken(token).accountId) : Number.NaN;
  useEffect(() => {
    if (!Number.isInteger(accountId) || accountId <= 0) return;
    return getHub().subscribe(topicOf(accountId), (payload) => {
      const message = parse(payload);
      if (message) ref.current(message);
    });
  }, [accountId, topicOf, parse]);
}

/** Calls `onMessage` with every alert published to the logged-in account (`topics.liveAlerts`). */
export function useLiveAlerts(onMessage: (message: TLiveAlertMessage) => void): void {
  useAccountTopic(topics.liveAlerts, parseLiveAlertMessage, onMessage);
}

const parseLiveAccess = (payload: string | Uint8Array) => parseWith(VLiveAccessMessage, payload);

/**
 * Calls `onMessage` when what the logged-in account may see changed (`topics.liveAccess`: an authorisation allowed or
 * revoked; docs/decisions/authorisation.md).
 */
export function useLiveAccess(onMessage: (message: TLiveAccessMessage) => void): void {
  useAccountTopic(topics.liveAccess, parseLiveAccess, onMessage);
}

/**
 * Calls `onMessage` with each new latest value of platform telemetry `id` (`topics.livePlatformTelemetry`; the broker
 * grants it to vendors of its tenant) while the component is mounted; none while `id` is undefined.
 */
export function useLivePlatformTelemetry(id: number | undefined, onMessage: (message: TLivePlatformTelemetry) => void): void {
  const ref = useRef(onMessage);
  useEffect(() => {
    ref.current = onMessage;
  });
  useEffect(() => {
    if (id === undefined) return;
    return getHub().subscribe(topics.livePlatformTelemetry(id), (payload) => {
      const message = parseWith(VLivePlatformTelemetry, payload);
      if (message) ref.current(message);
    });
  }, [id]);
}

/** The live connection state, re-rendering on change. */
export function useLiveState(): TLiveState {
  return useSyncExternalStore(
    (l) => getHub().onState(l),
    () => getHub().state,
    () => 'idle',
  );
}
