/**
 * A LoRaWAN integration's MQTT transport (docs/decisions/lorawan.md "ChirpStack's MQTT integration"): instead of the
 * network server POSTing each uplink to the webhook, Tessera subscribes to the ChirpStack v4 MQTT integration's
 * broker, `application/{application_id}/device/+/event/up` with QoS 1, and acknowledges each uplink (PUBACK) once
 * its points are committed. The broker's password is stored encrypted and never answered.
 */
import { z } from 'zod';

/** How an integration's uplinks arrive: POSTed to its webhook, or read from ChirpStack's MQTT broker. */
export const LORAWAN_TRANSPORTS = ['webhook', 'mqtt'] as const;
export type TLorawanTransport = (typeof LORAWAN_TRANSPORTS)[number];

/**
 * The subscription's connection as a replica last saw it: `connecting` (not connected since it was saved or the
 * server started), `connected` (subscribed), `disconnected` (lost or refused; retried with backoff, the reason in
 * `last_error`).
 */
export const LORAWAN_MQTT_STATES = ['connecting', 'connected', 'disconnected'] as const;
export type TLorawanMqttState = (typeof LORAWAN_MQTT_STATES)[number];

/** The longest broker password accepted, in characters. */
export const LORAWAN_MQTT_PASSWORD_MAX = 1024;

/** ChirpStack's application id as it appears in the topic: no MQTT wildcard or level separator. */
const ZApplicationId = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[^/+#\s]+$/, 'no /, +, # or spaces')
  .meta({ examples: ['b1f2a0c4-5d6e-4f70-8a9b-0c1d2e3f4a5b'] });

/**
 * The broker an MQTT integration subscribes to. `password` omitted keeps the stored one (on create: none); an empty
 * string clears it.
 */
export const ZLorawanMqttInput = z.object({
  url: z.url({ protocol: /^mqtts?$/ }).max(512),
  username: z.string().max(256).default(''),
  password: z.string().max(LORAWAN_MQTT_PASSWORD_MAX).optional(),
  application_id: ZApplicationId,
});
export type TLorawanMqttInput = z.input<typeof ZLorawanMqttInput>;

/** The MQTT transport as answered: the broker, the topic filter subscribed to, and the connection's state. */
export const ZLorawanMqtt = z.object({
  url: z.string(),
  username: z.string(),
  /** `••••` and the last four characters, or null when no password is stored. */
  password_masked: z.string().nullable(),
  application_id: z.string(),
  /** The topic filter (without the shared-subscription prefix). */
  topic: z.string(),
  state: z.enum(LORAWAN_MQTT_STATES),
  /** Why the connection was last lost or refused (null once connected). */
  last_error: z.string().nullable(),
  /** When `state` last changed (epoch ms), or null. */
  state_at: z.number().int().nullable(),
});
export type TLorawanMqtt = z.infer<typeof ZLorawanMqtt>;

/** The filter of ChirpStack v4's uplink events of `applicationId` (its MQTT integration's default event topic). */
export function chirpstackUplinkTopic(applicationId: string): string {
  return `application/${applicationId}/device/+/event/up`;
}
