/**
 * Device MQTT protocol payloads and topics (ARCHITECTURE.md "Device protocol", docs/protocol.md).
 * Up: devices/{id}/telemetry, devices/{id}/status, devices/{id}/commands/{reqId}/reply.
 * Down: devices/{id}/commands/{reqId}, devices/{id}/config (retained).
 * Live to browsers: live/devices/{id}; alerts on live/accounts/{accountId}/alerts.
 */
import { z } from 'zod';
import { STATUS_LIVE_KEY, topics } from './topics.js';
import { DEVICE_TS_MAX_AHEAD_MS, DEVICE_TS_MIN_MS, MAX_POINTS_PER_MESSAGE, MAX_TELEMETRY_VALUES } from './limits.js';
import { STATUS_WORD_MAX } from './status-word.js';
import { ZTelemetryKey } from './telemetry.js';
import { ZTelemetryValue } from './telemetry-values.js';

/** One telemetry point `{ key, ts, vs: [v1, v2?, v3?] }`; `ts` epoch ms (the device's clock). */
export const ZTelemetryPoint = z.object({
  key: ZTelemetryKey,
  ts: z.number().int().positive(),
  vs: z.array(z.number().finite()).min(1).max(MAX_TELEMETRY_VALUES),
});
export type TTelemetryPoint = z.infer<typeof ZTelemetryPoint>;

/** A telemetry publish: one point or an array of them. */
export const ZTelemetryMessage = z.union([ZTelemetryPoint, z.array(ZTelemetryPoint).min(1).max(MAX_POINTS_PER_MESSAGE)]);

/** A status publish `{ ts, value }`: the 40-bit status word. */
export const ZStatusMessage = z.object({
  ts: z.number().int().positive(),
  value: z.number().int().min(0).max(STATUS_WORD_MAX),
});
export type TStatusMessage = z.infer<typeof ZStatusMessage>;

/**
 * Whether ingest accepts a device timestamp (epoch ms) read at server time `nowMs`: from DEVICE_TS_MIN_MS (2000) to
 * DEVICE_TS_MAX_AHEAD_MS (ten minutes) past the server's clock, both included. Others are refused as
 * `ts_out_of_range` (docs/protocol.md "Limits and bad payloads").
 */
export function isDeviceTsAccepted(ts: number, nowMs: number): boolean {
  return ts >= DEVICE_TS_MIN_MS && ts <= nowMs + DEVICE_TS_MAX_AHEAD_MS;
}

/**
 * Why ingest refused points (the `reason` of a device's ingest counters, docs/protocol.md "Limits and bad payloads"):
 * unreadable or off-schema, a key the project lacks, over MAX_POINTS_PER_MESSAGE, over the device's rate, a
 * timestamp outside the accepted window, data the database refused to store (isolated from the rest of its batch), or
 * a non-numeric value over its bounds (TELEMETRY_STRING_MAX_CHARS, TELEMETRY_JSON_MAX_BYTES, TELEMETRY_JSON_MAX_DEPTH).
 */
export const INGEST_REJECT_REASONS = [
  'malformed',
  'unknown_key',
  'too_many_points',
  'rate_limited',
  'ts_out_of_range',
  'unstorable',
  'value_too_large',
] as const;
export type TIngestRejectReason = (typeof INGEST_REJECT_REASONS)[number];

/**
 * Live message to browsers (§3 "Live messages: topic plus list of key, ts, vs"). Status arrives as key `$status`. A
 * point of a non-numeric key (telemetry-values.ts) has an empty `vs` and its `value`.
 */
export const ZLiveMessage = z.object({
  topic: z.string(),
  list: z.array(z.object({ key: z.string(), ts: z.number(), vs: z.array(z.number().nullable()), value: ZTelemetryValue.optional() })),
});
export type TLiveMessage = z.infer<typeof ZLiveMessage>;

export { STATUS_LIVE_KEY };

export { topics };

/** A device topic split into its Tangram ID and the rest, or null when it is not under `devices/`. */
export function parseDeviceTopic(topic: string): { tangramId: string; rest: string[] } | null {
  const parts = topic.split('/');
  if (parts.length < 3 || parts[0] !== 'devices' || !parts[1]) return null;
  return { tangramId: parts[1], rest: parts.slice(2) };
}

/** A command sent down to a device. */
export const ZDeviceCommand = z.object({ name: z.string().max(64), params: z.record(z.string(), z.unknown()).default({}) });
/** A device's reply to a command. */
export const ZDeviceCommandReply = z.object({ ok: z.boolean(), result: z.unknown().optional(), error: z.string().optional() });

/** The retained configuration a device applies (sensor sync). Periods in milliseconds. */
export const ZDeviceConfig = z.object({
  version: z.number().int(),
  sensors: z.array(
    z.object({
      key: ZTelemetryKey,
      enabled: z.boolean(),
      uploadPeriodMs: z.number().int().nonnegative(),
      savePeriodMs: z.number().int().nonnegative().optional(),
      updatePeriodMs: z.number().int().nonnegative().optional(),
    }),
  ),
});
export type TDeviceConfig = z.infer<typeof ZDeviceConfig>;
