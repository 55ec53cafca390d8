/** Small pure helpers of the subscription cards. */
import type { TSubscriptionSettings } from '@tessera/contracts';

/** Nothing: no level, no channel. */
export const NO_SETTINGS: TSubscriptionSettings = { levels: [], channels: [] };

/** True when `a` and `b` choose the same levels and channels (order ignored). */
export function sameSettings(a: TSubscriptionSettings, b: TSubscriptionSettings): boolean {
  const same = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((v) => y.includes(v));
  return same(a.levels, b.levels) && same(a.channels, b.channels);
}

/** True when the settings reach the person at all (at least one level and one channel). */
export function reachesSomeone(s: TSubscriptionSettings): boolean {
  return s.levels.length > 0 && s.channels.length > 0;
}
