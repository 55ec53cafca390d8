/**
 * Small helpers of the storage benches: percentiles and the machine's load average (the machine is shared, so every
 * figure is printed beside it).
 */
import { loadavg } from 'node:os';

/** p-th percentile (nearest rank) of `ms`; NaN for no samples. */
export function pct(ms: readonly number[], p: number): number {
  if (ms.length === 0) return Number.NaN;
  const s = [...ms].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/** The 1-, 5- and 15-minute load averages, e.g. "6.8 / 11.3 / 10.4". */
export function loadAverage(): string {
  return loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
}
