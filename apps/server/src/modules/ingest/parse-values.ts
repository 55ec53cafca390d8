/**
 * The second reading of a telemetry message the numeric fast path (parse.ts) refused, for a project with keys whose
 * values are not numbers (docs/decisions/telemetry.md "Values that are not numbers"): each point is read loosely,
 * then judged by its key's declared type — a numeric key's `vs` must be one to three finite numbers, any other key's
 * `vs` exactly one value of its type within its bounds (contracts checkTelemetryValue). The message is accepted or
 * refused whole, with the fast path's precedence: shape and keys and values first, then the timestamp window. Of a
 * project that accepts undeclared keys, a key it does not know is typed by its value (undeclared-parse.ts) and, when
 * nothing else is wrong, the message answers the offer of such keys.
 */
import {
  checkTelemetryValue,
  isDeviceTsAccepted,
  MAX_TELEMETRY_VALUES,
  type TNonNumericValueType,
  ZTelemetryKey,
} from '@tessera/contracts';
import { z } from 'zod';
import { firstIssue, outOfWindow, type TKnownKeys, type TParsedMessage, type TParsedPoint } from './parse-outcome.js';
import { NewKeysOfMessage } from './undeclared-parse.js';

/** A point whose values are not judged yet. */
const ZLoosePoint = z.object({
  key: ZTelemetryKey,
  ts: z.number().int().positive(),
  vs: z.array(z.unknown()).min(1).max(MAX_TELEMETRY_VALUES),
});
const ZLoosePoints = z.array(ZLoosePoint).min(1);

const NO_VALUE_TYPES: ReadonlyMap<string, TNonNumericValueType> = new Map();

/**
 * Reads `json` (one point or a list, the list already within MAX_POINTS_PER_MESSAGE) against the project's numeric
 * keys `numericKeys` (the set), its other keys' `valueTypes` and, when it accepts them, its undeclared keys.
 * @param nowMs the server's clock when the message arrived (epoch ms), for the timestamp window.
 */
export function parseWithValues(json: unknown, numericKeys: TKnownKeys, nowMs: number): TParsedMessage {
  const valueTypes = numericKeys.valueTypes ?? NO_VALUE_TYPES;
  const list = Array.isArray(json) ? json : [json];
  const count = Math.max(list.length, 1);
  const parsed = ZLoosePoints.safeParse(list);
  if (!parsed.success) {
    const issues = Array.isArray(json) ? parsed.error.issues : parsed.error.issues.map((i) => ({ ...i, path: i.path.slice(1) }));
    return { ok: false, reason: 'malformed', count, detail: firstIssue(issues) };
  }
  const points: TParsedPoint[] = [];
  const intake = numericKeys.undeclared;
  const newKeys = intake ? new NewKeysOfMessage(intake, count) : null;
  let outside: number | undefined;
  for (const p of parsed.data) {
    const type = valueTypes.get(p.key);
    if (type === undefined && !numericKeys.has(p.key)) {
      if (!newKeys) return { ok: false, reason: 'unknown_key', count, detail: `unknown key ${p.key}` };
      const refusal = newKeys.add(p.key, p.vs);
      if (refusal) return refusal;
    } else if (type === undefined) {
      if (!p.vs.every(isFiniteNumber)) return { ok: false, reason: 'malformed', count, detail: `${p.key}: takes finite numbers` };
      points.push({ key: p.key, ts: p.ts, vs: p.vs as number[] });
    } else {
      if (p.vs.length !== 1) return { ok: false, reason: 'malformed', count, detail: `${p.key}: takes one value` };
      const refusal = checkTelemetryValue(p.key, type, p.vs[0]);
      if (refusal) return { ok: false, reason: refusal.reason, count, detail: refusal.detail };
      points.push({ key: p.key, ts: p.ts, vs: [], value: p.vs[0] as TParsedPoint['value'] });
    }
    if (outside === undefined && !isDeviceTsAccepted(p.ts, nowMs)) outside = p.ts;
  }
  if (outside !== undefined) return outOfWindow(outside, count);
  if (newKeys && !newKeys.isEmpty) return newKeys.outcome();
  return { ok: true, kind: 'telemetry', points };
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}
