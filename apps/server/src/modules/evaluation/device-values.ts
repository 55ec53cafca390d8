/**
 * What the engine knows of one device's data: the newest point of each telemetry key and the newest status word,
 * kept in a Map by key (never a plain object indexed by a name from a rule). Filling a frame copies the values a
 * program reads into its flat array.
 */
import type { TTelemetryValue } from '@tessera/contracts';
import type { TEvalFrame } from './frame.js';
import type { TAggregateRef, TTelemetryRef } from './symbols.js';
import { valuesEqual } from './value-tests.js';

/** The newest point of one key: device ts (ms) and v1..v3 (NaN where absent). */
export interface TLatestPoint {
  ts: number;
  vs: [number, number, number];
  /** The value of a non-numeric key's point (undefined for a number key). */
  value?: TTelemetryValue;
  /** A non-numeric key's value of the point before this one, when known (what `changed` compares with). */
  prev?: TTelemetryValue;
}

/** A device's latest values. */
export interface TDeviceValues {
  telemetry: Map<string, TLatestPoint>;
  /** The newest status word and its ts; NaN / -Infinity when none. */
  status: number;
  statusTs: number;
}

/** An empty {@link TDeviceValues}. */
export function emptyDeviceValues(): TDeviceValues {
  return { telemetry: new Map(), status: Number.NaN, statusTs: Number.NEGATIVE_INFINITY };
}

/** A stored value (null when the point has no such slot) → number or NaN. */
export function valueOrNaN(v: number | null | undefined): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : Number.NaN;
}

/** Copies the values of `refs` from `device` into `frame.values`, and the status word into `frame.status`. */
export function fillFrame(frame: TEvalFrame, refs: readonly TTelemetryRef[], device: TDeviceValues): void {
  for (let i = 0; i < refs.length; i++) {
    const p = device.telemetry.get(refs[i].key);
    frame.values[i] = p === undefined ? Number.NaN : p.vs[refs[i].slot];
  }
  frame.status = device.status;
}

/**
 * Copies the latest values of the tested non-numeric `keys` into `frame.raw`, and into `frame.changed` whether this
 * evaluation is of a fresh point (`freshKeys`) whose value differs from the key's previous one (valuesEqual).
 */
export function fillValueFrame(frame: TEvalFrame, keys: readonly string[], device: TDeviceValues, freshKeys: ReadonlySet<string>): void {
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const p = device.telemetry.get(key);
    frame.raw[i] = p?.value;
    if (!freshKeys.has(key)) frame.changed[i] = 0;
    else if (p?.value === undefined || p.prev === undefined) frame.changed[i] = -1;
    else frame.changed[i] = valuesEqual(p.value, p.prev) ? 0 : 1;
  }
}

/** Copies aggregate results (same order as `aggregates`) into `frame.aggregates`. */
export function fillAggregates(frame: TEvalFrame, aggregates: readonly TAggregateRef[], results: readonly number[]): void {
  for (let i = 0; i < aggregates.length; i++) frame.aggregates[i] = results[i] ?? Number.NaN;
}
