import { afterEach, describe, expect, it, vi } from 'vitest';
import { FlushClock, flushWaitMs } from './flush-clock.js';

describe('flushWaitMs', () => {
  it('is nothing with no write in flight and the whole interval with every writer busy', () => {
    expect(flushWaitMs(20, 0, 4)).toBe(0);
    expect(flushWaitMs(20, 1, 4)).toBe(5);
    expect(flushWaitMs(20, 3, 4)).toBe(15);
    expect(flushWaitMs(20, 4, 4)).toBe(20);
    expect(flushWaitMs(20, 9, 4)).toBe(20);
  });
});

describe('FlushClock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('with no write in flight, makes a batch due on the next turn of the event loop, not at once', async () => {
    const dueOnWake: boolean[] = [];
    const clock: FlushClock = new FlushClock(2_000, 4, () => dueOnWake.push(clock.due(Date.now(), 0)));
    expect(clock.due(Date.now(), 0)).toBe(false);
    expect(clock.due(Date.now(), 0)).toBe(false);
    await new Promise((r) => setImmediate(r));
    // One wake-up for the turn, however often it was asked, and the batch is due in it.
    expect(dueOnWake).toEqual([true]);
    // Outside that wake-up, a new batch waits for the next turn again.
    expect(clock.due(Date.now(), 0)).toBe(false);
    clock.stop();
  });

  it('with writes in flight, wakes once the batch is its share of the interval old', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    let wakes = 0;
    const clock = new FlushClock(20, 4, () => {
      wakes += 1;
    });
    const openedAt = Date.now();
    expect(clock.due(openedAt, 2)).toBe(false);
    vi.advanceTimersByTime(9);
    expect(wakes).toBe(0);
    vi.advanceTimersByTime(1);
    expect(wakes).toBe(1);
    expect(clock.due(openedAt, 2)).toBe(true);
  });

  it('wakes no one after stop', async () => {
    let wakes = 0;
    const clock = new FlushClock(20, 4, () => {
      wakes += 1;
    });
    clock.due(Date.now(), 0);
    clock.due(Date.now(), 3);
    clock.stop();
    await new Promise((r) => setTimeout(r, 40));
    expect(wakes).toBe(0);
  });
});
