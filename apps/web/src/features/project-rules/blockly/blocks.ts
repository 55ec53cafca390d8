/**
 * The rule blocks (vocabulary: RULE_BLOCK in packages/contracts rules-blocks.ts, compiled by the server). Block
 * text comes from i18n (`projectRules.blocks.*`, `%1`… mark where fields and inputs go, so each language orders its
 * sentence). Connection checks keep conditions, numbers and actions apart; a comparison takes any two values and the
 * server's compile says when they do not fit (a status label against a number).
 */
import {
  AGGREGATE_FNS,
  ALERT_LEVELS,
  COMPARE_OPS,
  LOGIC_OPS,
  NOTIFY_CHANNELS,
  RULE_BLOCK,
  RULE_WINDOW_UNITS,
  TELEMETRY_SLOTS,
  VALUE_TEST_OPS,
} from '@tessera/contracts';
import * as Blockly from 'blockly/core';
import type { TTranslate } from '../../../lib/zodRules';
import { COMPARE_SIGNS } from '../ruleText';
import { registerProjectDropdown } from './projectDropdown';

/** Block colours (hue), one per toolbox category. */
export const RULE_HUES = { rule: 290, value: 210, status: 160, condition: 120, time: 30, action: 0 } as const;

/** Defines (or redefines, after a language change) every rule block in the language of `t`. */
export function defineRuleBlocks(t: TTranslate): void {
  registerProjectDropdown();
  const choices = (values: readonly string[], prefix: string) => values.map((v) => [t(`${prefix}.${v}`), v]);
  const project = (name: string, source: string) => ({ type: 'field_project_dropdown', name, source });
  const slot = { type: 'field_dropdown', name: 'SLOT', options: TELEMETRY_SLOTS.map((s) => [s, s]) };
  const windowFields = [
    { type: 'field_number', name: 'WINDOW', value: 60, min: 0 },
    { type: 'field_dropdown', name: 'UNIT', options: choices(Object.keys(RULE_WINDOW_UNITS), 'projectRules.blocks.units') },
  ];
  const message = { type: 'field_input', name: 'MESSAGE', text: t('projectRules.blocks.defaultMessage') };
  const action = { previousStatement: 'Action', nextStatement: 'Action', colour: RULE_HUES.action };

  Blockly.common.defineBlocksWithJsonArray([
    {
      type: RULE_BLOCK.rule,
      message0: t('projectRules.blocks.when'),
      args0: [{ type: 'input_value', name: 'COND', check: 'Boolean' }],
      message1: t('projectRules.blocks.then'),
      args1: [{ type: 'input_statement', name: 'DO', check: 'Action' }],
      colour: RULE_HUES.rule,
    },
    {
      type: RULE_BLOCK.telemetry,
      message0: t('projectRules.blocks.telemetry'),
      args0: [project('KEY', 'keys'), slot],
      output: 'Number',
      colour: RULE_HUES.value,
    },
    {
      type: RULE_BLOCK.aggregate,
      message0: t('projectRules.blocks.aggregate'),
      args0: [
        { type: 'field_dropdown', name: 'FN', options: choices(AGGREGATE_FNS, 'projectRules.blocks.fns') },
        project('KEY', 'keys'),
        slot,
        ...windowFields,
      ],
      output: 'Number',
      colour: RULE_HUES.time,
    },
    {
      type: RULE_BLOCK.number,
      message0: '%1',
      args0: [{ type: 'field_number', name: 'NUM', value: 0 }],
      output: 'Number',
      colour: RULE_HUES.value,
    },
    {
      type: RULE_BLOCK.property,
      message0: t('projectRules.blocks.property'),
      args0: [project('NAME', 'properties')],
      output: 'Number',
      colour: RULE_HUES.value,
    },
    {
      type: RULE_BLOCK.status,
      message0: t('projectRules.blocks.status'),
      args0: [project('GROUP', 'groups')],
      output: 'Status',
      colour: RULE_HUES.status,
    },
    {
      type: RULE_BLOCK.statusLabel,
      message0: t('projectRules.blocks.label'),
      args0: [project('LABEL', 'labels')],
      output: 'StatusLabel',
      colour: RULE_HUES.status,
    },
    {
      type: RULE_BLOCK.compare,
      message0: '%1 %2 %3',
      args0: [
        { type: 'input_value', name: 'A' },
        { type: 'field_dropdown', name: 'OP', options: COMPARE_OPS.map((op) => [COMPARE_SIGNS[op], op]) },
        { type: 'input_value', name: 'B' },
      ],
      inputsInline: true,
      output: 'Boolean',
      colour: RULE_HUES.condition,
    },
    {
      type: RULE_BLOCK.valueTest,
      message0: t('projectRules.blocks.valueTest'),
      args0: [
        project('KEY', 'valueKeys'),
        { type: 'field_dropdown', name: 'OP', options: choices(VALUE_TEST_OPS, 'projectRules.simple.ops') },
        { type: 'field_input', name: 'VALUE', text: '' },
      ],
      output: 'Boolean',
      colour: RULE_HUES.condition,
      tooltip: t('projectRules.blocks.valueTestHelp'),
    },
    {
      type: RULE_BLOCK.logic,
      message0: '%1 %2 %3',
      args0: [
        { type: 'input_value', name: 'A', check: 'Boolean' },
        { type: 'field_dropdown', name: 'OP', options: choices(LOGIC_OPS, 'projectRules.blocks.logic') },
        { type: 'input_value', name: 'B', check: 'Boolean' },
      ],
      inputsInline: true,
      output: 'Boolean',
      colour: RULE_HUES.condition,
    },
    {
      type: RULE_BLOCK.not,
      message0: t('projectRules.blocks.not'),
      args0: [{ type: 'input_value', name: 'A', check: 'Boolean' }],
      output: 'Boolean',
      colour: RULE_HUES.condition,
    },
    {
      type: RULE_BLOCK.held,
      message0: t('projectRules.blocks.held'),
      args0: [{ type: 'input_value', name: 'A', check: 'Boolean' }, ...windowFields],
      inputsInline: true,
      output: 'Boolean',
      colour: RULE_HUES.time,
    },
    {
      type: RULE_BLOCK.alert,
      message0: t('projectRules.blocks.alert'),
      args0: [{ type: 'field_dropdown', name: 'LEVEL', options: choices([...ALERT_LEVELS].reverse(), 'projectRules.levels') }, message],
      ...action,
    },
    {
      type: RULE_BLOCK.notify,
      message0: t('projectRules.blocks.notify'),
      args0: [{ type: 'field_dropdown', name: 'CHANNEL', options: choices(NOTIFY_CHANNELS, 'projectRules.channels') }, message],
      ...action,
    },
    {
      type: RULE_BLOCK.command,
      message0: t('projectRules.blocks.command'),
      args0: [
        { type: 'field_input', name: 'NAME', text: 'reboot' },
        { type: 'input_value', name: 'VALUE', check: 'Number' },
      ],
      inputsInline: true,
      ...action,
    },
  ]);
}

/** The category toolbox of the rule editor; `toolboxitemid`s are `rules-cat-<name>`. */
export function ruleToolbox(t: TTranslate): Blockly.utils.toolbox.ToolboxDefinition {
  const category = (id: keyof typeof RULE_HUES, types: string[]) => ({
    kind: 'category',
    name: t(`projectRules.toolbox.${id}`),
    toolboxitemid: `rules-cat-${id}`,
    colour: String(RULE_HUES[id]),
    contents: types.map((type) => ({ kind: 'block', type })),
  });
  return {
    kind: 'categoryToolbox',
    contents: [
      category('rule', [RULE_BLOCK.rule]),
      category('value', [RULE_BLOCK.telemetry, RULE_BLOCK.number, RULE_BLOCK.property]),
      category('status', [RULE_BLOCK.status, RULE_BLOCK.statusLabel]),
      category('condition', [RULE_BLOCK.compare, RULE_BLOCK.valueTest, RULE_BLOCK.logic, RULE_BLOCK.not]),
      category('time', [RULE_BLOCK.held, RULE_BLOCK.aggregate]),
      category('action', [RULE_BLOCK.alert, RULE_BLOCK.notify, RULE_BLOCK.command]),
    ],
  };
}
