import { worstAxisVelocity, zoneOfVelocity } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { demoHistoryPoints } from './history.js';

const END = Date.UTC(2026, 0, 8);
const zonesOf = (vibrationProfile?: 'steady' | 'drifting') =>
  demoHistoryPoints({ id: 1, keys: ['vibration'], vibrationProfile }, 4, END, 1).map((p) =>
    zoneOfVelocity(worstAxisVelocity([p.v1, p.v2, p.v3]) ?? 0, 'group2_rigid'),
  );

describe('demo history of vibration', () => {
  it('keeps a steady device in zones A/B and takes a drifting one into zone C every 2 hours, never D', () => {
    expect(zonesOf().every((z) => z === 'A' || z === 'B')).toBe(true);
    const drifting = zonesOf('drifting');
    // A day at one point per 5 min: 12 excursions of about 20 min in C, 3–5 points each.
    const inC = drifting.filter((z) => z === 'C').length;
    expect(inC).toBeGreaterThanOrEqual(12 * 3);
    expect(inC).toBeLessThanOrEqual(12 * 5 + 1);
    expect(drifting).not.toContain('D');
  });
});
