/**
 * What a compiled condition reads when it runs: flat typed arrays filled by the engine from a device's latest
 * values, so a closure reads `values[i]` instead of looking anything up by name (names were resolved once, when
 * the program was compiled — engine/symbols.ts). NaN stands for "unknown" everywhere.
 */
import type { TTelemetryValue } from '@tessera/contracts';
import type { TTruth } from './truth.js';

/** The inputs of one evaluation of one rule for one device. */
export interface TEvalFrame {
  /** Telemetry values in the order of the program's references (`TCompiledProgram.refs`); NaN = no value. */
  values: Float64Array;
  /**
   * Latest values of the non-numeric keys the program tests, in the order of `TCompiledProgram.valueKeys`;
   * undefined = no value (never reported, or the key holds numbers).
   */
  raw: (TTelemetryValue | undefined)[];
  /**
   * Per key of `raw`: 1 when this evaluation is of a fresh point of the key whose value differs from the key's
   * previous value, 0 when it is not (no fresh point of the key, or the same value), -1 when unknown (no previous
   * value known).
   */
  changed: Int8Array;
  /** The device's latest 40-bit status word; NaN when it has none. */
  status: number;
  /** Aggregate results in the order of the program's aggregates; NaN = unknown (no point in the window). */
  aggregates: Float64Array;
  /**
   * Per `held` node of the rule, in compile order: since when (device ts, ms) its inner condition has been true at
   * every evaluation; NaN = it is not. The held closures update it.
   */
  held: Float64Array;
  /** Evaluation time: the newest device ts (ms) the engine has accepted for the device. */
  t: number;
}

/** A compiled numeric expression: NaN when unknown. */
export type TNumFn = (frame: TEvalFrame) => number;
/** A compiled condition. */
export type TCondFn = (frame: TEvalFrame) => TTruth;

/**
 * A fresh frame for a program with `refs` references, `aggregates` aggregates, `valueKeys` tested non-numeric keys
 * and a rule with `held` held nodes.
 */
export function createFrame(refs: number, aggregates: number, held: number, valueKeys = 0): TEvalFrame {
  return {
    values: new Float64Array(refs).fill(Number.NaN),
    raw: new Array<TTelemetryValue | undefined>(valueKeys).fill(undefined),
    changed: new Int8Array(valueKeys),
    status: Number.NaN,
    aggregates: new Float64Array(aggregates).fill(Number.NaN),
    held: new Float64Array(held).fill(Number.NaN),
    t: 0,
  };
}
