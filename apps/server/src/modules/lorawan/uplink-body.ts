/**
 * What a network server POSTs, read into one shape (docs/protocol.md "LoRaWAN network servers"): ChirpStack v4's HTTP
 * integration (JSON encoding; the event type in `?event=`, the device in `deviceInfo.devEui`, the codec's output in
 * `object`, the network server's receive time in `time`) and The Things Stack v3's webhook (the message type is the
 * body's one message field — `uplink_message` for an uplink —, the device in `end_device_ids.dev_eui`, the payload
 * formatter's output in `uplink_message.decoded_payload`, the receive time in `uplink_message.received_at`).
 */
import type { TLorawanNetworkServer } from '@tessera/contracts';

/** One request read: its event (`up` carries data), the DevEUI it names, its receive time and its decoded payload. */
export interface TNetworkServerEvent {
  event: string;
  /** Upper-case hex, or null when the event names no device. */
  devEui: string | null;
  /** The network server's receive time (epoch ms), or null when it gave none. */
  receivedAtMs: number | null;
  /** The decoded payload of an uplink, or null (not an uplink, or no codec/formatter ran). */
  decoded: Record<string, unknown> | null;
}

/** The message fields of The Things Stack's application messages, in the order looked for; `uplink_message` is `up`. */
const TTS_MESSAGES = [
  'uplink_message',
  'uplink_normalized',
  'join_accept',
  'downlink_ack',
  'downlink_nack',
  'downlink_sent',
  'downlink_failed',
  'downlink_queued',
  'downlink_queue_invalidated',
  'location_solved',
  'service_data',
] as const;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function timeOf(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? ms : null;
}

function devEuiOf(v: unknown): string | null {
  return typeof v === 'string' && /^[0-9A-Fa-f]{16}$/.test(v) ? v.toUpperCase() : null;
}

/**
 * Reads `body` (the request's JSON, parsed) sent by `networkServer`; `chirpstackEvent` is ChirpStack's `?event=`.
 * Answers the event, or why the request cannot be read: not a JSON object, no event type, or an uplink without a
 * 16-hex-digit DevEUI.
 */
export function readNetworkServerEvent(
  networkServer: TLorawanNetworkServer,
  body: unknown,
  chirpstackEvent: string | undefined,
): TNetworkServerEvent | { error: string } {
  if (!isObject(body)) return { error: 'the body is not a JSON object' };
  if (networkServer === 'chirpstack') {
    if (!chirpstackEvent) return { error: 'no ?event= query parameter (ChirpStack adds it: post the HTTP integration here)' };
    const info = isObject(body.deviceInfo) ? body.deviceInfo : {};
    const devEui = devEuiOf(info.devEui);
    if (chirpstackEvent !== 'up') return { event: chirpstackEvent, devEui, receivedAtMs: timeOf(body.time), decoded: null };
    if (!devEui) return { error: 'deviceInfo.devEui is not 16 hex digits' };
    return { event: 'up', devEui, receivedAtMs: timeOf(body.time), decoded: isObject(body.object) ? body.object : null };
  }
  const ids = isObject(body.end_device_ids) ? body.end_device_ids : {};
  const devEui = devEuiOf(ids.dev_eui);
  const message = TTS_MESSAGES.find((m) => isObject(body[m]));
  if (!message) return { error: `no message field (${TTS_MESSAGES.join(', ')})` };
  const receivedAt = timeOf(body.received_at);
  if (message !== 'uplink_message') return { event: message, devEui, receivedAtMs: receivedAt, decoded: null };
  if (!devEui) return { error: 'end_device_ids.dev_eui is not 16 hex digits' };
  const uplink = body.uplink_message as Record<string, unknown>;
  return {
    event: 'up',
    devEui,
    receivedAtMs: timeOf(uplink.received_at) ?? receivedAt,
    decoded: isObject(uplink.decoded_payload) ? uplink.decoded_payload : null,
  };
}
