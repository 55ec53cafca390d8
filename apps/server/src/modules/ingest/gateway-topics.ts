/**
 * Topics and payloads of ThingsBoard's gateway API (docs/protocol.md "ThingsBoard gateway API"): what a device marked
 * as a gateway, logged in with its access token, may publish and subscribe to on `v1/gateway/…`, and how its
 * payloads name the devices behind it. Pure functions.
 */
import { GATEWAY_DEVICE_NAME_MAX, GATEWAY_DEVICES_PER_MESSAGE_MAX, GATEWAY_TOPICS } from '@tessera/contracts';

/**
 * What a gateway publishes: a device connected or left, telemetry or client attributes of devices, a request, an RPC
 * answer, or a claim (refused: claim-refusal.ts).
 */
export type TGatewayTopic = { kind: 'connect' | 'disconnect' | 'telemetry' | 'attributes' | 'attribute_request' | 'rpc' | 'claim' };

const BY_TOPIC: ReadonlyMap<string, TGatewayTopic> = new Map([
  [GATEWAY_TOPICS.connect, { kind: 'connect' }],
  [GATEWAY_TOPICS.disconnect, { kind: 'disconnect' }],
  [GATEWAY_TOPICS.telemetry, { kind: 'telemetry' }],
  [GATEWAY_TOPICS.attributes, { kind: 'attributes' }],
  [GATEWAY_TOPICS.attributeRequest, { kind: 'attribute_request' }],
  [GATEWAY_TOPICS.rpc, { kind: 'rpc' }],
  [GATEWAY_TOPICS.claim, { kind: 'claim' }],
]);

/** True for any topic of the gateway API's namespace (`v1/gateway/…`), served or not. */
export function isGatewayNamespace(topic: string): boolean {
  return topic.startsWith('v1/gateway/');
}

/** What a gateway topic is, or null when a gateway may not publish there. */
export function classifyGatewayTopic(topic: string): TGatewayTopic | null {
  return BY_TOPIC.get(topic) ?? null;
}

/** The filters a gateway may subscribe to, exactly as written: shared attribute updates, attribute answers, RPC. */
export const GATEWAY_SUBSCRIPTIONS: readonly string[] = [GATEWAY_TOPICS.attributes, GATEWAY_TOPICS.attributeResponse, GATEWAY_TOPICS.rpc];

/** Whether a gateway may subscribe to `filter`. */
export function isGatewaySubscription(filter: string): boolean {
  return GATEWAY_SUBSCRIPTIONS.includes(filter);
}

/** A plain JSON object, or a reason it is not one. */
export type TJsonObject = { ok: true; value: Record<string, unknown> } | { ok: false; reason: string };

/** Parses `payload` (UTF-8 JSON) as a JSON object. */
export function parseJsonObject(payload: Buffer): TJsonObject {
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { ok: false, reason: 'not a JSON object' };
  return { ok: true, value: json as Record<string, unknown> };
}

/** True for a device name a gateway may send: 1–GATEWAY_DEVICE_NAME_MAX characters, not only blanks. */
export function isDeviceName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= GATEWAY_DEVICE_NAME_MAX && name.trim().length > 0;
}

/**
 * The devices a telemetry or attribute message names, with what it holds for each: `{"Device A": …, "Device B": …}`.
 * Refuses a message that is not such an object, names no device or more than GATEWAY_DEVICES_PER_MESSAGE_MAX, or a
 * name that is not one ({@link isDeviceName}).
 */
export function namedEntries(payload: Buffer): { ok: true; entries: [string, unknown][] } | { ok: false; reason: string } {
  const parsed = parseJsonObject(payload);
  if (!parsed.ok) return parsed;
  const entries = Object.entries(parsed.value);
  if (entries.length === 0) return { ok: false, reason: 'names no device' };
  if (entries.length > GATEWAY_DEVICES_PER_MESSAGE_MAX)
    return { ok: false, reason: `names over ${GATEWAY_DEVICES_PER_MESSAGE_MAX} devices` };
  const bad = entries.find(([name]) => !isDeviceName(name));
  return bad ? { ok: false, reason: 'a device name is empty or too long' } : { ok: true, entries };
}

/** The `device` a connect, disconnect, attribute request or RPC answer names, or null. */
export function deviceNameOf(json: Record<string, unknown>): string | null {
  return isDeviceName(json.device) ? json.device : null;
}

/**
 * An attribute request `{"id":1,"device":"A", …}` as the store reads it. ThingsBoard documents two forms: one scope
 * and one key or several (`"client":true,"key":"a"` or `"keys":["a","b"]`; `client` false is the shared scope),
 * answered `{"id","device","value"}` or `{"id","device","values":{…}}`; and lists per scope (`"client":["a"],
 * "shared":["b"]`), answered `{"id","device","client":{…},"shared":{…}}`.
 */
export type TGatewayAttributeRequest =
  | { form: 'key'; id: unknown; device: string; scope: 'client' | 'shared'; key: string }
  | { form: 'keys'; id: unknown; device: string; scope: 'client' | 'shared'; keys: string[] }
  | { form: 'lists'; id: unknown; device: string; client: string[] | undefined; shared: string[] | undefined };

/** Reads an attribute request, or the reason it is malformed. */
export function parseAttributeRequest(
  json: Record<string, unknown>,
): { ok: true; req: TGatewayAttributeRequest } | { ok: false; reason: string } {
  const device = deviceNameOf(json);
  if (!device) return { ok: false, reason: 'no device name' };
  const id = json.id;
  const keyList = (v: unknown): string[] | null =>
    Array.isArray(v) && v.every((k) => typeof k === 'string' && k.length > 0) ? (v as string[]) : null;
  if (typeof json.client === 'boolean') {
    const scope = json.client ? 'client' : 'shared';
    if (typeof json.key === 'string' && json.key.length > 0) return { ok: true, req: { form: 'key', id, device, scope, key: json.key } };
    const keys = keyList(json.keys);
    return keys ? { ok: true, req: { form: 'keys', id, device, scope, keys } } : { ok: false, reason: 'no "key" or "keys"' };
  }
  const client = json.client === undefined ? undefined : keyList(json.client);
  const shared = json.shared === undefined ? undefined : keyList(json.shared);
  if (client === null || shared === null) return { ok: false, reason: '"client" and "shared" must be lists of keys' };
  return { ok: true, req: { form: 'lists', id, device, client, shared } };
}
