/**
 * Closure compilation of numeric expressions (docs/decisions/rules.md "num"): each node becomes a pre-written
 * closure over its already-resolved index or constant. Nothing is evaluated from rule text; a name that has no
 * value (property removed, key never reported) is NaN, "unknown".
 */
import { RULE_DEPTH_MAX, type TRuleNumExpr } from '@tessera/contracts';
import type { TNumFn } from './frame.js';
import type { ProgramSymbols } from './symbols.js';

/** What compiling one rule collects besides its closures. */
export interface TRuleScope {
  symbols: ProgramSymbols;
  /** The project's blockly-setting properties at compile time (the engine recompiles when the setting changes). */
  properties: ReadonlyMap<string, number>;
  /** Telemetry keys the rule reads: a fresh point of one of them evaluates the rule. */
  keys: Set<string>;
  /** The rule reads the status word: a fresh status word evaluates it. */
  usesStatus: boolean;
  /** `held` nodes so far (each gets a slot of the frame's `held`). */
  held: number;
  /** The rule tests `changed`: a moment, not a state (TCompiledRule.momentary). */
  momentary: boolean;
}

/** Thrown for a tree the engine refuses (deeper than RULE_DEPTH_MAX, an unknown node type). */
export class RuleProgramError extends Error {}

/** A compiled number plus what specialisation needs: a constant's value or a telemetry index. */
export interface TNumNode {
  fn: TNumFn;
  kind: 'constant' | 'telemetry' | 'other';
  /** The constant (kind constant) or the frame index (kind telemetry). */
  at: number;
}

/** Refuses nesting deeper than the compiler allows (keeps the closures' recursion bounded). */
export function assertDepth(depth: number): void {
  if (depth > RULE_DEPTH_MAX) throw new RuleProgramError(`rule conditions nest at most ${RULE_DEPTH_MAX} deep`);
}

/** A constant number (NaN for unknown). */
export function constantNode(value: number): TNumNode {
  return { fn: () => value, kind: 'constant', at: value };
}

/** Compiles a numeric expression. @throws RuleProgramError when too deep or of an unknown type. */
export function compileNum(e: TRuleNumExpr, scope: TRuleScope, depth: number): TNumNode {
  assertDepth(depth);
  switch (e.type) {
    case 'number':
      return constantNode(Number.isFinite(e.value) ? e.value : Number.NaN);
    case 'property': {
      const value = scope.properties.get(e.name);
      return constantNode(typeof value === 'number' && Number.isFinite(value) ? value : Number.NaN);
    }
    case 'telemetry': {
      scope.keys.add(e.key);
      const i = scope.symbols.telemetry(e.key, e.slot);
      return { fn: (f) => f.values[i], kind: 'telemetry', at: i };
    }
    case 'aggregate': {
      scope.keys.add(e.key);
      const i = scope.symbols.aggregate(e);
      return { fn: (f) => f.aggregates[i], kind: 'other', at: i };
    }
    default:
      throw new RuleProgramError('unknown value node');
  }
}
