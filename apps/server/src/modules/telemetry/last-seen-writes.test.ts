import { describe, expect, it } from 'vitest';
import { LastSeenWrites } from './last-seen-writes.js';

describe('LastSeenWrites', () => {
  it('asks for a write of a device never committed, then once the interval has passed since the committed time', () => {
    const seen = new LastSeenWrites(1_000);
    expect(seen.isCurrent(7, 5_000)).toBe(false);
    seen.committed(7, 5_000);
    expect(seen.isCurrent(7, 5_999)).toBe(true);
    expect(seen.isCurrent(7, 6_000)).toBe(false);
    expect(seen.isCurrent(8, 5_000)).toBe(false);
  });

  it('keeps the newest committed time when batches commit out of order', () => {
    const seen = new LastSeenWrites(1_000);
    seen.committed(7, 9_000);
    seen.committed(7, 4_000);
    expect(seen.isCurrent(7, 9_500)).toBe(true);
  });
});
