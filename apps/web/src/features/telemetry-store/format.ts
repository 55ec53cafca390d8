/** Sizes for display: bytes in binary units (KiB, MiB, GiB, TiB), one decimal above bytes. */
const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** `bytes` (≥ 0) as e.g. "512 B", "1.5 KiB", "3.2 GiB". */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}
