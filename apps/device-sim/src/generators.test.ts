import { DAY_MS, STATUS_WORD_MAX, worstAxisVelocity, zoneOfVelocity } from '@tessera/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  current,
  DRIFT_HOLD_MS,
  DRIFT_PERIOD_MS,
  DRIFT_RISE_MS,
  driftLevel,
  humidity,
  nextStatusWord,
  seededRandom,
  STATUS_FLAG_MASK,
  temperature,
  valuesOf,
  vibration,
} from './generators.js';

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
        for (const v of vibration(ts, rnd)) {
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(1.45);
        }
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

describe('vibration velocity (mm/s RMS) and the drifting motor', () => {
  const MINUTE = 60_000;
  /** The group 2 rigid zone of each minute of the day from day0, for `profile`. */
  const zonesOfDay = (profile: 'steady' | 'drifting', seed: number) => {
    const rnd = seededRandom(seed);
    return Array.from({ length: DAY_MS / MINUTE }, (_, m) => {
      const velocity = worstAxisVelocity(valuesOf('vibration', day0 + m * MINUTE, rnd, profile)) ?? 0;
      return zoneOfVelocity(velocity, 'group2_rigid');
    });
  };

  it('keeps a steady motor in zones A and B, whatever the seed', () => {
    for (const seed of [1, 2, 3, 1_000, 1_004]) expect(new Set(zonesOfDay('steady', seed))).toEqual(new Set(['A', 'B']));
  });

  it('takes a drifting motor into zone C for 15–25 min of every 2-hour period, never into D, and back to A/B', () => {
    const zones = zonesOfDay('drifting', 5);
    const periodMin = DRIFT_PERIOD_MS / MINUTE;
    for (let p = 0; p < zones.length / periodMin; p += 1) {
      const period = zones.slice(p * periodMin, (p + 1) * periodMin);
      const inC = period.filter((z) => z === 'C').length;
      expect(inC, `period ${p}`).toBeGreaterThanOrEqual(15);
      expect(inC, `period ${p}`).toBeLessThanOrEqual(25);
      // Through the peak it is in C whatever the noise; from 45 min on it is back in A/B.
      const peak = period.slice(DRIFT_RISE_MS / MINUTE, (DRIFT_RISE_MS + DRIFT_HOLD_MS) / MINUTE);
      expect(new Set(peak)).toEqual(new Set(['C']));
      expect(period.slice(45).every((z) => z === 'A' || z === 'B')).toBe(true);
    }
    expect(zones).not.toContain('D');
  });

  it('drifts at the same times of day whatever the seed (deterministic in time)', () => {
    expect(driftLevel(day0)).toBe(0);
    expect(driftLevel(day0 + DRIFT_RISE_MS / 2)).toBe(0.5);
    expect(driftLevel(day0 + DRIFT_RISE_MS + 1)).toBe(1);
    expect(driftLevel(day0 + DRIFT_PERIOD_MS - 1)).toBe(0);
    const inC = (seed: number) => zonesOfDay('drifting', seed).map((z) => z === 'C');
    const [a, b] = [inC(11), inC(12)];
    // The noise may move a minute at the edges of an excursion, not the excursion.
    expect(a.filter((x, i) => x !== b[i]).length).toBeLessThan(a.length / 50);
  });

  it('gives a steady and a drifting motor the same readings between excursions', () => {
    const ts = day0 + 60 * MINUTE;
    expect(vibration(ts, seededRandom(9), 'drifting')).toEqual(vibration(ts, seededRandom(9), 'steady'));
  });
});
