/**
 * Topics and client ids of a device logged in with its access token (ThingsBoard's device API, docs/protocol.md
 * "ThingsBoard device API"). Every such device names itself `me`, so the topics alone do not say whose they are: the
 * broker hooks (auth.ts) know the device from the connection. Pure functions.
 */
import { MQTT_CLIENT_ID_MAX } from '@tessera/contracts';

/** The telemetry topic of ThingsBoard's device API. */
export const THINGSBOARD_TELEMETRY_TOPIC = 'v1/devices/me/telemetry';
/** Client attributes up, shared attribute updates down. */
export const THINGSBOARD_ATTRIBUTES_TOPIC = 'v1/devices/me/attributes';
/** ThingsBoard's device claiming: refused (claim-refusal.ts). */
export const THINGSBOARD_CLAIM_TOPIC = 'v1/devices/me/claim';

/**
 * What a token-logged device may publish: telemetry, client attributes, an attribute request, RPC answers and requests,
 * and a claim (acknowledged, refused and counted).
 */
export type TThingsboardTopic =
  | { kind: 'telemetry' }
  | { kind: 'attributes' }
  | { kind: 'claim' }
  /** `v1/devices/me/attributes/request/{n}`: answered on `…/attributes/response/{n}`. */
  | { kind: 'attribute_request'; n: string }
  /** `v1/devices/me/rpc/response/{n}`: the answer to the platform's RPC request `n`. */
  | { kind: 'rpc_response'; n: string }
  /** `v1/devices/me/rpc/request/{n}`: an RPC from the device to the platform (answered as unsupported). */
  | { kind: 'rpc_request'; n: string };

/** A request id in a topic: one level of 1–64 letters, digits, `-` or `_` (ThingsBoard's are integers). */
const REQUEST_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** What a topic a token-logged device publishes on is, or null when it may not publish there. */
export function classifyThingsboardTopic(topic: string): TThingsboardTopic | null {
  if (topic === THINGSBOARD_TELEMETRY_TOPIC) return { kind: 'telemetry' };
  if (topic === THINGSBOARD_ATTRIBUTES_TOPIC) return { kind: 'attributes' };
  if (topic === THINGSBOARD_CLAIM_TOPIC) return { kind: 'claim' };
  const m = /^v1\/devices\/me\/(attributes\/request|rpc\/response|rpc\/request)\/([^/]+)$/.exec(topic);
  if (!m || !REQUEST_ID.test(m[2] ?? '')) return null;
  const n = m[2] as string;
  if (m[1] === 'attributes/request') return { kind: 'attribute_request', n };
  return m[1] === 'rpc/response' ? { kind: 'rpc_response', n } : { kind: 'rpc_request', n };
}

/**
 * The topic filters a token-logged device may subscribe to, exactly as written: shared attribute updates, attribute
 * answers, the platform's RPC requests, and answers to its own RPC requests.
 */
export const THINGSBOARD_SUBSCRIPTIONS: readonly string[] = [
  THINGSBOARD_ATTRIBUTES_TOPIC,
  'v1/devices/me/attributes/response/+',
  'v1/devices/me/rpc/request/+',
  'v1/devices/me/rpc/response/+',
];

/** Whether a token-logged device may subscribe to `filter`. */
export function isThingsboardSubscription(filter: string): boolean {
  return THINGSBOARD_SUBSCRIPTIONS.includes(filter);
}

/**
 * Where the broker files a token device's publish once it is handled (no one may subscribe there): every token device
 * names itself `me`, so the publish must not reach the others subscribed to the same `v1/devices/me/…` filter.
 */
export function thingsboardHandledTopic(tangramId: string): string {
  return `tb-handled/${tangramId}`;
}

/**
 * The client id the broker registers for a device `tangramId` logged in with its token and client id `clientId`.
 * ThingsBoard firmware picks any client id (mosquitto_pub a random `mosq-…`), so two devices may well pick the same
 * one; as the newest connection with a client id takes over the older, the id is kept apart per device: `tb:`, the
 * Tangram ID, `:` and the id it sent. No native id starts with `tb:` (a Tangram ID, `web-`, `aedes_`).
 */
export function thingsboardClientId(tangramId: string, clientId: string): string {
  return `tb:${tangramId}:${clientId}`;
}

/** Whether a token-logged device may send `clientId` (any, empty included, up to MQTT_CLIENT_ID_MAX characters). */
export function isThingsboardClientId(clientId: string): boolean {
  return clientId.length <= MQTT_CLIENT_ID_MAX;
}
