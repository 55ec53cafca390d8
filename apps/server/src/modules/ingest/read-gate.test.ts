import { describe, expect, it } from 'vitest';
import { ReadGate } from './read-gate.js';

const nextTurn = () => new Promise((r) => setImmediate(r));

describe('ReadGate', () => {
  it('shuts at either bound and resumes its waiting readers on a later turn once below both', async () => {
    const gate = new ReadGate(2, 100);
    gate.enter(10);
    expect(gate.isOpen()).toBe(true);
    gate.enter(10);
    expect(gate.isOpen()).toBe(false);
    const resumed: string[] = [];
    gate.whenOpen(() => resumed.push('a'));
    gate.whenOpen(() => resumed.push('b'));
    await nextTurn();
    expect(resumed).toEqual([]);
    gate.leave(10);
    expect(resumed).toEqual([]);
    await nextTurn();
    expect(resumed).toEqual(['a', 'b']);

    gate.enter(95);
    expect(gate.open).toEqual({ publishes: 2, bytes: 105 });
    expect(gate.isOpen()).toBe(false);
    gate.leave(95);
    expect(gate.isOpen()).toBe(true);
  });

  it('resumes a reader that registers while open on the next turn, once', async () => {
    const gate = new ReadGate(1, 1);
    let calls = 0;
    gate.whenOpen(() => {
      calls += 1;
    });
    await nextTurn();
    gate.enter(0);
    gate.leave(0);
    await nextTurn();
    expect(calls).toBe(1);
  });
});
