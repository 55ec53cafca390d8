/** Display formatting of the alert pages: times in the browser's local time zone. */
import dayjs from 'dayjs';

/** Epoch ms → local `YYYY-MM-DD HH:mm:ss`; null → "—". */
export function formatTime(ts: number | null | undefined): string {
  return ts === null || ts === undefined ? '—' : dayjs(ts).format('YYYY-MM-DD HH:mm:ss');
}
