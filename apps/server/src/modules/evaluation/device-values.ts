/**
 * What the engine knows of one device's data: the newest point of each telemetry key and the newest status word,
 * kept in a Map by key (never a plain object indexed by a name from a rule). Filling a frame copies the values a
 * program reads into its flat array.
 */
import type { TEvalFrame } from './frame.js';
import type { TAggregateRef, TTelemetryRef } from './symbols.js';

/** The newest point of one key: device ts (ms) and v1..v3 (NaN where absent). */
export interface TLatestPoint {
  ts: number;
  vs: [number, number, number];
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

/** Copies aggregate results (same order as `aggregates`) into `frame.aggregates`. */
export function fillAggregates(frame: TEvalFrame, aggregates: readonly TAggregateRef[], results: readonly number[]): void {
  for (let i = 0; i < aggregates.length; i++) frame.aggregates[i] = results[i] ?? Number.NaN;
}
