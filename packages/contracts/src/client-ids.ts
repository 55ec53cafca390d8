/**
 * Which MQTT client ids an identity may use on the embedded broker (docs/protocol.md "Client ids"). A broker lets
 * the newest connection with a client id take over the older one; were client ids free, anyone able to log in
 * (another tenant's device, a browser) could knock a device off by reusing its id. So a client id is bound to the
 * identity that logs in: a device's ids start with its Tangram ID, a browser's with `web-{accountId}-`. An empty
 * client id is also accepted: the broker then assigns a random one that nobody else can name.
 */

/** Prefix of the ids the broker assigns for an empty client id (Aedes: `aedes_` and a random UUID). */
const ASSIGNED_CLIENT_ID = /^aedes_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The longest client id the broker takes, in characters (MQTT 3.1.1 §3.1.3.1 requires servers to take 23; we allow more). */
export const MQTT_CLIENT_ID_MAX = 128;

/**
 * A device's client id: its Tangram ID, or the Tangram ID, `-` and `suffix` (for firmware that opens more than one
 * connection). Tangram IDs have one fixed length, so no device's ids can start with another device's Tangram ID.
 */
export function deviceClientId(tangramId: string, suffix?: string): string {
  return suffix ? `${tangramId}-${suffix}` : tangramId;
}

/** A browser's client id on the live channel: `web-{accountId}-` and `suffix` (e.g. a random tab id). */
export function browserClientId(accountId: number, suffix: string): string {
  return `web-${accountId}-${suffix}`;
}

/** True when `clientId` was assigned by the broker for an empty client id. */
export function isAssignedClientId(clientId: string): boolean {
  return ASSIGNED_CLIENT_ID.test(clientId);
}

/**
 * True when the device `tangramId` may connect with `clientId`: it starts with the Tangram ID (any letter case:
 * the ID is hexadecimal) and is at most MQTT_CLIENT_ID_MAX long, or the broker assigned it.
 */
export function isDeviceClientId(tangramId: string, clientId: string): boolean {
  if (isAssignedClientId(clientId)) return true;
  if (clientId.length > MQTT_CLIENT_ID_MAX || clientId.length < tangramId.length) return false;
  return clientId.slice(0, tangramId.length).toUpperCase() === tangramId.toUpperCase();
}

/** True when the browser of `accountId` may connect with `clientId` (see {@link browserClientId}). */
export function isBrowserClientId(accountId: number, clientId: string): boolean {
  if (isAssignedClientId(clientId)) return true;
  const prefix = `web-${accountId}-`;
  return clientId.length <= MQTT_CLIENT_ID_MAX && clientId.length > prefix.length && clientId.startsWith(prefix);
}
