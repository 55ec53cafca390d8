import { describe, expect, it } from 'vitest';
import { AckWindow } from './ack-window.js';

const turn = () => new Promise((r) => setImmediate(r));

describe('AckWindow', () => {
  it('acknowledges the settled prefix with one ack per event-loop turn', async () => {
    const acks: number[] = [];
    const w = new AckWindow((tag) => acks.push(tag));
    for (const tag of [1, 2, 3]) w.settle(tag, true);
    await turn();
    expect(acks).toEqual([3]);
  });

  it('holds back what follows an unsettled delivery until it settles', async () => {
    const acks: number[] = [];
    const w = new AckWindow((tag) => acks.push(tag));
    w.settle(2, true);
    w.settle(3, true);
    await turn();
    expect(acks).toEqual([]);
    expect(w.heldBack).toBe(2);
    w.settle(1, true);
    await turn();
    expect(acks).toEqual([3]);
    expect(w.heldBack).toBe(0);
  });

  it('never names a delivery given back with nack, and passes over it', async () => {
    const acks: number[] = [];
    const w = new AckWindow((tag) => acks.push(tag));
    w.settle(1, true);
    w.settle(2, false);
    await turn();
    expect(acks).toEqual([1]);
    w.settle(3, false);
    await turn();
    expect(acks).toEqual([1]);
    w.settle(4, true);
    await turn();
    expect(acks).toEqual([1, 4]);
  });
});
