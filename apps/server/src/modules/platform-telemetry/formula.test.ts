import { describe, expect, it } from 'vitest';
import { FlowRunError } from '../evaluation/flows/expression.js';
import { compileFormula, FormulaError } from './formula.js';

const devices = [
  { alias: 'm1', keys: ['current', 'temperature'] },
  { alias: 'm2', keys: ['current', 'flow-rate'] },
];

function problemOf(formula: string) {
  try {
    compileFormula(formula, devices);
  } catch (err) {
    if (err instanceof FormulaError) return err.problem;
    throw err;
  }
  throw new Error(`${formula} compiled`);
}

describe('platform-telemetry formulas', () => {
  it('reads mounted devices’ keys by alias, calls the numeric functions, and multiplies by the coefficient', () => {
    const f = compileFormula('(m1.current + m2.current) * 220 + max(m1.temperature, 0) - m2["flow-rate"]', devices);
    expect([...f.reads].sort()).toEqual(['m1.current', 'm1.temperature', 'm2.current', 'm2.flow-rate']);
    const values = new Map([
      ['m1.current', 1.5],
      ['m2.current', 2],
      ['m1.temperature', -3],
      ['m2.flow-rate', 10],
    ]);
    expect(f.evaluate(values, 1)).toBe(3.5 * 220 - 10);
    expect(f.evaluate(values, 0.001)).toBeCloseTo(0.76, 12);
  });

  it('marks a problem at its place: syntax, an unknown key or alias, a function outside the list', () => {
    expect(problemOf('m1.current +')).toMatchObject({ code: 'syntax', position: 12 });
    expect(problemOf('m1.current + m1.curent')).toMatchObject({ code: 'unknown_name', params: { name: 'm1.curent' }, position: 13 });
    expect(problemOf('2 * m3.current')).toMatchObject({ code: 'unknown_name', position: 4 });
    expect(problemOf('m1.current + m2["flow"]')).toMatchObject({ code: 'unknown_name', position: 13 });
    expect(problemOf('now() + m1.current')).toMatchObject({ code: 'unknown_function', params: { name: 'now' }, position: 0 });
    expect(problemOf('m1 + 1')).toMatchObject({ code: 'unknown_name', params: { name: 'm1' }, position: 0 });
    expect(problemOf('sqrt(m1.current, 2)')).toMatchObject({ code: 'arity', position: 0 });
    expect(problemOf('m1.current.x')).toMatchObject({ code: 'unsupported_syntax' });
    expect(problemOf('m1.constructor')).toMatchObject({ code: 'unknown_name' });
  });

  it('gives no value, with the reason, for a missing input, ÷ 0 or a result that is not a finite number', () => {
    const f = compileFormula('m1.current / m2.current', devices);
    expect(() => f.evaluate(new Map([['m1.current', 1]]), 1)).toThrow(FlowRunError);
    expect(() =>
      f.evaluate(
        new Map([
          ['m1.current', 1],
          ['m2.current', 0],
        ]),
        1,
      ),
    ).toThrow(/division by zero/);
    expect(() => compileFormula('m1.current > 1', devices).evaluate(new Map([['m1.current', 2]]), 1)).toThrow(/not a number/);
    expect(() => compileFormula('m1.current', devices).evaluate(new Map([['m1.current', 1e308]]), 10)).toThrow(/finite/);
  });
});
