/** Action blocks (the DO chain of a rule) → rule actions: alert, notify, command. */
import {
  ALERT_LEVELS,
  NOTIFY_CHANNELS,
  RULE_ACTIONS_MAX,
  RULE_BLOCK,
  RULE_COMMAND_NAME_PATTERN,
  RULE_MESSAGE_MAX,
  type TRuleAction,
} from '@tessera/contracts';
import { inputOf, readNode, type TBlockNode } from './nodes.js';
import { choiceField, fail, textField, type TScope } from './scope.js';
import { numberInput } from './values.js';

/**
 * The actions of `rule`'s DO chain, in order; disabled blocks are skipped. Records missing_input when there is none,
 * too_many_actions past RULE_ACTIONS_MAX, and the errors of each action. Iterative over the chain.
 */
export function compileActions(scope: TScope, rule: TBlockNode): TRuleAction[] | null {
  const actions: (TRuleAction | null)[] = [];
  for (let node = readNode(inputOf(rule, 'DO')); node; node = readNode(node.next)) {
    if (node.enabled) actions.push(compileAction(scope, node));
  }
  if (actions.length === 0) return fail(scope, rule, 'missing_input', 'the rule has no action');
  if (actions.length > RULE_ACTIONS_MAX) return fail(scope, rule, 'too_many_actions', `a rule has at most ${RULE_ACTIONS_MAX} actions`);
  return actions.every((a) => a !== null) ? (actions as TRuleAction[]) : null;
}

function message(scope: TScope, node: TBlockNode): string | null {
  const text = textField(node, 'MESSAGE');
  if (text.length === 0 || text.length > RULE_MESSAGE_MAX) {
    return fail(scope, node, 'bad_message', `a message is 1 to ${RULE_MESSAGE_MAX} characters`);
  }
  return text;
}

function compileAction(scope: TScope, node: TBlockNode): TRuleAction | null {
  switch (node.type) {
    case RULE_BLOCK.alert: {
      const level = choiceField(scope, node, 'LEVEL', ALERT_LEVELS);
      const text = message(scope, node);
      return level && text !== null ? { type: 'alert', level, message: text } : null;
    }
    case RULE_BLOCK.notify: {
      const channel = choiceField(scope, node, 'CHANNEL', NOTIFY_CHANNELS);
      const text = message(scope, node);
      return channel && text !== null ? { type: 'notify', channel, message: text } : null;
    }
    case RULE_BLOCK.command: {
      const name = textField(node, 'NAME');
      const bad = !RULE_COMMAND_NAME_PATTERN.test(name);
      if (bad) fail(scope, node, 'bad_command', 'a command name is 1–32 of A–Z, a–z, 0–9, _ . - starting with a letter');
      const hasValue = readNode(inputOf(node, 'VALUE'))?.enabled === true;
      const value = hasValue ? numberInput(scope, node, 'VALUE', 1) : null;
      if (bad || (hasValue && value === null)) return null;
      return { type: 'command', name, value };
    }
    default:
      if ((Object.values(RULE_BLOCK) as string[]).includes(node.type)) {
        return fail(scope, node, 'type_mismatch', 'only actions (alert, notify, command) go under "then"');
      }
      return fail(scope, node, 'unknown_block', `unknown block type ${node.type}`);
  }
}
