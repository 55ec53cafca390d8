/**
 * LoRaWAN network-server uplinks (docs/decisions/lorawan.md, docs/protocol.md "LoRaWAN network servers"): a project's
 * integrations with ChirpStack v4 or The Things Stack v3 — each a webhook URL and a secret the network server sends
 * in a header — the mapping from decoded payload fields to the project's telemetry keys, the last payloads received,
 * and each device's DevEUI.
 */
import { z } from 'zod';
import { ZIdText } from './input.js';
import { LORAWAN_TRANSPORTS, ZLorawanMqtt, ZLorawanMqttInput } from './lorawan-mqtt.js';
import { INGEST_REJECT_REASONS } from './protocol.js';
import { ZTelemetryKey } from './telemetry.js';

/** The network servers whose uplink webhooks Tessera reads: ChirpStack v4 and The Things Stack v3. */
export const LORAWAN_NETWORK_SERVERS = ['chirpstack', 'tts'] as const;
export type TLorawanNetworkServer = (typeof LORAWAN_NETWORK_SERVERS)[number];

/** The header the network server sends the integration's secret in (set once in its HTTP integration or webhook). */
export const LORAWAN_SECRET_HEADER = 'x-tessera-secret';
/** At most this many integrations per project. */
export const MAX_LORAWAN_INTEGRATIONS_PER_PROJECT = 10;
/** The last payloads kept per integration for debugging; older ones are dropped as new ones arrive. */
export const LORAWAN_LOG_SIZE = 20;
/** A logged body is kept up to this many characters (the rest is cut and the entry marked `truncated`). */
export const LORAWAN_LOG_BODY_MAX = 16 * 1024;
/** At most this many mapping entries per integration. */
export const LORAWAN_MAPPING_MAX = 64;
/** The longest decoded-field path of a mapping entry, in characters. */
export const LORAWAN_PATH_MAX = 128;

/** What became of one request: points stored, refused (nothing stored, counted), or an event that carries no uplink. */
export const LORAWAN_OUTCOMES = ['stored', 'refused', 'ignored'] as const;
export type TLorawanOutcome = (typeof LORAWAN_OUTCOMES)[number];

/**
 * Why an uplink was refused: no device of the integration's project has its DevEUI (another tenant's device answers
 * the same), the uplink has no decoded payload (no codec on the network server), none of its fields is mapped, or
 * ingest refused it (its reasons, counted on the device as for MQTT).
 */
export const LORAWAN_REFUSALS = ['unknown_device', 'not_decoded', 'nothing_mapped', ...INGEST_REJECT_REASONS] as const;
export type TLorawanRefusal = (typeof LORAWAN_REFUSALS)[number];

/**
 * A DevEUI: 16 hex digits, any case, with or without `-`, `:` or spaces between bytes; answered upper-case without
 * separators (`70B3D57ED0000001`).
 */
export const ZDevEui = z
  .string()
  .transform((s) => s.replace(/[\s:-]/g, '').toUpperCase())
  .pipe(z.string().regex(/^[0-9A-F]{16}$/, '16 hex digits'))
  .meta({ examples: ['70B3D57ED0000001'] });

/** One mapping entry: the decoded payload field at `path` (dot-separated, `sensor.temp`) is stored as project key `key`. */
export const ZLorawanMappingEntry = z.object({
  path: z
    .string()
    .trim()
    .min(1)
    .max(LORAWAN_PATH_MAX)
    .regex(/^[^.\s]+(\.[^.\s]+)*$/, 'field names separated by dots'),
  key: ZTelemetryKey,
});
export type TLorawanMappingEntry = z.infer<typeof ZLorawanMappingEntry>;

/**
 * POST and PUT integrations: a name, which network server sends, the mapping, and how uplinks arrive. An empty
 * mapping stores each top-level field of the decoded payload under the project key of the same name. `transport`
 * `mqtt` (ChirpStack only) needs `mqtt`, the broker to subscribe to; `webhook` ignores it.
 */
export const ZLorawanIntegrationInput = z
  .object({
    name: z.string().trim().min(1).max(64),
    network_server: z.enum(LORAWAN_NETWORK_SERVERS),
    mapping: z.array(ZLorawanMappingEntry).max(LORAWAN_MAPPING_MAX).default([]),
    transport: z.enum(LORAWAN_TRANSPORTS).default('webhook'),
    mqtt: ZLorawanMqttInput.nullable().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.transport !== 'mqtt') return;
    if (v.network_server !== 'chirpstack') {
      ctx.addIssue({ code: 'custom', path: ['transport'], message: "MQTT is ChirpStack's integration: choose chirpstack" });
    }
    if (!v.mqtt) ctx.addIssue({ code: 'custom', path: ['mqtt'], message: 'the broker (url, application_id) is required for MQTT' });
  });
export type TLorawanIntegrationInput = z.input<typeof ZLorawanIntegrationInput>;

/** An integration as answered: its webhook path, its secret only masked, and what it received so far. */
export const ZLorawanIntegration = z.object({
  id: z.number().int(),
  project_id: z.number().int(),
  name: z.string(),
  network_server: z.enum(LORAWAN_NETWORK_SERVERS),
  mapping: z.array(ZLorawanMappingEntry),
  transport: z.enum(LORAWAN_TRANSPORTS),
  /** The broker subscribed to (transport `mqtt`), else null. */
  mqtt: ZLorawanMqtt.nullable(),
  /** The path the network server POSTs to, on this server's origin (`/lorawan/v1/{id}/{network_server}`). */
  webhook_path: z.string(),
  secret_masked: z.string(),
  uplinks_stored: z.number().int(),
  uplinks_refused: z.number().int(),
  events_ignored: z.number().int(),
  last_received_at: z.number().int().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type TLorawanIntegration = z.infer<typeof ZLorawanIntegration>;
export const ZLorawanIntegrationList = z.object({ data: z.array(ZLorawanIntegration) });
export type TLorawanIntegrationList = z.infer<typeof ZLorawanIntegrationList>;

/** POST integrations (and POST …/secret): the integration with its secret in full, shown this once. */
export const ZLorawanIntegrationWithSecret = ZLorawanIntegration.extend({ secret: z.string() });
export type TLorawanIntegrationWithSecret = z.infer<typeof ZLorawanIntegrationWithSecret>;

/** `:id/lorawan/:integrationId` paths. */
export const ZLorawanIntegrationParams = z.object({ id: ZIdText, integrationId: ZIdText });

/** One received payload, newest first: what came, what was answered and why. */
export const ZLorawanUplinkLogEntry = z.object({
  id: z.number().int(),
  received_at: z.number().int(),
  /** ChirpStack's `?event=` (`up`, `join`, `status`, …) or the message type of The Things Stack (`up`, `join_accept`, …). */
  event: z.string(),
  dev_eui: z.string().nullable(),
  /** The device it was stored for, when one was found. */
  tangram_id: z.string().nullable(),
  outcome: z.enum(LORAWAN_OUTCOMES),
  reason: z.enum(LORAWAN_REFUSALS).nullable(),
  detail: z.string(),
  points: z.number().int(),
  /** The HTTP status answered to the network server (over MQTT: the status the webhook would have answered). */
  status: z.number().int(),
  body: z.string(),
  truncated: z.boolean(),
});
export type TLorawanUplinkLogEntry = z.infer<typeof ZLorawanUplinkLogEntry>;
export const ZLorawanUplinkLog = z.object({ data: z.array(ZLorawanUplinkLogEntry) });
export type TLorawanUplinkLog = z.infer<typeof ZLorawanUplinkLog>;

/** GET/PUT devices/{tangramId}/lorawan: the device's DevEUI (null: not a LoRaWAN device). */
export const ZDeviceLorawan = z.object({ tangram_id: z.string(), dev_eui: z.string().nullable() });
export type TDeviceLorawan = z.infer<typeof ZDeviceLorawan>;
/** PUT devices/{tangramId}/lorawan: the DevEUI to set, or null to clear it. */
export const ZDeviceLorawanInput = z.object({ dev_eui: ZDevEui.nullable() });
export type TDeviceLorawanInput = z.input<typeof ZDeviceLorawanInput>;

/**
 * The webhook's answer to a request it read: points stored (200), or nothing stored and why (202: the request was
 * fine, the uplink was not — answering non-2xx would only make The Things Stack count the whole webhook unhealthy).
 */
export const ZLorawanUplinkAnswer = z.object({
  stored: z.number().int(),
  refused: z.enum(LORAWAN_REFUSALS).optional(),
  detail: z.string().optional(),
});
export type TLorawanUplinkAnswer = z.infer<typeof ZLorawanUplinkAnswer>;

/** Paths of the LoRaWAN endpoints. */
export const lorawanPaths = {
  list: (projectId: number) => `/frontstage/v1/projects/${projectId}/lorawan`,
  one: (projectId: number, id: number) => `/frontstage/v1/projects/${projectId}/lorawan/${id}`,
  secret: (projectId: number, id: number) => `/frontstage/v1/projects/${projectId}/lorawan/${id}/secret`,
  uplinks: (projectId: number, id: number) => `/frontstage/v1/projects/${projectId}/lorawan/${id}/uplinks`,
  device: (tangramId: string) => `/frontstage/v1/devices/${tangramId}/lorawan`,
  webhook: (id: number, networkServer: TLorawanNetworkServer) => `/lorawan/v1/${id}/${networkServer}`,
} as const;
