import { describe, expect, it } from 'vitest';
import { AdmissionGate } from './admission.js';

describe('AdmissionGate', () => {
  it('admits at once below its bound, then one waiter at a time, first come first served', async () => {
    const gate = new AdmissionGate(100);
    expect(gate.enter()).toBeNull();
    gate.added(100);
    const order: string[] = [];
    const a = gate.enter()?.then(() => order.push('a'));
    const b = gate.enter()?.then(() => order.push('b'));
    expect(gate.waiting).toBe(2);
    gate.release(60);
    await a;
    // b waits until a has added what it holds, and the bound has room again
    gate.added(70);
    await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual(['a']);
    gate.release(50);
    await b;
    expect(order).toEqual(['a', 'b']);
    gate.added(0);
    expect(gate.heldPoints).toBe(60);
  });

  it('lets no newcomer pass those already waiting', () => {
    const gate = new AdmissionGate(10);
    expect(gate.enter()).toBeNull();
    gate.added(10);
    void gate.enter();
    gate.release(10);
    // the waiter was granted the turn; a newcomer queues behind it even though the gate has room
    expect(gate.enter()).not.toBeNull();
  });

  it('rejects the waiting on close', async () => {
    const gate = new AdmissionGate(1);
    expect(gate.enter()).toBeNull();
    gate.added(1);
    const waiting = gate.enter();
    gate.close(new Error('closing'));
    await expect(waiting).rejects.toThrow('closing');
  });
});
