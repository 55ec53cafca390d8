/**
 * The live channel's messages (spec §3 "Live messages"; topics.ts) as valibot schemas: the same checks as the classic
 * zod schemas the server uses (protocol.ts `ZLiveMessage`, alerts.ts `ZLiveAlertMessage` with `ZAlert`,
 * authz-requests.ts `ZLiveAccessMessage`, platform-telemetry.ts `ZLivePlatformTelemetry`). valibot is one module per
 * check, so the console's logged-in layout parses live messages with about 2 KB br instead of zod's 24 (zod/mini
 * shares zod's core with the classic schemas other pages use, and so weighed 21 KB br; docs/web-bundle.md).
 * live-mini.test.ts runs both over the same valid and invalid samples. Constants come from zod-free modules only.
 */
import * as v from 'valibot';
import type { TLiveAlertMessage } from './alerts.js';
import { ALERT_LEVELS, ALERT_RESOLVE_REASONS, ALERT_RULE_KINDS, ALERT_STATES } from './alert-values.js';
import type { TLiveAccessMessage } from './authz-requests.js';
import type { TLivePlatformTelemetry } from './platform-telemetry.js';
import type { TLiveMessage } from './protocol.js';

/** zod's `z.number()`: a finite number (zod refuses NaN and ±Infinity). */
export const vNumber = () => v.pipe(v.number(), v.finite());
/** zod's `z.number().int()`: a safe integer. */
export const vInt = () => v.pipe(v.number(), v.safeInteger());

/** telemetry-values.ts `ZTelemetryValue`: a non-numeric telemetry value (text, boolean, JSON array or object). */
const VTelemetryValue = v.union([v.string(), v.boolean(), v.array(v.unknown()), v.record(v.string(), v.unknown())]);

/** protocol.ts `ZLiveMessage`: a device's live points on `live/devices/{id}`. */
export const VLiveMessage: v.GenericSchema<unknown, TLiveMessage> = v.object({
  topic: v.string(),
  list: v.array(
    v.object({
      key: v.string(),
      ts: vNumber(),
      vs: v.array(v.nullable(vNumber())),
      value: v.optional(VTelemetryValue),
    }),
  ),
});

const VNamed = v.object({ id: vInt(), name: v.string() });

/** alerts.ts `ZAlert`: an alert as the API and the live channel present it. Times epoch ms. */
const VAlert = v.object({
  id: vInt(),
  level: v.picklist(ALERT_LEVELS),
  state: v.picklist(ALERT_STATES),
  message: v.string(),
  rule: v.object({ kind: v.picklist(ALERT_RULE_KINDS), id: vInt(), index: vInt(), name: v.string() }),
  device: v.object({ id: vInt(), tangram_id: v.string(), name: v.string() }),
  project: VNamed,
  product: VNamed,
  trigger: v.nullable(v.object({ key: v.string(), value: vNumber() })),
  first_seen_at: vNumber(),
  last_seen_at: vNumber(),
  count: vInt(),
  flapping: v.boolean(),
  acknowledged_at: v.nullable(vNumber()),
  acknowledged_by: v.nullable(v.string()),
  resolved_at: v.nullable(vNumber()),
  resolved_by: v.nullable(v.string()),
  resolved_reason: v.nullable(v.picklist(ALERT_RESOLVE_REASONS)),
});

/** alerts.ts `ZLiveAlertMessage`: one alert, as it is now, on `live/accounts/{accountId}/alerts`. */
export const VLiveAlertMessage: v.GenericSchema<unknown, TLiveAlertMessage> = v.object({ topic: v.string(), alert: VAlert });

/** authz-requests.ts `ZLiveAccessMessage`: an authorisation request of the account was answered or revoked. */
export const VLiveAccessMessage: v.GenericSchema<unknown, TLiveAccessMessage> = v.object({ account_id: vInt(), changed_at: vInt() });

/** platform-telemetry.ts `ZLivePlatformTelemetry`: a platform telemetry's new latest value. */
export const VLivePlatformTelemetry: v.GenericSchema<unknown, TLivePlatformTelemetry> = v.object({
  id: vInt(),
  value: vNumber(),
  ts: vNumber(),
});

/**
 * Parses `input` with one of the schemas above, as zod's `safeParse` would.
 * @returns the parsed value (unknown keys dropped, as zod does), or null when it does not match.
 */
export function parseMini<T>(schema: v.GenericSchema<unknown, T>, input: unknown): T | null {
  const parsed = v.safeParse(schema, input);
  return parsed.success ? parsed.output : null;
}
