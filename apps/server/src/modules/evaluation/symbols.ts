/**
 * The name tables of one compiled program: every telemetry (key, slot) and aggregate it reads gets an index into
 * the frame's arrays (engine/frame.ts). Names live in Maps only, so a key such as `constructor` or `__proto__` is
 * just a name that has no value.
 */
import { TELEMETRY_SLOTS, type TRuleNumExpr, type TTelemetrySlot } from '@tessera/contracts';

/** One telemetry value a program reads: `key`'s slot number `slot` (0 = v1). */
export interface TTelemetryRef {
  key: string;
  slot: number;
}

/** One aggregate a program reads (the window is ms). */
export interface TAggregateRef {
  fn: 'avg' | 'min' | 'max' | 'count';
  key: string;
  slot: number;
  windowMs: number;
}

type TAggregateExpr = Extract<TRuleNumExpr, { type: 'aggregate' }>;

/** Slot name → index (v1 → 0). */
export function slotIndex(slot: TTelemetrySlot): number {
  return TELEMETRY_SLOTS.indexOf(slot);
}

/** Assigns indexes to the telemetry values, aggregates and tested non-numeric keys of one program, each once. */
export class ProgramSymbols {
  readonly refs: TTelemetryRef[] = [];
  readonly aggregates: TAggregateRef[] = [];
  /** Keys whose (non-numeric) value a `value` condition tests, in the order of the frame's `raw` and `changed`. */
  readonly valueKeys: string[] = [];
  private readonly refIndex = new Map<string, number>();
  private readonly aggregateIndex = new Map<string, number>();
  private readonly valueIndex = new Map<string, number>();

  /** The index of non-numeric `key` in the frame's `raw` and `changed`. */
  value(key: string): number {
    let i = this.valueIndex.get(key);
    if (i === undefined) {
      i = this.valueKeys.push(key) - 1;
      this.valueIndex.set(key, i);
    }
    return i;
  }

  /** The index of `key`.`slot` in the frame's `values`. */
  telemetry(key: string, slot: TTelemetrySlot): number {
    const id = `${slot}\n${key}`;
    let i = this.refIndex.get(id);
    if (i === undefined) {
      i = this.refs.push({ key, slot: slotIndex(slot) }) - 1;
      this.refIndex.set(id, i);
    }
    return i;
  }

  /** The index of an aggregate in the frame's `aggregates`. */
  aggregate(e: TAggregateExpr): number {
    const id = `${e.fn}\n${e.slot}\n${e.window_s}\n${e.key}`;
    let i = this.aggregateIndex.get(id);
    if (i === undefined) {
      i = this.aggregates.push({ fn: e.fn, key: e.key, slot: slotIndex(e.slot), windowMs: e.window_s * 1000 }) - 1;
      this.aggregateIndex.set(id, i);
    }
    return i;
  }
}
