/** Display formatting of the device pages: numbers per locale, times in the browser's local time zone. */
import dayjs from 'dayjs';

/** Formats up to three values per locale (at most 3 decimals), joined by " / "; null values show as "—". */
export function formatValues(vs: readonly (number | null)[], locale: string): string {
  const nf = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
  return vs.map((v) => (v === null || !Number.isFinite(v) ? '—' : nf.format(v))).join(' / ');
}

/** Epoch ms → local date and time `YYYY-MM-DD HH:mm:ss`; null → "—". */
export function formatLocalTime(ts: number | null | undefined): string {
  return ts === null || ts === undefined ? '—' : dayjs(ts).format('YYYY-MM-DD HH:mm:ss');
}

/** A duration in milliseconds as seconds for display (periods are shown in seconds), per locale. */
export function formatSeconds(ms: number, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 3 }).format(ms / 1000);
}
