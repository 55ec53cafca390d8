/**
 * Which keys a simulated device publishes and how often. Starts with every key at the base period
 * (1000 / rateHz ms); a retained config (ZDeviceConfig, docs/protocol.md "Config") changes a key's period
 * (`uploadPeriodMs`) or turns it off (`enabled: false` or period 0). Keys the config does not name keep theirs.
 */
import type { TDeviceConfig } from '@tessera/contracts';

/** Publish period per key, in milliseconds. A key absent from the map is not published. */
export type TSchedule = ReadonlyMap<string, number>;

/** The starting schedule: every key at `basePeriodMs`. */
export function initialSchedule(keys: readonly string[], basePeriodMs: number): TSchedule {
  return new Map(keys.map((k) => [k, basePeriodMs]));
}

/** The schedule after applying `config` to `current`. Pure. */
export function applyConfig(current: TSchedule, config: TDeviceConfig): TSchedule {
  const next = new Map(current);
  for (const s of config.sensors) {
    if (!s.enabled || s.uploadPeriodMs === 0) next.delete(s.key);
    else next.set(s.key, s.uploadPeriodMs);
  }
  return next;
}

/** The keys due at `nowMs`, given when each was last sent (never sent = due). */
export function dueKeys(schedule: TSchedule, lastSentMs: ReadonlyMap<string, number>, nowMs: number): string[] {
  const due: string[] = [];
  // A little slack so a key with the same period as the tick is not skipped by timer jitter.
  for (const [key, period] of schedule) if (nowMs - (lastSentMs.get(key) ?? -Infinity) >= period * 0.9) due.push(key);
  return due;
}

/** The tick interval: the shortest period in the schedule (or `fallbackMs` when it is empty). */
export function tickMs(schedule: TSchedule, fallbackMs: number): number {
  return schedule.size ? Math.min(...schedule.values()) : fallbackMs;
}
