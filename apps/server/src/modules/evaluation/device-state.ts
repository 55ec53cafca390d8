/**
 * The engine's memory of one device (docs/rules.md "Where evaluation runs"): its latest values (read from
 * telemetry_latest and devices.status_value on first sight, then kept from committed batches) and, per rule, the
 * condition's last definite truth and its held timers (read from alert_rule_states). Which committed points are
 * fresh — newer than what the engine already has for that key — decides what is evaluated; older ones are stored by
 * ingest but change nothing here (docs/rules.md "Out-of-order points").
 */
import { eq, sql } from 'drizzle-orm';
import type { TTelemetryValue } from '@tessera/contracts';
import { rowsOf, type Db } from '../../db/client.js';
import { devices, telemetryLatest } from '../../db/schema.js';
import { emptyDeviceValues, valueOrNaN, type TDeviceValues, type TLatestPoint } from './device-values.js';
import type { TProjectRules, TRuleUnit } from './rule-set.js';
import { heldRowIndex, loadRuleStates, stateId } from './rule-state-store.js';

/** Per (rule, device): the truth the engine last acted on, and the held timers (live and as stored). */
export interface TRuleRuntime {
  active: boolean;
  firedAt: number | null;
  held: Float64Array;
  heldSaved: Float64Array;
}

/** What the engine keeps of one device. */
export interface TDeviceState {
  values: TDeviceValues;
  /** The rule set whose runtimes are loaded (another one — rules changed — loads them again). */
  rules: TProjectRules | null;
  runtimes: Map<string, TRuleRuntime>;
  /** When values and runtimes were last read from the database (server ms). */
  loadedAt: number;
  /** Evaluation time: the newest device ts accepted for the device (ms). */
  t: number;
}

/** Points of one device committed since its last evaluation, the newest per key. */
export interface TPendingDevice {
  points: Map<string, TLatestPoint>;
  status: { ts: number; value: number } | null;
}

/** What a merge found fresh. */
export interface TFresh {
  keys: Set<string>;
  status: boolean;
}

/** The rule units that apply to `deviceId`: the project's, then the device's app rules. */
export function unitsFor(rules: TProjectRules, deviceId: number): TRuleUnit[] {
  const apps = rules.appUnits.get(deviceId);
  return apps ? [...rules.units, ...apps] : rules.units;
}

/**
 * Reads a device's stored latest values; with `withPrevious` (a rule tests `changed`), also each non-numeric key's
 * value of the point before its latest (telemetry_values, one primary-key probe per such key).
 */
export async function loadDeviceValues(db: Db, deviceId: number, withPrevious = false): Promise<TDeviceValues> {
  const [rows, [device], previous] = await Promise.all([
    db.select().from(telemetryLatest).where(eq(telemetryLatest.deviceId, deviceId)),
    db.select({ value: devices.statusValue, ts: devices.statusTs }).from(devices).where(eq(devices.id, deviceId)),
    withPrevious ? loadPreviousValues(db, deviceId) : new Map<string, TTelemetryValue>(),
  ]);
  const values = emptyDeviceValues();
  for (const r of rows) {
    const point: TLatestPoint = { ts: Number(r.ts), vs: [valueOrNaN(r.v1), valueOrNaN(r.v2), valueOrNaN(r.v3)] };
    if (r.value !== null) {
      point.value = r.value;
      const prev = previous.get(r.key);
      if (prev !== undefined) point.prev = prev;
    }
    values.telemetry.set(r.key, point);
  }
  if (device && device.value !== null && device.ts !== null) {
    values.status = Number(device.value);
    values.statusTs = Number(device.ts);
  }
  return values;
}

/** Per non-numeric key of the device: the value of the newest point older than its latest one. */
async function loadPreviousValues(db: Db, deviceId: number): Promise<Map<string, TTelemetryValue>> {
  const result = await db.execute(sql`
    select l.key, p.value from telemetry_latest l
    cross join lateral (
      select v.value from telemetry_values v
      where v.device_id = l.device_id and v.key = l.key and v.ts < l.ts
      order by v.ts desc limit 1
    ) p
    where l.device_id = ${deviceId} and l.value is not null`);
  return new Map(rowsOf<{ key: string; value: TTelemetryValue }>(result).map((r) => [r.key, r.value]));
}

/**
 * Applies committed points to `values`. A point is fresh when its ts is newer than the value held for its key —
 * or, with `inclusive` (values just read from the database, which already holds this batch), not older.
 */
export function applyPending(values: TDeviceValues, pending: TPendingDevice, inclusive: boolean): TFresh {
  const fresh: TFresh = { keys: new Set(), status: false };
  for (const [key, p] of pending.points) {
    const held = values.telemetry.get(key);
    if (held === undefined || p.ts > held.ts || (inclusive && p.ts === held.ts)) {
      // What `changed` compares with: a point this one superseded before evaluation (set by the engine), else
      // the value held — or, when that is this very point read back from the database, the one it held before.
      if (p.value !== undefined && p.prev === undefined && held !== undefined) {
        const prev = p.ts === held.ts ? held.prev : held.value;
        if (prev !== undefined) p.prev = prev;
      }
      values.telemetry.set(key, p);
      fresh.keys.add(key);
    }
  }
  const s = pending.status;
  if (s && (s.ts > values.statusTs || (inclusive && s.ts === values.statusTs))) {
    values.status = s.value;
    values.statusTs = s.ts;
    fresh.status = true;
  }
  return fresh;
}

/** The newest ts among what `fresh` names. */
export function freshTs(values: TDeviceValues, fresh: TFresh): number {
  let t = fresh.status ? values.statusTs : Number.NEGATIVE_INFINITY;
  for (const key of fresh.keys) t = Math.max(t, values.telemetry.get(key)?.ts ?? t);
  return t;
}

/** Takes from `stored` what is newer than `values` holds (another replica's points); nothing becomes fresh. */
export function mergeNewer(values: TDeviceValues, stored: TDeviceValues): void {
  for (const [key, p] of stored.telemetry) {
    const held = values.telemetry.get(key);
    if (held === undefined || p.ts > held.ts) values.telemetry.set(key, p);
  }
  if (stored.statusTs > values.statusTs) {
    values.status = stored.status;
    values.statusTs = stored.statusTs;
  }
}

/** Reads the stored rule states and held timers of `deviceId` for `units`. */
export async function loadRuntimes(db: Db, deviceId: number, units: readonly TRuleUnit[]): Promise<Map<string, TRuleRuntime>> {
  const stored = await loadRuleStates(
    db,
    deviceId,
    units.map((u) => ({ kind: u.kind, ruleId: u.id })),
  );
  const runtimes = new Map<string, TRuleRuntime>();
  for (const unit of units) {
    for (const rule of unit.program.rules) {
      const s = stored.get(stateId(unit.kind, unit.id, rule.index));
      const held = new Float64Array(rule.heldSlots).fill(Number.NaN);
      for (let slot = 0; slot < rule.heldSlots; slot++) {
        const h = stored.get(stateId(unit.kind, unit.id, heldRowIndex(rule.index, slot)));
        if (h?.active) held[slot] = h.changedAt;
      }
      runtimes.set(stateId(unit.kind, unit.id, rule.index), {
        active: s?.active ?? false,
        firedAt: s?.firedAt ?? null,
        held,
        heldSaved: held.slice(),
      });
    }
  }
  return runtimes;
}
