/**
 * Device attributes and RPC of ThingsBoard's device API (docs/protocol.md "ThingsBoard device API", docs/decisions/
 * device-apis.md "Attributes", "RPC"): the scopes, the bounds of a key and a value, the payloads a device sends and
 * the console API's shapes.
 */
import { z } from 'zod';
import { ZTangramIdParam } from './devices.js';

/** Sent by the device; set by a vendor and pushed to the device; set by a vendor and never sent to the device. */
export const ATTRIBUTE_SCOPES = ['client', 'shared', 'server'] as const;
/** An attribute scope. */
export type TAttributeScope = (typeof ATTRIBUTE_SCOPES)[number];
/** The scopes a vendor writes in the console (client attributes are the device's own). */
export const WRITABLE_ATTRIBUTE_SCOPES = ['shared', 'server'] as const;

/** The longest attribute key, in characters. */
export const ATTRIBUTE_KEY_MAX_CHARS = 128;
/** The largest attribute value, as compact JSON, in UTF-8 bytes. */
export const ATTRIBUTE_VALUE_MAX_BYTES = 4096;
/** The most attributes one message (MQTT publish, HTTP POST, console save) may write. */
export const ATTRIBUTES_PER_MESSAGE_MAX = 100;
/** The most attributes a device may hold in one scope. */
export const ATTRIBUTES_PER_SCOPE_MAX = 500;
/**
 * The largest RPC answer a device may send, in UTF-8 bytes: it crosses replicas in a PostgreSQL notification
 * (8000 bytes at most), so it is bounded well below.
 */
export const RPC_RESPONSE_MAX_BYTES = 4096;
/**
 * A device's HTTP long polls (`GET /api/v1/{token}/rpc`, `GET /api/v1/{token}/attributes/updates`): the wait when no
 * `timeout` is given, and the shortest and longest one may ask, in milliseconds.
 */
export const DEVICE_POLL_DEFAULT_MS = 20_000;
export const DEVICE_POLL_MIN_MS = 100;
export const DEVICE_POLL_MAX_MS = 60_000;

const utf8 = new TextEncoder();

/** The UTF-8 size of `value` as compact JSON. */
export function jsonByteLength(value: unknown): number {
  return utf8.encode(JSON.stringify(value) ?? '').length;
}

/** A JSON object (not an array, not null). */
function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An attribute key: 1–128 characters. */
export const ZAttributeKey = z.string().min(1).max(ATTRIBUTE_KEY_MAX_CHARS);

/** An attribute value: a finite number, a string, a boolean or a JSON object, at most ATTRIBUTE_VALUE_MAX_BYTES as JSON. */
export const ZAttributeValue = z
  .union([z.number(), z.string(), z.boolean(), z.record(z.string(), z.unknown())])
  .refine((v) => jsonByteLength(v) <= ATTRIBUTE_VALUE_MAX_BYTES, `at most ${ATTRIBUTE_VALUE_MAX_BYTES} bytes as JSON`);

/** Attributes as a device sends them and a vendor saves them: `{ "key": value, … }`, 1–ATTRIBUTES_PER_MESSAGE_MAX keys. */
export const ZAttributeMap = z
  .record(ZAttributeKey, ZAttributeValue)
  .refine((m) => Object.keys(m).length >= 1, 'at least one attribute')
  .refine((m) => Object.keys(m).length <= ATTRIBUTES_PER_MESSAGE_MAX, `at most ${ATTRIBUTES_PER_MESSAGE_MAX} attributes`);
/** Attributes by key. */
export type TAttributeMap = Record<string, unknown>;

/**
 * Reads a device's attribute message (MQTT `v1/devices/me/attributes`, `POST /api/v1/{token}/attributes`): the
 * attributes, or why they are refused (not JSON, not an object, a key or value out of bounds).
 */
export function parseAttributeMessage(payload: string): { ok: true; values: TAttributeMap } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  if (!isJsonObject(json)) return { ok: false, reason: 'not a JSON object of attributes' };
  const parsed = ZAttributeMap.safeParse(json);
  if (parsed.success) return { ok: true, values: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return { ok: false, reason: `${where}${issue?.message ?? 'invalid'}` };
}

/**
 * An attribute request's key lists (`{"clientKeys":"a,b","sharedKeys":"c"}` on MQTT, `?clientKeys=a,b&sharedKeys=c`
 * on HTTP): comma-separated, blanks ignored; an absent list asks for every attribute of its scope, unless only the
 * other list is given (ThingsBoard answers only the scopes asked for then).
 */
export function splitAttributeKeys(list: unknown): string[] | undefined {
  if (typeof list !== 'string') return undefined;
  return list
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k.length > 0);
}

/** The console's scope path parameter, and the writable one's. */
export const ZAttributeScopeParam = ZTangramIdParam.extend({ scope: z.enum(ATTRIBUTE_SCOPES) });
export const ZWritableAttributeScopeParam = ZTangramIdParam.extend({ scope: z.enum(WRITABLE_ATTRIBUTE_SCOPES) });
export const ZAttributeKeyParam = ZWritableAttributeScopeParam.extend({ key: ZAttributeKey });

/** One attribute as the console lists it: `updated_at` epoch ms. */
export const ZDeviceAttribute = z.object({ key: z.string(), value: z.unknown(), updated_at: z.number().int() });
export type TDeviceAttribute = z.infer<typeof ZDeviceAttribute>;

/** `GET/POST /frontstage/v1/devices/{tangramId}/attributes/{scope}`: the scope's attributes, by key. */
export const ZDeviceAttributeList = z.object({
  tangram_id: z.string(),
  scope: z.enum(ATTRIBUTE_SCOPES),
  items: z.array(ZDeviceAttribute),
});
export type TDeviceAttributeList = z.infer<typeof ZDeviceAttributeList>;

/** The console's paths of a device's attributes (prefix `/frontstage/v1`). */
export const deviceAttributePaths = {
  scope: (tangramId: string, scope: TAttributeScope) => `/frontstage/v1/devices/${tangramId}/attributes/${scope}`,
  key: (tangramId: string, scope: TAttributeScope, key: string) =>
    `/frontstage/v1/devices/${tangramId}/attributes/${scope}/${encodeURIComponent(key)}`,
};
