/** Small statistics helpers of the overload benchmark: percentiles and a fixed-width figure table. */

/** The p-th percentile (0–100) of `values` (nearest rank), NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** The largest of `values`, NaN when empty. */
export function maxOf(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => Math.max(a, b), -Infinity);
}

/** A number printed for the table: integers with thousands separators, else one decimal; "–" for NaN. */
export function fmt(v: number): string {
  if (Number.isNaN(v)) return '–';
  return Math.abs(v) >= 100 || Number.isInteger(v) ? Math.round(v).toLocaleString('en-US') : v.toFixed(1);
}

/** Prints `rows` (label, then one cell per column) under `header` as an aligned text table. */
export function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(header));
  for (const r of rows) console.log(line(r));
}

/**
 * The `count` seconds with the highest p99 of `latencies` (ms), each latency placed in the second `atS[i]` (s from the
 * start of the measurement) it was started in; `[second, p99 ms, samples]`, worst first. Shows whether a tail is one
 * stall or spread over the run.
 */
export function worstSeconds(latencies: readonly number[], atS: readonly number[], count: number): [number, number, number][] {
  const bySecond = new Map<number, number[]>();
  latencies.forEach((ms, i) => {
    const second = Math.floor(atS[i] ?? 0);
    const list = bySecond.get(second) ?? [];
    list.push(ms);
    bySecond.set(second, list);
  });
  return [...bySecond]
    .map(([second, list]): [number, number, number] => [second, percentile(list, 99), list.length])
    .sort((a, b) => b[1] - a[1])
    .slice(0, count);
}
