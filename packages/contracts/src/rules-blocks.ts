/**
 * The Blockly vocabulary of project rule programs, shared by the console's block definitions and the server's
 * compiler: block types, their field and input names, and the compile errors. A workspace is what
 * `Blockly.serialization.workspaces.save` answers; the server reads only the blocks listed here.
 *
 * | block               | fields                          | inputs (value ◇, statement ▭)   | gives              |
 * | ------------------- | ------------------------------- | ------------------------------- | ------------------ |
 * | `tessera_rule`      |                                 | COND ◇ condition, DO ▭ actions  | a rule (top level) |
 * | `tessera_telemetry` | KEY, SLOT                       |                                 | number             |
 * | `tessera_aggregate` | FN, KEY, SLOT, WINDOW, UNIT     |                                 | number             |
 * | `tessera_number`    | NUM                             |                                 | number             |
 * | `tessera_property`  | NAME (blockly-setting property) |                                 | number             |
 * | `tessera_status`    | GROUP (status group name)       |                                 | status value       |
 * | `tessera_status_label` | LABEL                        |                                 | status label       |
 * | `tessera_compare`   | OP                              | A ◇, B ◇                        | condition          |
 * | `tessera_logic`     | OP (and, or)                    | A ◇, B ◇                        | condition          |
 * | `tessera_not`       |                                 | A ◇                             | condition          |
 * | `tessera_held`      | WINDOW, UNIT                    | A ◇                             | condition          |
 * | `tessera_value_test` | KEY, OP (equals, contains, changed), VALUE (text) |               | condition          |
 * | `tessera_alert`     | LEVEL, MESSAGE                  |                                 | action             |
 * | `tessera_notify`    | CHANNEL, MESSAGE                |                                 | action             |
 * | `tessera_command`   | NAME                            | VALUE ◇ (optional number)       | action             |
 */
import { z } from 'zod';

/** Block type names. */
export const RULE_BLOCK = {
  rule: 'tessera_rule',
  telemetry: 'tessera_telemetry',
  aggregate: 'tessera_aggregate',
  number: 'tessera_number',
  property: 'tessera_property',
  status: 'tessera_status',
  statusLabel: 'tessera_status_label',
  compare: 'tessera_compare',
  logic: 'tessera_logic',
  not: 'tessera_not',
  held: 'tessera_held',
  /** A test of a key whose values are not numbers: KEY equals / contains VALUE (typed by the key), or changed. */
  valueTest: 'tessera_value_test',
  alert: 'tessera_alert',
  notify: 'tessera_notify',
  command: 'tessera_command',
} as const;
export type TRuleBlockType = (typeof RULE_BLOCK)[keyof typeof RULE_BLOCK];

/** Window units of the WINDOW/UNIT fields, in seconds each. */
export const RULE_WINDOW_UNITS = { s: 1, min: 60 } as const;
export type TRuleWindowUnit = keyof typeof RULE_WINDOW_UNITS;
/** Logic operators of `tessera_logic`. */
export const LOGIC_OPS = ['and', 'or'] as const;

/** Blocks in one workspace (every block, nested ones included). */
export const BLOCKLY_BLOCKS_MAX = 200;
/** The workspace JSON (as `JSON.stringify` writes it) may be at most this many characters. */
export const BLOCKLY_WORKSPACE_MAX_CHARS = 200_000;

/** Why a workspace does not compile. */
export const COMPILE_ERROR_CODES = [
  /** The workspace has no `tessera_rule` block. */
  'no_rules',
  /** More than {@link BLOCKLY_BLOCKS_MAX} blocks, or more rules than a program holds. */
  'too_many_blocks',
  /** Conditions nested deeper than RULE_DEPTH_MAX. */
  'too_deep',
  /** A block type the compiler does not know. */
  'unknown_block',
  /** A block outside any rule. */
  'orphan_block',
  /** A required input is empty (a rule without condition or actions, a comparison with one side, …). */
  'missing_input',
  /** A block where another kind is expected (a status label compared with a number, an action as a condition, …). */
  'type_mismatch',
  /** A status group compared with an operator other than = or ≠. */
  'bad_operator',
  /** A field value outside its choices (operator, slot, level, unit, …). */
  'bad_field',
  /** The telemetry key is not one of the project's sensors. */
  'unknown_key',
  /** The slot (v2, v3) is past the sensor's values per point. */
  'slot_out_of_range',
  /** The status group is not in the project's status definition. */
  'unknown_status_group',
  /** The label is not a value of the status group it is compared with. */
  'unknown_label',
  /** The property is not in the project's blockly setting. */
  'unknown_property',
  /** A number field that is not a finite number. */
  'bad_number',
  /** A window outside RULE_WINDOW_MIN_S..RULE_WINDOW_MAX_S seconds, or not whole seconds. */
  'window_out_of_range',
  /** A message that is empty or longer than RULE_MESSAGE_MAX. */
  'bad_message',
  /** A command name that is not RULE_COMMAND_NAME_PATTERN. */
  'bad_command',
  /** Too many actions in one rule. */
  'too_many_actions',
] as const;
export type TCompileErrorCode = (typeof COMPILE_ERROR_CODES)[number];

/** One compile error: the block it is about (null: the whole workspace), a stable code and an English message. */
export const ZCompileError = z.object({
  block_id: z.string().nullable(),
  code: z.enum(COMPILE_ERROR_CODES),
  message: z.string(),
});
export type TCompileError = z.infer<typeof ZCompileError>;
