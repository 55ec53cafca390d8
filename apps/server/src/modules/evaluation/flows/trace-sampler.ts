/**
 * Which platform-rule runs are traced (docs/platform-rules.md "What a trace costs"). A run's trace row is most of
 * what a rule on a hot key costs the database, and a rule keeps only its newest `trace_runs` anyway, so under load
 * the trace is sampled: per rule and kind of run (did something, error, nothing, refused — {@link runKind}), the
 * first FLOW_TRACE_SAMPLE_PER_S runs of each one-second window are traced in full; of the rest only the last of the
 * window is kept, traced when the window ends with `untracedBefore` counting the others. So a quiet rule loses
 * nothing, every run is counted in some row (the run list sums them as "not traced"), and a rule writes at most
 * 4 × (FLOW_TRACE_SAMPLE_PER_S + 1) rows a second however hot its key.
 */
import { FLOW_TRACE_SAMPLE_PER_S, type TFlowNodeType, type TFlowRunOutcome } from '@tessera/contracts';
import type { TRunRow } from './flow-store.js';

/** Kinds of run sampled apart, so a burst of one never hides another. */
export type TRunKind = 'acted' | 'error' | 'quiet' | 'refused';

/** Node types whose visit means the run did something outside itself. */
const ACTING_NODES: ReadonlySet<TFlowNodeType> = new Set<TFlowNodeType>([
  'alert',
  'notification',
  'iotRemoteControl',
  'deviceParallelSetting',
  'deviceParallelControl',
  'deviceSchedulerParallelControl',
]);

/** The kind of a run from its outcome and the node types it visited. */
export function runKind(outcome: TFlowRunOutcome, steps: readonly { node_type: TFlowNodeType }[]): TRunKind {
  if (outcome === 'refused') return 'refused';
  if (outcome === 'error') return 'error';
  return steps.some((s) => ACTING_NODES.has(s.node_type)) ? 'acted' : 'quiet';
}

/** Window length, ms. */
const WINDOW_MS = 1000;

interface TSlot {
  windowStart: number;
  traced: number;
  /** The last run past the window's allowance (its row, made when traced), traced when the window ends. */
  held: (() => TRunRow) | null;
  /** Runs past the allowance before `held`: never traced, counted on it. */
  untraced: number;
}

/** Samples run rows per rule and kind; rows to trace go to `trace`. */
export class TraceSampler {
  private readonly slots = new Map<string, TSlot>();
  private readonly timer: NodeJS.Timeout;

  /**
   * @param trace takes each row to write (the trace writer).
   * @param perS runs traced in full per rule, kind and second.
   */
  constructor(
    private readonly trace: (row: TRunRow) => void,
    private readonly perS: number = FLOW_TRACE_SAMPLE_PER_S,
  ) {
    // Windows that ended with no later run of their kind still hand over their held run within a second or so.
    this.timer = setInterval(() => this.sweep(Date.now()), WINDOW_MS);
    this.timer.unref();
  }

  /** Offers one run's row of `kind` at wall time `now` (epoch ms): traced now, held, or counted. */
  offer(row: TRunRow, kind: TRunKind, now: number = Date.now()): void {
    this.offerMade(row.ruleId, kind, () => row, now);
  }

  /**
   * {@link offer} of a run of rule `ruleId` whose row `makeRow` builds only if it is traced: a rule refusing
   * thousands of triggers a second (its tenant's queue full) counts them without building a row for each.
   */
  offerMade(ruleId: number, kind: TRunKind, makeRow: () => TRunRow, now: number = Date.now()): void {
    const key = `${ruleId}:${kind}`;
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { windowStart: now, traced: 0, held: null, untraced: 0 };
      this.slots.set(key, slot);
    } else if (now - slot.windowStart >= WINDOW_MS) {
      this.release(slot);
      slot.windowStart = now;
      slot.traced = 0;
    }
    if (slot.traced < this.perS) {
      slot.traced += 1;
      this.trace(makeRow());
      return;
    }
    if (slot.held) slot.untraced += 1;
    slot.held = makeRow;
  }

  /** Hands over the held run of every window ended by `now` and forgets idle slots. */
  sweep(now: number): void {
    for (const [key, slot] of this.slots) {
      if (now - slot.windowStart < WINDOW_MS) continue;
      this.release(slot);
      this.slots.delete(key);
    }
  }

  /** Stops the timer and hands over every held run (the engine's close, before the last flush). */
  close(): void {
    clearInterval(this.timer);
    for (const slot of this.slots.values()) this.release(slot);
    this.slots.clear();
  }

  private release(slot: TSlot): void {
    if (!slot.held) return;
    this.trace({ ...slot.held(), untracedBefore: slot.untraced });
    slot.held = null;
    slot.untraced = 0;
  }
}
