import { describe, expect, it } from 'vitest';
import { PROGRESS_REPORTS_BURST, PROGRESS_REPORTS_PER_S, ProgressGate } from './state-reports.js';

describe('ProgressGate', () => {
  it('admits a burst, then the sustained rate, per device', () => {
    const gate = new ProgressGate();
    const t0 = 1_800_000_000_000;
    const admitted = Array.from({ length: PROGRESS_REPORTS_BURST + 5 }, () => gate.admit(1, t0)).filter(Boolean).length;
    expect(admitted).toBe(PROGRESS_REPORTS_BURST);
    // Another device has its own allowance.
    expect(gate.admit(2, t0)).toBe(true);
    // One second later device 1 has earned PROGRESS_REPORTS_PER_S more, no more.
    const later = Array.from({ length: PROGRESS_REPORTS_PER_S + 3 }, () => gate.admit(1, t0 + 1_000)).filter(Boolean).length;
    expect(later).toBe(PROGRESS_REPORTS_PER_S);
  });
});
