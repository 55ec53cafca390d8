import { DAY_MS, STATUS_WORD_MAX } from '@tessera/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { current, humidity, nextStatusWord, seededRandom, STATUS_FLAG_MASK, temperature, valuesOf, vibration } from './generators.js';

const day0 = Date.UTC(2026, 0, 1);

describe('value generators', () => {
  it('makes temperature warmest mid-afternoon and coolest before dawn (UTC)', () => {
    const rnd = seededRandom(1);
    const afternoon = temperature(day0 + 15 * 3_600_000, rnd);
    const night = temperature(day0 + 3 * 3_600_000, rnd);
    expect(afternoon).toBeGreaterThan(25);
    expect(night).toBeLessThan(19);
  });

  it('keeps every reading in its plausible range over a day', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: DAY_MS }), fc.integer(), (offset, seed) => {
        const rnd = seededRandom(seed);
        const ts = day0 + offset;
        const t = temperature(ts, rnd);
        expect(t).toBeGreaterThanOrEqual(17.6);
        expect(t).toBeLessThanOrEqual(26.4);
        const h = humidity(ts, rnd);
        expect(h).toBeGreaterThanOrEqual(0);
        expect(h).toBeLessThanOrEqual(100);
        const [x, y, z] = vibration(ts, rnd);
        expect(Math.abs(x)).toBeLessThanOrEqual(0.05);
        expect(Math.abs(y)).toBeLessThanOrEqual(0.05);
        expect(Math.abs(z - 1)).toBeLessThanOrEqual(0.0501);
        expect(current(ts, rnd)).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('gives 3 values for vibration and 1 for the others', () => {
    const rnd = seededRandom(7);
    expect(valuesOf('vibration', day0, rnd)).toHaveLength(3);
    expect(valuesOf('temperature', day0, rnd)).toHaveLength(1);
    expect(valuesOf('pressure', day0, rnd)).toHaveLength(1);
  });

  it('is deterministic for a seed', () => {
    expect(valuesOf('temperature', day0, seededRandom(3))).toEqual(valuesOf('temperature', day0, seededRandom(3)));
  });

  it('changes only the low flag bits of a status word and stays within 40 bits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: STATUS_WORD_MAX }), fc.integer(), (word, seed) => {
        const next = nextStatusWord(word, seededRandom(seed));
        expect(next).toBeGreaterThanOrEqual(0);
        expect(next).toBeLessThanOrEqual(STATUS_WORD_MAX);
        expect(next - (next & STATUS_FLAG_MASK)).toBe(word - (word & STATUS_FLAG_MASK));
      }),
    );
  });
});
