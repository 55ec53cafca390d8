/**
 * One evaluation of a device (docs/rules.md "What is evaluated"): every rule of the device's project (and its app
 * rules) that reads a key with a fresh point — or the status word, when it is fresh; a rule that reads neither runs
 * on every fresh point — is evaluated once, with the device's newest values at evaluation time t. Held timers are
 * stored when they change; the truth goes to applyOutcome.
 */
import type { Db } from '../../db/client.js';
import type { TIngestDevice } from '../ingest/directory.js';
import { readAggregates } from './aggregates.js';
import type { TCompiledRule } from './compile-program.js';
import { unitsFor, type TDeviceState, type TFresh, type TRuleRuntime } from './device-state.js';
import { fillAggregates, fillFrame, fillValueFrame } from './device-values.js';
import { createFrame, type TEvalFrame } from './frame.js';
import { applyOutcome, type TEngineDeps } from './outcome.js';
import type { TProjectRules, TRuleUnit } from './rule-set.js';
import { heldRowIndex, stateId, writeHeld } from './rule-state-store.js';
import { FALSE, TRUE, UNKNOWN } from './truth.js';

/** In-process engine counters (since start). */
export interface TRuleEngineCounters {
  /** Rule evaluations, and how many were true / unknown. */
  evaluations: number;
  trueEvaluations: number;
  unknownEvaluations: number;
  /** Firings (notifications and commands ran). */
  fired: number;
  /** Alerts this engine opened (a firing that inserted a new alert). */
  alertsOpened: number;
  /** Committed points not newer than what the engine had for their key: stored, not evaluated. */
  outOfOrder: number;
  /** Points superseded by a newer one of the same key before the engine got to them. */
  coalesced: number;
  /** Device evaluations that failed (logged; the device's memory is read again next time). */
  errors: number;
}

/** Fresh counters. */
export function emptyCounters(): TRuleEngineCounters {
  return { evaluations: 0, trueEvaluations: 0, unknownEvaluations: 0, fired: 0, alertsOpened: 0, outOfOrder: 0, coalesced: 0, errors: 0 };
}

/** Whether the fresh points concern the rule. */
function isTriggered(rule: TCompiledRule, fresh: TFresh): boolean {
  if (fresh.status && rule.usesStatus) return true;
  if (rule.keys.size === 0 && !rule.usesStatus) return true;
  for (const key of rule.keys) if (fresh.keys.has(key)) return true;
  return false;
}

/** Writes the held timers of a rule that changed in this evaluation. */
async function saveHeld(db: Db, unit: TRuleUnit, rule: TCompiledRule, deviceId: number, runtime: TRuleRuntime, t: number): Promise<void> {
  for (let slot = 0; slot < rule.heldSlots; slot++) {
    const now = runtime.held[slot];
    const saved = runtime.heldSaved[slot];
    if (now === saved || (Number.isNaN(now) && Number.isNaN(saved))) continue;
    await writeHeld(db, { kind: unit.kind, ruleId: unit.id, ruleIndex: heldRowIndex(rule.index, slot), deviceId }, now, t);
    runtime.heldSaved[slot] = now;
  }
}

/** Evaluates the rules of `device` that `fresh` concerns and acts on each truth. */
export async function evaluateDevice(
  deps: TEngineDeps,
  rules: TProjectRules,
  state: TDeviceState,
  device: TIngestDevice,
  fresh: TFresh,
  counters: TRuleEngineCounters,
): Promise<void> {
  for (const unit of unitsFor(rules, device.id)) {
    const program = unit.program;
    let frame: TEvalFrame | null = null;
    for (const rule of program.rules) {
      if (!isTriggered(rule, fresh)) continue;
      const runtime = state.runtimes.get(stateId(unit.kind, unit.id, rule.index));
      if (!runtime) continue;
      if (!frame) {
        frame = createFrame(program.refs.length, program.aggregates.length, 0, program.valueKeys.length);
        fillFrame(frame, program.refs, state.values);
        if (program.valueKeys.length > 0) fillValueFrame(frame, program.valueKeys, state.values, fresh.keys);
        frame.t = state.t;
        if (program.aggregates.length > 0) {
          fillAggregates(frame, program.aggregates, await readAggregates(deps.db, device.id, program.aggregates, state.t));
        }
      }
      frame.held = runtime.held;
      const truth = rule.condition(frame);
      // Evaluated every time, like any held timer, so that a true condition restarts it.
      const clearTruth = rule.clear ? rule.clear(frame) : null;
      counters.evaluations += 1;
      if (truth === TRUE) counters.trueEvaluations += 1;
      else if (truth === UNKNOWN) counters.unknownEvaluations += 1;
      await saveHeld(deps.db, unit, rule, device.id, runtime, state.t);
      const outcome = await applyOutcome(deps, { rules, unit, rule, runtime, device, frame, truth, clearTruth });
      if (outcome === 'fired' || outcome === 'opened') counters.fired += 1;
      if (outcome === 'opened') counters.alertsOpened += 1;
      // A change is a moment: the rule is false again right after it (re-armed; its alert clears at once).
      if (rule.momentary && truth === TRUE)
        await applyOutcome(deps, { rules, unit, rule, runtime, device, frame, truth: FALSE, clearTruth: null });
    }
  }
}
