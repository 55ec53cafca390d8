import { FLOW_PROBLEM_CODES, flowProblem } from '@tessera/contracts';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../locales/en.json';
import zh from '../locales/zh-TW.json';
import { problemKey, problemText } from './problems';

const lookup = (tree: unknown, key: string) => key.split('.').reduce<unknown>((node, k) => (node as Record<string, unknown>)?.[k], tree);

describe('apply problems', () => {
  it('have a text for every problem code in both languages', () => {
    for (const code of FLOW_PROBLEM_CODES) {
      expect(typeof lookup(en, problemKey(code)), code).toBe('string');
      expect(typeof lookup(zh, problemKey(code)), code).toBe('string');
    }
  });

  it('say a problem in the reader language with its node type and field by their labels', async () => {
    const t = i18next.createInstance();
    await t.init({ lng: 'zh-TW', resources: { 'zh-TW': { translation: zh }, en: { translation: en } } });
    expect(problemText(t.t, flowProblem('n2', 'needs_device', { node: 'alert' }))).toBe(
      `${lookup(zh, 'platformRules.nodes.alert')}需要觸發的裝置：請以遙測或狀態開始`,
    );
    expect(problemText(t.t, flowProblem('n3', 'unknown_name', { name: 'temp' }))).toBe('未知的名稱 temp');
    expect(problemText(t.t, flowProblem('n3', 'branch_twice', { branch: 'true' }))).toBe('有多個「真」分支');
    // A field the schema refuses: its label and what is wrong, never zod's or the schema's English.
    expect(
      problemText(
        t.t,
        flowProblem('n4', 'invalid_field', { field: 'message', detail: 'Too small', issue: 'too_small', minimum: 1, origin: 'string' }),
      ),
    ).toBe(`${lookup(zh, 'platformRules.fields.message')}：請填寫此欄位`);
    expect(problemText(t.t, flowProblem('n4', 'invalid_field', { field: 'key', detail: 'choose the key', issue: 'custom' }))).toBe(
      `${lookup(zh, 'platformRules.fields.key')}：請選擇遙測項目`,
    );
    expect(
      problemText(
        t.t,
        flowProblem('n4', 'invalid_field', { field: 'concurrency', detail: 'x', issue: 'too_big', maximum: 50, origin: 'number' }),
      ),
    ).toBe(`${lookup(zh, 'platformRules.fields.concurrency')}：不能大於 50`);
    // Stored before problems had codes: the English message as it is.
    expect(problemText(t.t, { message: 'old problem' })).toBe('old problem');
  });
});
