/**
 * The Blockly compiler (spec §4 "Blockly programs can be compiled"): walks a workspace as the console serialised it
 * and answers the typed rule program (ZRuleProgram) or every error found, block by block. Pure TypeScript over
 * JSON: Blockly is not loaded on the server and nothing is evaluated. Vocabulary: packages/contracts rules-blocks.ts.
 */
import {
  BLOCKLY_BLOCKS_MAX,
  RULE_BLOCK,
  RULE_PROGRAM_VERSION,
  RULES_PER_PROGRAM_MAX,
  type TCompileResult,
  type TRule,
  ZRuleProgram,
} from '@tessera/contracts';
import { compileActions } from './actions.js';
import { countBlocks, readNode, type TBlockNode, topBlocks } from './nodes.js';
import { fail, type TCompileContext, type TScope } from './scope.js';
import { conditionInput } from './values.js';

export type { TCompileContext } from './scope.js';

/**
 * Compiles `workspace` against the project facts `ctx`. Each enabled top-level `tessera_rule` becomes one rule, in
 * workspace order; any other enabled top-level block is an `orphan_block` error. Never throws for bad input.
 */
export function compileWorkspace(workspace: unknown, ctx: TCompileContext): TCompileResult {
  const scope: TScope = { ctx, errors: [] };
  const roots = topBlocks(workspace);
  if (countBlocks(roots, BLOCKLY_BLOCKS_MAX) > BLOCKLY_BLOCKS_MAX) {
    fail(scope, null, 'too_many_blocks', `a program has at most ${BLOCKLY_BLOCKS_MAX} blocks`);
    return { ok: false, program: null, errors: scope.errors };
  }
  const rules: TRule[] = [];
  let ruleCount = 0;
  for (const raw of roots) {
    const node = readNode(raw);
    if (!node) {
      fail(scope, null, 'unknown_block', 'a top-level entry is not a block');
    } else if (!node.enabled) {
    } else if (node.type === RULE_BLOCK.rule) {
      ruleCount += 1;
      const rule = compileRule(scope, node);
      if (rule) rules.push(rule);
    } else {
      fail(scope, node, 'orphan_block', 'this block is not inside a rule');
    }
  }
  if (ruleCount === 0) fail(scope, null, 'no_rules', 'the program has no rule block');
  if (ruleCount > RULES_PER_PROGRAM_MAX) fail(scope, null, 'too_many_blocks', `a program has at most ${RULES_PER_PROGRAM_MAX} rules`);
  if (scope.errors.length > 0) return { ok: false, program: null, errors: scope.errors };
  // Every bound of the tree was checked above; parsing proves the compiler and the schema agree.
  return { ok: true, program: ZRuleProgram.parse({ version: RULE_PROGRAM_VERSION, rules }), errors: [] };
}

function compileRule(scope: TScope, node: TBlockNode): TRule | null {
  const condition = conditionInput(scope, node, 'COND', 1);
  const actions = compileActions(scope, node);
  const after = readNode(node.next);
  if (after) fail(scope, after, 'orphan_block', 'this block is not inside a rule');
  return condition && actions ? { block_id: node.id, condition, actions } : null;
}
