/**
 * Device detail calls of spec §7 devices: remote control (getDeviceInfo, sensorCommand) and its audit log, the
 * app-rules tab (`userRules`), `configFCMStatus`, and `clean-data` (§5 "Deleting device telemetry needs a
 * password", §8 "password incorrect on clean-data"). Decisions: docs/decisions/device-control.md.
 */
import { z } from 'zod';
import { ZIdText } from './input.js';
import { API } from './api-paths.js';
import { ZSensorAction } from './device-commands.js';
import { ZTangramIdParam } from './devices.js';
import { NAME_MAX } from './limits.js';
import { zPage } from './pagination.js';
import { ALERT_LEVELS, SIMPLE_RULE_OPS, TELEMETRY_SLOTS, ZRuleValue, type TRuleValue, type TTelemetrySlot } from './rules-program.js';
import { simpleRuleProblem, type TRuleFieldProblem } from './rules-values.js';
import type { TTelemetryValueType } from './telemetry-values.js';
import { ZTelemetryKey } from './telemetry.js';

const device = (tangramId: string) => `${API.frontstage}/devices/${tangramId}`;

/** Paths of the device-control endpoints (relative to the host). */
export const deviceControlPaths = {
  getDeviceInfo: (tangramId: string) => `${device(tangramId)}/remoteControl/getDeviceInfo`,
  sensorCommand: (tangramId: string) => `${device(tangramId)}/remoteControl/sensorCommand`,
  commands: (tangramId: string) => `${device(tangramId)}/remoteControl/commands`,
  userRules: (tangramId: string) => `${device(tangramId)}/userRules`,
  userRule: (tangramId: string, id: number) => `${device(tangramId)}/userRules/${id}`,
  fcmStatus: `${API.frontstage}/devices/configFCMStatus`,
  cleanData: (tangramId: string) => `${device(tangramId)}/clean-data`,
} as const;

// ── Remote control ──────────────────────────────────────────────────────────────────────────────────────────

/** How long the server waits for a device's reply by default, in milliseconds (server setting COMMAND_TIMEOUT_MS). */
export const COMMAND_TIMEOUT_DEFAULT_MS = 10_000;
/** Bounds of COMMAND_TIMEOUT_MS, in milliseconds. */
export const COMMAND_TIMEOUT_MIN_MS = 100;
export const COMMAND_TIMEOUT_MAX_MS = 120_000;

/** POST remoteControl/sensorCommand body: a project sensor key and an action (`read` when omitted). */
export const ZSensorCommandRequest = z.object({ key: ZTelemetryKey, action: ZSensorAction.default('read') });
export type TSensorCommandRequest = z.input<typeof ZSensorCommandRequest>;

/** getDeviceInfo as presented: firmware, uptime in seconds, RSSI in dBm, the sensors the device runs. */
export const ZDeviceInfo = z.object({
  firmware_version: z.string(),
  uptime_s: z.number().int(),
  rssi_dbm: z.number(),
  sensors: z.array(z.object({ key: z.string(), enabled: z.boolean(), upload_period_ms: z.number().int() })),
});
export type TDeviceInfo = z.infer<typeof ZDeviceInfo>;

/** Every answered command: the request id, the round trip (publish → reply) in ms, and the device's result. */
const commandAnswer = <T extends z.ZodType>(result: T) =>
  z.object({ req_id: z.string(), latency_ms: z.number().int().nonnegative(), result });

/** POST remoteControl/getDeviceInfo answer. */
export const ZDeviceInfoAnswer = commandAnswer(ZDeviceInfo);
export type TDeviceInfoAnswer = z.infer<typeof ZDeviceInfoAnswer>;

/**
 * POST remoteControl/sensorCommand answer. For `read` the result is the reading `{ key, ts, vs }`
 * (ZSensorReading); other actions answer what the firmware answers.
 */
export const ZSensorCommandAnswer = commandAnswer(z.unknown());
export type TSensorCommandAnswer = z.infer<typeof ZSensorCommandAnswer>;

/** How a command ended: answered, answered `ok: false`, no reply in time, device not connected. */
export const COMMAND_OUTCOMES = ['ok', 'device_error', 'timeout', 'offline'] as const;
export type TCommandOutcome = (typeof COMMAND_OUTCOMES)[number];

/** One audited command (newest first in the list). `latency_ms` null when there was no reply. */
export const ZDeviceCommandLog = z.object({
  req_id: z.string(),
  name: z.string(),
  params: z.record(z.string(), z.unknown()),
  outcome: z.enum(COMMAND_OUTCOMES),
  error: z.string().nullable(),
  latency_ms: z.number().int().nullable(),
  account_email: z.string().nullable(),
  created_at: z.number(),
});
export type TDeviceCommandLog = z.infer<typeof ZDeviceCommandLog>;
/** GET remoteControl/commands: a page of the device's commands (a user sees only their own). */
export const ZDeviceCommandLogList = zPage(ZDeviceCommandLog);

// ── App rules (userRules) ───────────────────────────────────────────────────────────────────────────────────

/**
 * Operator of a user rule, the same as a simple rule's: a comparison (`gt` … `neq`, value `op` threshold) for a number
 * key, a value test (`equals`, `contains`, `changed`) for a string, boolean or json key ({@link userRuleProblem}).
 */
export const USER_RULE_OPS = SIMPLE_RULE_OPS;
export type TUserRuleOp = (typeof USER_RULE_OPS)[number];
/** Which value of a point the rule reads (v1 for single-value keys; v2, v3 for e.g. vibration y, z). */
export const USER_RULE_SLOTS = TELEMETRY_SLOTS;
/** The spec's alert levels (§3 alert node types) a rule raises. */
export const USER_RULE_LEVELS = ALERT_LEVELS;
/** At most this many rules per account and device (a phone's worth, not a rule engine). */
export const USER_RULES_MAX = 20;
/** Largest |threshold|. */
export const USER_RULE_THRESHOLD_MAX = 1e9;
/** Quiet time after a rule fired before it may fire again, in seconds: default and largest (one day). */
export const USER_RULE_COOLDOWN_DEFAULT_S = 300;
export const USER_RULE_COOLDOWN_MAX_S = 86_400;

const userRuleFields = {
  name: z.string().trim().min(1).max(NAME_MAX),
  key: ZTelemetryKey,
  slot: z.enum(USER_RULE_SLOTS),
  op: z.enum(USER_RULE_OPS),
  /** The threshold of a comparison; null (or absent) for a value test. */
  threshold: z.number().finite().min(-USER_RULE_THRESHOLD_MAX).max(USER_RULE_THRESHOLD_MAX).nullable(),
  /** What `equals` / `contains` compare with, of the key's type; null (or absent) for a comparison and `changed`. */
  value: ZRuleValue.nullable(),
  level: z.enum(USER_RULE_LEVELS),
  enabled: z.boolean(),
  cooldown_s: z.number().int().min(0).max(USER_RULE_COOLDOWN_MAX_S),
};

/**
 * POST userRules: "notify me when `key`.`slot` `op` `threshold`" — or, for a key whose values are not numbers, "when
 * `key` equals / contains `value`, or changed". Defaults: v1, no threshold, no value, remind, enabled, 300 s. Whether
 * the operator, threshold and value fit the key is the server's check ({@link userRuleProblem}: 400
 * `RULE_OP_MISMATCH`).
 */
export const ZUserRuleInput = z.object({
  ...userRuleFields,
  threshold: userRuleFields.threshold.default(null),
  value: userRuleFields.value.default(null),
  slot: userRuleFields.slot.default('v1'),
  level: userRuleFields.level.default('remind'),
  enabled: userRuleFields.enabled.default(true),
  cooldown_s: userRuleFields.cooldown_s.default(USER_RULE_COOLDOWN_DEFAULT_S),
});
export type TUserRuleInput = z.input<typeof ZUserRuleInput>;

/** PUT userRules/{id}: any subset of the fields. */
export const ZUserRuleUpdate = z.object(userRuleFields).partial();
export type TUserRuleUpdate = z.infer<typeof ZUserRuleUpdate>;

/** A user rule as presented; `account_email` is its owner. */
export const ZUserRule = z.object({
  id: z.number().int(),
  tangram_id: z.string(),
  account_id: z.number().int(),
  account_email: z.string(),
  ...userRuleFields,
  created_at: z.number(),
  updated_at: z.number(),
});
export type TUserRule = z.infer<typeof ZUserRule>;
/** GET userRules: the caller's rules (a user) or every user's rules of the device (a vendor, read-only). */
export const ZUserRuleList = zPage(ZUserRule);

/** What {@link userRuleProblem} reads of an app rule. */
export interface TUserRuleTest {
  key: string;
  slot: TTelemetrySlot;
  op: TUserRuleOp;
  threshold: number | null;
  value: TRuleValue | null;
}

/**
 * The first field of app rule `rule` that does not fit its key's value type `type`, or null when it fits — the simple
 * rules' check (`simpleRuleProblem`, docs/decisions/rules.md "Keys that are not numbers") for a rule that is never
 * held for a duration: a comparison with a threshold on a number key; equals / contains (with a value of the key's
 * type) or changed (no value) on slot v1 of any other key, without a threshold. Pure.
 */
export function userRuleProblem(type: TTelemetryValueType, rule: TUserRuleTest): TRuleFieldProblem | null {
  return simpleRuleProblem(type, { ...rule, duration_s: 0 });
}

/** `{tangramId}/userRules/{id}` path parameters. */
export const ZUserRuleParams = ZTangramIdParam.extend({ id: ZIdText });

// ── Push notification switch (configFCMStatus) ─────────────────────────────────────────────────────────────

/** PUT devices/configFCMStatus: the caller's push switch for one device. */
export const ZFcmStatusUpdate = z.object({
  tangram_id: ZTangramIdParam.shape.tangramId.transform((id) => id.toUpperCase()),
  enabled: z.boolean(),
});
export type TFcmStatusUpdate = z.input<typeof ZFcmStatusUpdate>;
/** GET devices/configFCMStatus?tangram_id=. */
export const ZFcmStatusQuery = ZFcmStatusUpdate.pick({ tangram_id: true });
/** The caller's push switch for a device; off until turned on (`updated_at` null then). */
export const ZFcmStatus = z.object({ tangram_id: z.string(), enabled: z.boolean(), updated_at: z.number().nullable() });
export type TFcmStatus = z.infer<typeof ZFcmStatus>;

// ── clean-data ──────────────────────────────────────────────────────────────────────────────────────────────

/** POST devices/{tangramId}/clean-data body: the caller's own login password (never logged, never stored). */
export const ZCleanDataRequest = z.object({ password: z.string().min(1).max(128) });
export type TCleanDataRequest = z.infer<typeof ZCleanDataRequest>;
/** What clean-data deleted: raw points, rollup buckets, latest values, status words. */
export const ZCleanDataResult = z.object({
  telemetry: z.number().int(),
  rollups: z.number().int(),
  latest: z.number().int(),
  status: z.number().int(),
});
export type TCleanDataResult = z.infer<typeof ZCleanDataResult>;
