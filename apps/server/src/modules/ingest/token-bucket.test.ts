import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket.js';

const T = 1_767_225_600_000;

describe('TokenBucket', () => {
  it('allows a burst, then refuses until a clock has moved on', () => {
    const b = new TokenBucket(10, 50, 0);
    expect(b.take(50, T, 0)).toBe(true);
    expect(b.take(1, T, 0)).toBe(false);
    expect(b.take(10, T, 999)).toBe(false);
    expect(b.take(10, T, 1000)).toBe(true);
  });

  it('charges a backlog read all at once by the device clock: a device at the rate is never refused', () => {
    const b = new TokenBucket(1000, 5000, 0);
    // 60 s of points at exactly 1000/s, read by the server within the same millisecond
    for (let s = 0; s < 600; s += 1) expect(b.take(100, T + s * 100 + 99, 5)).toBe(true);
  });

  it('limits a device whose own timestamps are denser than the rate', () => {
    const b = new TokenBucket(1000, 5000, 0);
    let accepted = 0;
    // 10,000 points/s by the device's clock, read as they come (server clock advancing the same)
    for (let ms = 0; ms < 10_000; ms += 10) if (b.take(100, T + ms, ms)) accepted += 100;
    expect(accepted).toBeGreaterThanOrEqual(14_900);
    expect(accepted).toBeLessThanOrEqual(15_000);
  });

  it('earns nothing from a device clock jumping back and forth', () => {
    const b = new TokenBucket(1000, 5000, 0);
    expect(b.take(5000, T + 3_600_000, 0)).toBe(true);
    expect(b.take(1000, T, 0)).toBe(false);
    expect(b.take(1000, T + 3_600_000, 0)).toBe(false);
  });

  it('refills with the server clock when the device clock stands still (a clock set back)', () => {
    const b = new TokenBucket(1000, 5000, 0);
    expect(b.take(5000, T + 60_000, 0)).toBe(true);
    expect(b.take(1000, T, 1000)).toBe(true);
  });

  it('never holds more than the burst, and takes nothing when it refuses', () => {
    const b = new TokenBucket(1000, 5, 0);
    expect(b.take(6, T + 60_000, 60_000)).toBe(false);
    expect(b.take(5, T + 60_000, 60_000)).toBe(true);
  });
});
