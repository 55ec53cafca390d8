/** Display formatting of the device pages: numbers per locale, times in the browser's local time zone. */
import type { TTelemetryValue } from '@tessera/contracts';
import dayjs from 'dayjs';

/** Formats up to three values per locale (at most 3 decimals), joined by " / "; null values show as "—". */
export function formatValues(vs: readonly (number | null)[], locale: string): string {
  const nf = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
  return vs.map((v) => (v === null || !Number.isFinite(v) ? '—' : nf.format(v))).join(' / ');
}

/**
 * The value of a non-numeric key (contracts telemetry-values.ts) for display: a string as it is, a boolean by
 * `labels` (translated true/false), JSON compact.
 */
export function formatTelemetryValue(value: TTelemetryValue, labels: { true: string; false: string }): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? labels.true : labels.false;
  return JSON.stringify(value);
}

/** Epoch ms → local date and time `YYYY-MM-DD HH:mm:ss`; null → "—". */
export function formatLocalTime(ts: number | null | undefined): string {
  return ts === null || ts === undefined ? '—' : dayjs(ts).format('YYYY-MM-DD HH:mm:ss');
}

/** A duration in milliseconds as seconds for display (periods are shown in seconds), per locale. */
export function formatSeconds(ms: number, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 3 }).format(ms / 1000);
}

const DURATION_UNITS = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1_000],
] as const;

/**
 * A whole duration in milliseconds in its largest whole unit, per locale (Intl unit format): 900000 → "15 minutes" /
 * "15 分鐘", 604800000 → "7 days"; below a second, milliseconds.
 */
export function formatDuration(ms: number, locale: string): string {
  const [unit, size] = DURATION_UNITS.find(([, s]) => ms >= s && ms % s === 0) ?? ['millisecond', 1];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(ms / size);
}

/** How long ago `ts` was, from `now`, per locale (Intl relative time): "5 seconds ago", "3 分鐘前". */
export function formatAge(ts: number, now: number, locale: string): string {
  const s = Math.max(0, Math.round((now - ts) / 1000));
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  if (s < 60) return rtf.format(-s, 'second');
  if (s < 3600) return rtf.format(-Math.floor(s / 60), 'minute');
  if (s < 86_400) return rtf.format(-Math.floor(s / 3600), 'hour');
  return rtf.format(-Math.floor(s / 86_400), 'day');
}
