import { describe, expect, it } from 'vitest';
import { RECONNECT_FIRST_MS, RECONNECT_MAX_MS, reconnectDelayMs } from './reconnect.js';

describe('reconnectDelayMs', () => {
  it('doubles from the first delay up to the longest', () => {
    const noJitter = () => 0;
    expect([1, 2, 3, 4].map((n) => reconnectDelayMs(n, noJitter))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(reconnectDelayMs(1, noJitter)).toBe(RECONNECT_FIRST_MS);
    expect(reconnectDelayMs(50, noJitter)).toBe(RECONNECT_MAX_MS);
  });

  it('takes up to half off at random, so devices refused together do not all come back together', () => {
    expect(reconnectDelayMs(3, () => 0.999)).toBe(2_002);
    expect(reconnectDelayMs(3, () => 0.5)).toBe(3_000);
  });
});
