import { describe, expect, it } from 'vitest';
import { backoffMs, OUTBOX } from './outbox-worker.js';

describe('backoffMs', () => {
  it('doubles from the base after each failure and stops at the cap', () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(backoffMs(30)).toBe(OUTBOX.backoffCapMs);
    expect(backoffMs(OUTBOX.maxAttempts)).toBeLessThanOrEqual(OUTBOX.backoffCapMs);
  });
});
