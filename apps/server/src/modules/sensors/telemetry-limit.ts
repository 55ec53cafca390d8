/**
 * The telemetry-enable limit (§9 "computed from the project", §8 "telemetry count over limit (excess set
 * disabled)"; docs/decisions/sensors.md). Enabled sensors share {@link TELEMETRY_VALUE_SLOTS} value slots, each taking
 * its `value_count`. Sensors this write does not touch keep their slots; the written ones take what is left in the
 * order given, and any that do not fit are saved disabled.
 */
import { TELEMETRY_VALUE_SLOTS } from '@tessera/contracts';

/** What the limit needs of a sensor. */
export interface TSlotSensor {
  key: string;
  enabled: boolean;
  valueCount: number;
}

/**
 * Applies the limit to `written` (in request order) given the `kept` sensors (untouched by the write). Returns the
 * written sensors with `enabled` forced off where they exceed it, and the keys so disabled. Pure.
 */
export function applyTelemetryLimit<T extends TSlotSensor>(
  kept: readonly TSlotSensor[],
  written: readonly T[],
  limit = TELEMETRY_VALUE_SLOTS,
): { sensors: T[]; disabledExcess: string[] } {
  let used = kept.reduce((n, s) => n + (s.enabled ? s.valueCount : 0), 0);
  const disabledExcess: string[] = [];
  const sensors = written.map((s) => {
    if (!s.enabled) return s;
    if (used + s.valueCount > limit) {
      disabledExcess.push(s.key);
      return { ...s, enabled: false };
    }
    used += s.valueCount;
    return s;
  });
  return { sensors, disabledExcess };
}
