import { describe, expect, it } from 'vitest';
import { applyCompletion, completionsFor, nextAlias, wordAtCaret } from './formula';

const devices = [
  { alias: 'm1', name: 'Press A', keys: ['current', 'temperature'] },
  { alias: 'm2', name: 'Press B', keys: ['current'] },
  { alias: 'fan', name: 'Fan', keys: ['speed'] },
];

describe('formula editor completion', () => {
  it('finds the word being typed at the caret', () => {
    expect(wordAtCaret('(m1.cur', 7)).toEqual({ start: 1, text: 'm1.cur' });
    expect(wordAtCaret('m1.current + m', 14)).toEqual({ start: 13, text: 'm' });
    expect(wordAtCaret('m1.current + ', 13)).toBeNull();
    expect(wordAtCaret('2 * 3', 5)).toBeNull();
  });

  it('offers the keys of the typed alias, the keys of aliases that start so, and functions', () => {
    expect(completionsFor(wordAtCaret('m1.', 3), devices).map((c) => c.value)).toEqual(['m1.current', 'm1.temperature']);
    expect(completionsFor(wordAtCaret('m1.t', 4), devices).map((c) => c.value)).toEqual(['m1.temperature']);
    expect(completionsFor(wordAtCaret('m', 1), devices).map((c) => c.value)).toEqual([
      'm1.current',
      'm1.temperature',
      'm2.current',
      'min(',
      'max(',
    ]);
    expect(completionsFor(wordAtCaret('f', 1), devices).map((c) => c.value)).toEqual(['fan.speed', 'floor(']);
    expect(completionsFor(wordAtCaret('m1.current + ', 13), devices)).toEqual([]);
  });

  it('replaces the word by the chosen completion and puts the caret after it', () => {
    const text = '(m1.cu + 2) * 3';
    const word = wordAtCaret(text, 6);
    expect(word).not.toBeNull();
    expect(applyCompletion(text, word!, 'm1.current')).toEqual({ text: '(m1.current + 2) * 3', caret: 11 });
  });

  it('names a new mounted device with the next free alias', () => {
    expect(nextAlias([])).toBe('m1');
    expect(nextAlias(['m1', 'm3'])).toBe('m2');
  });
});
