import { DEFAULT_ENGINE_CONFIG } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { RunQueue } from './run-queue.js';

describe('the run queue', () => {
  it('clear() takes out every waiting run and answers them, leaving the runs in progress alone', async () => {
    const started: number[] = [];
    const finish: (() => void)[] = [];
    const queue = new RunQueue<number>((n) => {
      started.push(n);
      return new Promise<void>((r) => finish.push(r));
    }, 10);
    const config = { ...DEFAULT_ENGINE_CONFIG, runs_per_second: 2 };
    for (let n = 1; n <= 5; n++) expect(queue.offer(1, config, n)).toBe(true);
    expect(queue.offer(2, config, 6)).toBe(true);
    expect(started).toEqual([1, 2, 6]);
    expect(queue.count(() => true)).toBe(3);

    expect(queue.clear()).toEqual([3, 4, 5]);
    expect(queue.count(() => true)).toBe(0);
    expect(queue.inProgress).toBe(3);
    expect(queue.busy).toBe(true);

    for (const f of finish) f();
    await new Promise((r) => setImmediate(r));
    queue.stop();
    // Nothing cleared ever starts, not even when the next second's allowance comes.
    expect(started).toEqual([1, 2, 6]);
    expect(queue.inProgress).toBe(0);
    expect(queue.busy).toBe(false);
  });

  it('starts a long backlog in arrival order, one at a time under a concurrency of 1, and is idle after the last', async () => {
    const started: number[] = [];
    const queue = new RunQueue<number>(async (n) => {
      started.push(n);
      await new Promise((r) => setImmediate(r));
    }, 1);
    const config = { ...DEFAULT_ENGINE_CONFIG, runs_per_second: 100_000, queue_max: 100_000 };
    const total = 5_000;
    for (let n = 0; n < total; n++) expect(queue.offer(1, config, n)).toBe(true);
    expect(queue.count(() => true)).toBe(total - 1);
    while (queue.busy) await new Promise((r) => setImmediate(r));
    queue.stop();
    expect(started).toEqual(Array.from({ length: total }, (_, n) => n));
    expect(queue.count(() => true)).toBe(0);
  });
});
