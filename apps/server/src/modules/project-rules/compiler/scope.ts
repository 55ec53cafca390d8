/** What a compile knows about the project, and how it collects errors. */
import {
  RULE_WINDOW_MAX_S,
  RULE_WINDOW_MIN_S,
  RULE_WINDOW_UNITS,
  type TCompileError,
  type TCompileErrorCode,
  type TStatusGroup,
  type TTelemetryValueType,
} from '@tessera/contracts';
import type { TBlockNode } from './nodes.js';

/** The project facts a workspace is checked against. */
export interface TCompileContext {
  /**
   * The project's sensors: telemetry keys, how many values (v1..v3) a point carries and the type of its values
   * (absent: number).
   */
  sensors: readonly { key: string; value_count: number; value_type?: TTelemetryValueType }[];
  /** The project's status definition. */
  statusGroups: readonly TStatusGroup[];
  /** Names of the project's blockly-setting properties. */
  properties: readonly string[];
}

/** A compile in progress: the context and the errors found so far. */
export interface TScope {
  ctx: TCompileContext;
  errors: TCompileError[];
}

/** Records an error on `node` (null: the workspace) and answers null, so callers can `return fail(…)`. */
export function fail(scope: TScope, node: TBlockNode | null, code: TCompileErrorCode, message: string): null {
  scope.errors.push({ block_id: node?.id ?? null, code, message });
  return null;
}

/** The string field `name` when it is one of `choices`; else records `bad_field` and answers null. */
export function choiceField<T extends string>(scope: TScope, node: TBlockNode, name: string, choices: readonly T[]): T | null {
  const v = node.fields[name];
  if (typeof v === 'string' && (choices as readonly string[]).includes(v)) return v as T;
  return fail(scope, node, 'bad_field', `${name} must be one of ${choices.join(', ')}`);
}

/** The trimmed string field `name` ('' when absent or not a string). */
export function textField(node: TBlockNode, name: string): string {
  const v = node.fields[name];
  return typeof v === 'string' ? v.trim() : '';
}

/**
 * The window of fields WINDOW (a number) and UNIT (s or min) in whole seconds, within
 * RULE_WINDOW_MIN_S..RULE_WINDOW_MAX_S; else records the error and answers null.
 */
export function windowField(scope: TScope, node: TBlockNode): number | null {
  const unit = choiceField(scope, node, 'UNIT', Object.keys(RULE_WINDOW_UNITS) as (keyof typeof RULE_WINDOW_UNITS)[]);
  if (unit === null) return null;
  const n = node.fields.WINDOW;
  if (typeof n !== 'number' || !Number.isFinite(n)) return fail(scope, node, 'bad_number', 'the window is not a number');
  const seconds = n * RULE_WINDOW_UNITS[unit];
  if (!Number.isInteger(seconds) || seconds < RULE_WINDOW_MIN_S || seconds > RULE_WINDOW_MAX_S) {
    return fail(scope, node, 'window_out_of_range', `a window is ${RULE_WINDOW_MIN_S} to ${RULE_WINDOW_MAX_S} whole seconds`);
  }
  return seconds;
}
