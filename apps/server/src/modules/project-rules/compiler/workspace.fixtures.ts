/**
 * Builders of Blockly workspace JSON in the shape `Blockly.serialization.workspaces.save` writes, for the compiler's
 * unit tests, the rules integration tests and the e2e test. Block ids are given explicitly (`id`) so a test can
 * name the block an error must land on.
 */
import { RULE_BLOCK } from '@tessera/contracts';

/** A serialised block. */
export interface TRawBlock {
  type: string;
  id: string;
  x?: number;
  y?: number;
  fields?: Record<string, unknown>;
  inputs?: Record<string, { block: TRawBlock }>;
  next?: { block: TRawBlock };
  [key: string]: unknown;
}

/** A block of `type` with `id`, fields and value/statement inputs. */
export function block(
  type: string,
  id: string,
  fields: Record<string, unknown> = {},
  inputs: Record<string, TRawBlock | undefined> = {},
): TRawBlock {
  const plugged = Object.entries(inputs).filter((e): e is [string, TRawBlock] => e[1] !== undefined);
  return { type, id, fields, inputs: Object.fromEntries(plugged.map(([k, b]) => [k, { block: b }])) };
}

/** Links statement blocks through `next` and answers the first. */
export function chain(first: TRawBlock, ...rest: TRawBlock[]): TRawBlock {
  let at = first;
  for (const b of rest) {
    at.next = { block: b };
    at = b;
  }
  return first;
}

/** A workspace holding `top` blocks. */
export const workspace = (...top: TRawBlock[]) => ({ blocks: { languageVersion: 0, blocks: top } });

/** Shortcuts for the vocabulary of rules-blocks.ts. */
export const b = {
  rule: (id: string, cond?: TRawBlock, ...actions: TRawBlock[]) =>
    block(RULE_BLOCK.rule, id, {}, { COND: cond, DO: actions.length ? chain(actions[0], ...actions.slice(1)) : undefined }),
  telemetry: (id: string, key: string, slot = 'v1') => block(RULE_BLOCK.telemetry, id, { KEY: key, SLOT: slot }),
  number: (id: string, n: unknown) => block(RULE_BLOCK.number, id, { NUM: n }),
  property: (id: string, name: string) => block(RULE_BLOCK.property, id, { NAME: name }),
  status: (id: string, group: string) => block(RULE_BLOCK.status, id, { GROUP: group }),
  label: (id: string, label: string) => block(RULE_BLOCK.statusLabel, id, { LABEL: label }),
  compare: (id: string, a: TRawBlock | undefined, op: string, bb: TRawBlock | undefined) =>
    block(RULE_BLOCK.compare, id, { OP: op }, { A: a, B: bb }),
  logic: (id: string, a: TRawBlock | undefined, op: string, bb: TRawBlock | undefined) =>
    block(RULE_BLOCK.logic, id, { OP: op }, { A: a, B: bb }),
  not: (id: string, a?: TRawBlock) => block(RULE_BLOCK.not, id, {}, { A: a }),
  held: (id: string, a: TRawBlock | undefined, window: unknown, unit = 's') =>
    block(RULE_BLOCK.held, id, { WINDOW: window, UNIT: unit }, { A: a }),
  aggregate: (id: string, fn: string, key: string, window: unknown, unit = 's', slot = 'v1') =>
    block(RULE_BLOCK.aggregate, id, { FN: fn, KEY: key, SLOT: slot, WINDOW: window, UNIT: unit }),
  valueTest: (id: string, key: string, op: string, value = '') => block(RULE_BLOCK.valueTest, id, { KEY: key, OP: op, VALUE: value }),
  alert: (id: string, level: string, message: string) => block(RULE_BLOCK.alert, id, { LEVEL: level, MESSAGE: message }),
  notify: (id: string, channel: string, message: string) => block(RULE_BLOCK.notify, id, { CHANNEL: channel, MESSAGE: message }),
  command: (id: string, name: string, value?: TRawBlock) => block(RULE_BLOCK.command, id, { NAME: name }, { VALUE: value }),
};

/** "when temperature v1 > 30 then alert 'hot'" — the smallest program that compiles against the factory sensors. */
export const hotRule = (prefix = 'r') =>
  b.rule(
    `${prefix}-rule`,
    b.compare(`${prefix}-cmp`, b.telemetry(`${prefix}-t`, 'temperature'), 'gt', b.number(`${prefix}-n`, 30)),
    b.alert(`${prefix}-alert`, 'alert', 'Too hot'),
  );
