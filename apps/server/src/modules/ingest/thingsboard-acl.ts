/**
 * Topics and client ids of a device logged in with its access token (ThingsBoard's device API, docs/protocol.md
 * "ThingsBoard device API"). Every such device names itself `me`, so the topics alone do not say whose they are: the
 * broker hooks (auth.ts) know the device from the connection. Pure functions.
 */
import { MQTT_CLIENT_ID_MAX } from '@tessera/contracts';

/** The telemetry topic of ThingsBoard's device API. */
export const THINGSBOARD_TELEMETRY_TOPIC = 'v1/devices/me/telemetry';

/** What a token-logged device may publish: today its telemetry only (attributes and RPC are not served yet). */
export type TThingsboardTopicKind = 'telemetry';

/** The kind of a topic a token-logged device publishes on, or null when it may not publish there. */
export function classifyThingsboardTopic(topic: string): TThingsboardTopicKind | null {
  return topic === THINGSBOARD_TELEMETRY_TOPIC ? 'telemetry' : null;
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
