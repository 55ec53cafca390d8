import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AlertPublisher } from './live-publisher.js';

describe('live alert publishes', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('go out at once, then collapse a burst into one more publish', async () => {
    const calls: number[] = [];
    let release: () => void = () => undefined;
    const publisher = new AlertPublisher(async (id) => {
      calls.push(id);
      if (calls.length === 1) await new Promise<void>((r) => (release = r));
    }, 10);
    publisher.changed(7);
    for (let i = 0; i < 5; i++) publisher.changed(7);
    publisher.changed(8);
    expect(calls).toEqual([7, 8]);
    release();
    const idle = publisher.idle();
    await vi.advanceTimersByTimeAsync(10);
    await idle;
    expect(calls).toEqual([7, 8, 7]);
  });

  it('publish the changes of many recently published alerts together, once per interval', async () => {
    const ticks: number[][] = [];
    let tick: number[] = [];
    const publisher = new AlertPublisher(async (id) => {
      if (tick.length === 0) queueMicrotask(() => ticks.push(tick));
      tick.push(id);
      await Promise.resolve();
    }, 1_000);
    const flushTick = () => {
      tick = [];
    };
    // Two hundred alerts open one after another over half a second: each first publish goes out at once.
    for (let id = 1; id <= 200; id++) {
      flushTick();
      publisher.changed(id);
      await vi.advanceTimersByTimeAsync(2.5);
    }
    expect(ticks.length).toBe(200);
    ticks.length = 0;
    // Then every alert is counted again and again: one publish each per second, all in one tick.
    for (let round = 0; round < 3; round++) {
      for (let n = 0; n < 5; n++) for (let id = 1; id <= 200; id++) publisher.changed(id);
      flushTick();
      await vi.advanceTimersByTimeAsync(1_000);
    }
    expect(ticks.map((t) => t.length)).toEqual([200, 200, 200]);
    await publisher.idle();
  });

  it('publish an alert quiet for longer than the interval at once', async () => {
    const calls: [number, number][] = [];
    const publisher = new AlertPublisher(async (id) => {
      calls.push([id, Date.now()]);
    }, 1_000);
    publisher.changed(3);
    await vi.advanceTimersByTimeAsync(1_500);
    publisher.changed(3);
    expect(calls).toEqual([
      [3, 1_000_000],
      [3, 1_001_500],
    ]);
    publisher.changed(3);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toEqual([
      [3, 1_000_000],
      [3, 1_001_500],
      [3, 1_002_500],
    ]);
  });

  it('remember a bounded number of publish times, however many alerts are published once and never again', async () => {
    const publisher = new AlertPublisher(async () => undefined, 1_000);
    for (let id = 1; id <= 50_000; id++) {
      publisher.changed(id);
      if (id % 1_000 === 0) await vi.advanceTimersByTimeAsync(1_000);
    }
    await publisher.idle();
    expect(publisher.remembered).toBeLessThan(10_000);
  });

  it('never publish one alert twice at once: a change during its publish waits for the flush after it ends', async () => {
    let running = 0;
    let most = 0;
    let release: () => void = () => undefined;
    const publisher = new AlertPublisher(async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((r) => (release = r));
      running -= 1;
    }, 100);
    publisher.changed(5);
    publisher.changed(5);
    await vi.advanceTimersByTimeAsync(300);
    expect(most).toBe(1);
    release();
    await vi.advanceTimersByTimeAsync(100);
    expect(running).toBe(1);
    release();
    await publisher.idle();
    expect(most).toBe(1);
  });
});
