import type { TCompileResult } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { compileWorkspace, type TCompileContext } from './compile.js';
import { b, type TRawBlock, workspace } from './workspace.fixtures.js';

const ctx: TCompileContext = {
  sensors: [
    { key: 'temperature', value_count: 1, value_type: 'number' },
    { key: 'state', value_count: 1, value_type: 'string' },
    { key: 'door', value_count: 1, value_type: 'boolean' },
    { key: 'config', value_count: 1, value_type: 'json' },
  ],
  statusGroups: [],
  properties: [],
};
const compileCond = (cond: TRawBlock): TCompileResult => compileWorkspace(workspace(b.rule('r', cond, b.alert('a', 'alert', 'x'))), ctx);
const errorsOf = (r: TCompileResult) => r.errors.map((e) => [e.block_id, e.code]);

describe('compileWorkspace: tests of keys that are not numbers', () => {
  it('compiles equals, contains and changed into value conditions typed by the key', () => {
    const cond = (block: TRawBlock) => compileCond(block).program?.rules[0]?.condition;
    expect(cond(b.valueTest('v', 'state', 'equals', ' fault'))).toEqual({ type: 'value', key: 'state', op: 'equals', value: ' fault' });
    expect(cond(b.valueTest('v', 'door', 'equals', 'true'))).toEqual({ type: 'value', key: 'door', op: 'equals', value: true });
    expect(cond(b.valueTest('v', 'config', 'contains', '{"mode":"auto"}'))).toEqual({
      type: 'value',
      key: 'config',
      op: 'contains',
      value: { mode: 'auto' },
    });
    expect(cond(b.valueTest('v', 'state', 'changed', 'ignored'))).toEqual({ type: 'value', key: 'state', op: 'changed', value: null });
  });

  it('refuses a number key, an operator the type lacks, a value of the wrong type, and numbers read from a string key', () => {
    expect(errorsOf(compileCond(b.valueTest('v', 'temperature', 'equals', '3')))).toEqual([['v', 'type_mismatch']]);
    expect(errorsOf(compileCond(b.valueTest('v', 'door', 'contains', 'true')))).toEqual([['v', 'bad_operator']]);
    expect(errorsOf(compileCond(b.valueTest('v', 'door', 'equals', 'yes')))).toEqual([['v', 'bad_field']]);
    expect(errorsOf(compileCond(b.valueTest('v', 'config', 'equals', '"text"')))).toEqual([['v', 'bad_field']]);
    expect(errorsOf(compileCond(b.valueTest('v', 'state', 'contains', '')))).toEqual([['v', 'bad_field']]);
    expect(errorsOf(compileCond(b.valueTest('v', 'nope', 'equals', 'x')))).toEqual([['v', 'unknown_key']]);
    expect(errorsOf(compileCond(b.compare('c', b.telemetry('t', 'state'), 'gt', b.number('n', 1))))).toEqual([['t', 'type_mismatch']]);
  });
});
