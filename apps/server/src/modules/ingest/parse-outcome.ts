/**
 * What parsing a device publish yields (parse.ts, parse-values.ts): accepted points or a status word, or a refusal with
 * its reason, the points it counts and a detail for the log.
 */
import type {
  TIngestRejectReason,
  TNonNumericValueType,
  TStatusMessage,
  TTelemetryPoint,
  TTelemetryValue,
  TTelemetryValueType,
} from '@tessera/contracts';

/** Why a message was refused (the `reason` of device_ingest_stats). */
export type TRejectReason = TIngestRejectReason;

/**
 * One accepted point: a numeric key's values in `vs`, or a non-numeric key's one `value` (its `vs` empty then;
 * docs/decisions/telemetry.md "Values that are not numbers").
 */
export type TParsedPoint = TTelemetryPoint & { value?: TTelemetryValue };

/**
 * Whether a project takes keys no sensor declares (docs/decisions/telemetry.md "Undeclared keys"), as the parser
 * reads it: present only while the project accepts them; a discarded key is refused, and a message's new keys are
 * refused when `canOffer` is false for them (they would not fit the project's offer, or the setting was turned off).
 */
export interface TUndeclaredIntake {
  readonly discarded: ReadonlySet<string>;
  /** Whether `keys` more keys may be offered. */
  canOffer(keys: number): boolean;
}

/**
 * The project's keys as the parser reads them: `has` answers for numeric keys; `valueTypes` (directory.ts
 * TProjectKeys), when given, holds the type of every other key; `undeclared` when the project accepts undeclared keys.
 */
export type TKnownKeys = ReadonlySet<string> & {
  readonly valueTypes?: ReadonlyMap<string, TNonNumericValueType>;
  readonly undeclared?: TUndeclaredIntake;
};

/** A key no sensor declares, typed by its first value in a message (`valueCount`: its number of values, 1–3 for numbers). */
export interface TNewKey {
  key: string;
  type: TTelemetryValueType;
  valueCount: number;
}

/**
 * The outcome of parsing one publish. `count` is how many points were refused (1 for an unreadable message). A
 * refusal with `newKeys` is of a message whose only fault is keys the project does not know yet but may take as
 * undeclared: the pipeline offers them (undeclared-keys.ts) and parses the message again.
 */
export type TParsedMessage =
  | { ok: true; kind: 'telemetry'; points: TParsedPoint[] }
  | { ok: true; kind: 'status'; status: TStatusMessage }
  | { ok: false; reason: TRejectReason; count: number; detail: string; newKeys?: readonly TNewKey[] };

/**
 * The refusal of a message whose point has numbers for `key`, not a numeric key of the project: `malformed` when the
 * key takes another type of value, else `unknown_key`.
 */
export function refuseKey(key: string, knownKeys: TKnownKeys, count: number): TParsedMessage {
  const type = knownKeys.valueTypes?.get(key);
  if (type)
    return { ok: false, reason: 'malformed', count, detail: `${key}: takes ${type === 'json' ? 'a JSON object or array' : `a ${type}`}` };
  return { ok: false, reason: 'unknown_key', count, detail: `unknown key ${key}` };
}

/** The refusal of a message with a point at `ts` outside the accepted window. */
export function outOfWindow(ts: number, count: number): TParsedMessage {
  return { ok: false, reason: 'ts_out_of_range', count, detail: `ts ${ts} is outside the accepted window` };
}

/** The first zod issue as `path: message`. */
export function firstIssue(issues: { path: PropertyKey[]; message: string }[]): string {
  const issue = issues[0];
  return issue ? `${issue.path.map(String).join('.') || 'payload'}: ${issue.message}` : 'invalid payload';
}
