import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket.js';

describe('TokenBucket', () => {
  it('allows a burst, then refuses until refilled', () => {
    const b = new TokenBucket(10, 50, 0);
    expect(b.take(50, 0)).toBe(true);
    expect(b.take(1, 0)).toBe(false);
    expect(b.take(10, 999)).toBe(false);
    expect(b.take(10, 1000)).toBe(true);
  });

  it('never holds more than the burst', () => {
    const b = new TokenBucket(1000, 5, 0);
    expect(b.take(6, 60_000)).toBe(false);
    expect(b.take(5, 60_000)).toBe(true);
  });

  it('takes nothing when it refuses', () => {
    const b = new TokenBucket(1, 10, 0);
    expect(b.take(11, 0)).toBe(false);
    expect(b.take(10, 0)).toBe(true);
  });
});
