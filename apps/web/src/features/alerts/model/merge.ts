/**
 * Merging live alerts into the dashboard list (spec §9 "Alerts show latest 100"): an alert already listed is
 * replaced in place; another is inserted at its place (newest first by first seen, then id) and the list is capped.
 */
import { ALERTS_LATEST_MAX, type TAlert } from '@tessera/contracts';

const newer = (a: TAlert, b: TAlert) => a.first_seen_at > b.first_seen_at || (a.first_seen_at === b.first_seen_at && a.id > b.id);

/**
 * `list` with `alert` merged. `isNew` is true when the alert was not listed, is open, and made it into the capped
 * list — a newly raised alert, which the dashboard announces with a sound (an old alert's update does not chime).
 */
export function mergeAlert(list: readonly TAlert[], alert: TAlert, max = ALERTS_LATEST_MAX): { list: TAlert[]; isNew: boolean } {
  const at = list.findIndex((a) => a.id === alert.id);
  if (at >= 0) return { list: list.map((a, i) => (i === at ? alert : a)), isNew: false };
  let pos = list.findIndex((a) => newer(alert, a));
  if (pos < 0) pos = list.length;
  if (pos >= max) return { list: [...list], isNew: false };
  const next = [...list.slice(0, pos), alert, ...list.slice(pos)].slice(0, max);
  return { list: next, isNew: alert.state === 'open' };
}
