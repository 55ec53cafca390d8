/**
 * Motor health (spec §2 device detail tab `motor-health`; docs/decisions/motor-health.md): the ISO 10816-3 zone of a
 * device's `vibration` readings, taken as vibration velocity RMS in mm/s (10–1000 Hz), with the zone boundaries of
 * the machine class, the hours spent in each zone over a range, and the API that answers them. Times are epoch ms.
 */
import { z } from 'zod';
import { API } from './api-paths.js';
import { EPOCH_MS_MAX, ZEpochMsText, zIntText } from './input.js';
import { DEFAULT_CHART_WIDTH, MAX_CHART_WIDTH } from './limits.js';
import { MACHINE_CLASSES, type TMachineClass } from './machine-class.js';
import { ZTimeseriesResponse } from './telemetry.js';

/** The telemetry key whose values are vibration velocity RMS in mm/s (one to three axes). */
export const MOTOR_HEALTH_KEY = 'vibration';
/** The unit the motor-health tab reads {@link MOTOR_HEALTH_KEY} in. */
export const VIBRATION_VELOCITY_UNIT = 'mm/s';

/** ISO 10816-3 evaluation zones, best first: A new machine, B long-term operation, C restricted, D damage likely. */
export const VIBRATION_ZONES = ['A', 'B', 'C', 'D'] as const;
/** One of {@link VIBRATION_ZONES}. */
export type TVibrationZone = (typeof VIBRATION_ZONES)[number];

/** The three zone boundaries of a machine class, velocity RMS in mm/s: A/B, B/C and C/D. */
export interface TZoneBoundaries {
  ab: number;
  bc: number;
  cd: number;
}

/**
 * ISO 10816-3:2009 Annex A, Tables A.1 (group 1) and A.2 (group 2), velocity RMS in mm/s over 10–1000 Hz; ISO
 * 20816-3:2022 keeps the same values.
 */
export const ZONE_BOUNDARIES_MM_S: Readonly<Record<TMachineClass, Readonly<TZoneBoundaries>>> = {
  group1_rigid: { ab: 2.3, bc: 4.5, cd: 7.1 },
  group1_flexible: { ab: 3.5, bc: 7.1, cd: 11.0 },
  group2_rigid: { ab: 1.4, bc: 2.8, cd: 4.5 },
  group2_flexible: { ab: 2.3, bc: 4.5, cd: 7.1 },
};

/**
 * The zone of a velocity RMS `velocityMmS` (mm/s) for `machineClass`. A value exactly on a boundary belongs to the
 * worse zone (2.8 mm/s is C for group 2 rigid): a limit is reached when the value gets to it.
 */
export function zoneOfVelocity(velocityMmS: number, machineClass: TMachineClass): TVibrationZone {
  const b = ZONE_BOUNDARIES_MM_S[machineClass];
  if (velocityMmS < b.ab) return 'A';
  if (velocityMmS < b.bc) return 'B';
  if (velocityMmS < b.cd) return 'C';
  return 'D';
}

/**
 * The velocity a reading is judged by: the largest of its values (v1..v3, one per measured axis; nulls skipped), as
 * ISO 10816-3 judges a machine by the highest magnitude measured. Null when the reading holds no value.
 */
export function worstAxisVelocity(vs: readonly (number | null)[]): number | null {
  const present = vs.filter((v): v is number => v !== null);
  return present.length === 0 ? null : Math.max(...present);
}

/** One velocity sample: its time (epoch ms) and velocity RMS (mm/s). */
export interface TVelocitySample {
  ts: number;
  velocity_mm_s: number;
}

/** Hours spent in each zone. */
export type THoursByZone = Record<TVibrationZone, number>;

/** A sample's value holds until the next sample, but for at most this many typical spacings (a gap in the data). */
export const MAX_HOLD_SPACINGS = 3;

const HOUR_MS = 3_600_000;

/**
 * The typical spacing of a time-ordered series, in ms: the median of the positive gaps between consecutive samples;
 * null with fewer than two distinct times.
 */
export function typicalSpacingMs(samples: readonly { ts: number }[]): number | null {
  const gaps: number[] = [];
  for (let i = 1; i < samples.length; i += 1) {
    const gap = samples[i].ts - samples[i - 1].ts;
    if (gap > 0) gaps.push(gap);
  }
  if (gaps.length === 0) return null;
  gaps.sort((a, b) => a - b);
  const mid = gaps.length >> 1;
  return gaps.length % 2 === 1 ? gaps[mid] : (gaps[mid - 1] + gaps[mid]) / 2;
}

/** Options of {@link hoursInZones}. */
export interface THoursInZonesOptions {
  /** Only time inside [fromTs, toTs] counts (epoch ms); unbounded when absent. */
  fromTs?: number;
  toTs?: number;
  /**
   * The least typical spacing, in ms (for a bucketed series: the bucket size), and the spacing assumed for a series of
   * one sample. Default 0.
   */
  minSpacingMs?: number;
}

/**
 * The hours `samples` (time-ordered, velocity in mm/s) spend in each zone of `machineClass`. Each sample's zone holds
 * from its time until the next sample, for at most {@link MAX_HOLD_SPACINGS} × the typical spacing (the larger of
 * {@link typicalSpacingMs} and `minSpacingMs`): a longer gap is missing data, and counts in no zone. The last sample
 * holds for one typical spacing. Time outside [fromTs, toTs] does not count. An empty series spends 0 h everywhere.
 * @returns hours (fractional) per zone; their sum is at most the covered time, never more than the window.
 */
export function hoursInZones(
  samples: readonly TVelocitySample[],
  machineClass: TMachineClass,
  { fromTs = -Infinity, toTs = Infinity, minSpacingMs = 0 }: THoursInZonesOptions = {},
): THoursByZone {
  const ms: THoursByZone = { A: 0, B: 0, C: 0, D: 0 };
  const spacing = Math.max(typicalSpacingMs(samples) ?? 0, minSpacingMs);
  const maxHoldMs = MAX_HOLD_SPACINGS * spacing;
  samples.forEach((s, i) => {
    const next = i + 1 < samples.length ? samples[i + 1].ts : s.ts + spacing;
    const start = Math.max(s.ts, fromTs);
    const end = Math.min(next, s.ts + maxHoldMs, toTs);
    if (end > start) ms[zoneOfVelocity(s.velocity_mm_s, machineClass)] += end - start;
  });
  return { A: ms.A / HOUR_MS, B: ms.B / HOUR_MS, C: ms.C / HOUR_MS, D: ms.D / HOUR_MS };
}

// ── API ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** GET `devices/{tangramId}/motor-health`, relative to the host. */
export const motorHealthPath = (tangramId: string) => `${API.frontstage}/devices/${tangramId}/motor-health`;

/**
 * GET motor-health query: the range (inclusive, at most HISTORY_RANGE_MAX_DAYS, as aggregated history) and the chart's
 * width in points (the series holds at most ~2× this many buckets, as v2 timeseries).
 */
export const ZMotorHealthQuery = z.object({
  startTs: ZEpochMsText,
  endTs: zIntText(1, EPOCH_MS_MAX),
  width: zIntText(10, MAX_CHART_WIDTH).default(DEFAULT_CHART_WIDTH),
});
export type TMotorHealthQuery = z.infer<typeof ZMotorHealthQuery>;

const ZHours = z.object({ A: z.number(), B: z.number(), C: z.number(), D: z.number() });
const ZZone = z.enum(VIBRATION_ZONES);

/**
 * The motor health of a device over a range. `machine_class` is that of the machine the device is bound to
 * (`class_source: 'machine'`, with `machine`), else DEFAULT_MACHINE_CLASS (`'default'`, `machine` null). `latest` is the
 * device's newest vibration reading (whatever the range; null before the first). `series` is the range's bucketed
 * velocity (each bucket: the worst axis of the axes' averages) drawn on the chart, `bucket_ms` and `source` as v2
 * timeseries; `hours` per zone are counted from buckets of `hours_bucket_ms` (finer than the chart's on long ranges).
 */
export const ZMotorHealth = z.object({
  tangramId: z.string(),
  key: z.literal(MOTOR_HEALTH_KEY),
  unit: z.literal(VIBRATION_VELOCITY_UNIT),
  /** Whether the device's project defines the `vibration` sensor (stored points are answered either way). */
  has_vibration_key: z.boolean(),
  machine_class: z.enum(MACHINE_CLASSES),
  class_source: z.enum(['machine', 'default']),
  machine: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  boundaries_mm_s: z.object({ ab: z.number(), bc: z.number(), cd: z.number() }),
  latest: z.object({ ts: z.number(), velocity_mm_s: z.number(), zone: ZZone }).nullable(),
  bucket_ms: z.number().int(),
  source: ZTimeseriesResponse.shape.source,
  series: z.array(z.object({ ts: z.number(), velocity_mm_s: z.number() })),
  hours_bucket_ms: z.number().int(),
  hours: ZHours,
});
export type TMotorHealth = z.infer<typeof ZMotorHealth>;
