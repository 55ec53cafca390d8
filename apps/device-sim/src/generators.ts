/**
 * Value generators of the simulator: plausible readings from a seeded random source, so tests can pin them.
 * Temperature follows a daily sine plus noise; humidity moves against it; vibration is velocity RMS (mm/s) on three
 * axes, swinging a little with the motor's load, and on a `drifting` motor rising into ISO 10816-3 zone C now and then;
 * current (A) follows a slower duty cycle. Status words keep their high bits and let a few low bits change, as a
 * device's flags would.
 */
import { DAY_MS, STATUS_WORD_MAX } from '@tessera/contracts';

/** A random source in [0, 1). */
export type TRandom = () => number;

/** mulberry32: a small seeded PRNG (deterministic per seed). */
export function seededRandom(seed: number): TRandom {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The default telemetry keys. */
export const DEFAULT_KEYS = ['temperature', 'humidity', 'vibration', 'current'] as const;

const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;
/** Position in the day, 0..1, of epoch ms `ts` (UTC). */
const dayPhase = (ts: number) => (((ts % DAY_MS) + DAY_MS) % DAY_MS) / DAY_MS;

/** °C: 22 ± 4 over the day (warmest mid-afternoon), ±0.3 noise. */
export function temperature(ts: number, rnd: TRandom): number {
  return round(22 + 4 * Math.sin(2 * Math.PI * (dayPhase(ts) - 0.375)) + (rnd() - 0.5) * 0.6);
}

/** %RH: 55 ∓ 10 against the temperature, ±1 noise, within 0..100. */
export function humidity(ts: number, rnd: TRandom): number {
  const v = 55 - 10 * Math.sin(2 * Math.PI * (dayPhase(ts) - 0.375)) + (rnd() - 0.5) * 2;
  return round(Math.min(100, Math.max(0, v)));
}

/**
 * How a simulated motor's vibration behaves: `steady` stays in zones A/B of every ISO 10816-3 class (worst axis below
 * 1.5 mm/s); `drifting` does the same but once every {@link DRIFT_PERIOD_MS} rises into zone C of group 2 rigid
 * (2.8–4.5 mm/s) and settles again, as a motor with a developing fault would ({@link driftLevel}).
 */
export const VIBRATION_PROFILES = ['steady', 'drifting'] as const;
/** One of {@link VIBRATION_PROFILES}. */
export type TVibrationProfile = (typeof VIBRATION_PROFILES)[number];

const MINUTE_MS = 60_000;
/** A drifting motor starts an excursion at every multiple of this, in ms since the epoch (every 2 h, UTC). */
export const DRIFT_PERIOD_MS = 120 * MINUTE_MS;
/** An excursion rises for 15 min, holds its peak for 10 min and falls for 15 min, in ms. */
export const DRIFT_RISE_MS = 15 * MINUTE_MS;
export const DRIFT_HOLD_MS = 10 * MINUTE_MS;
export const DRIFT_FALL_MS = 15 * MINUTE_MS;
/** What an excursion adds to every axis at its peak, in mm/s (worst axis 1.2 → 3.5 ± 0.25: zone C of group 2 rigid). */
const DRIFT_PEAK_MM_S = 2.3;
/** Each axis's level of a healthy motor (horizontal, vertical, axial), in mm/s RMS. */
const AXIS_LEVELS_MM_S = [1.2, 0.9, 0.7] as const;

/** 0…1: how far into its excursion a drifting motor is at epoch ms `ts` (0 between excursions, 1 at the peak). */
export function driftLevel(ts: number): number {
  const phase = ((ts % DRIFT_PERIOD_MS) + DRIFT_PERIOD_MS) % DRIFT_PERIOD_MS;
  if (phase < DRIFT_RISE_MS) return phase / DRIFT_RISE_MS;
  if (phase < DRIFT_RISE_MS + DRIFT_HOLD_MS) return 1;
  const falling = phase - DRIFT_RISE_MS - DRIFT_HOLD_MS;
  return falling < DRIFT_FALL_MS ? 1 - falling / DRIFT_FALL_MS : 0;
}

/**
 * mm/s RMS on x (horizontal), y (vertical) and z (axial): each axis's level ± 0.15 with the 10-minute load cycle of
 * {@link current}, ±0.1 noise, plus {@link driftLevel} × 2.3 mm/s on a `drifting` motor; never negative.
 */
export function vibration(ts: number, rnd: TRandom, profile: TVibrationProfile = 'steady'): [number, number, number] {
  const load = 0.15 * Math.sin((2 * Math.PI * ts) / 600_000);
  const drift = profile === 'drifting' ? DRIFT_PEAK_MM_S * driftLevel(ts) : 0;
  const [x, y, z] = AXIS_LEVELS_MM_S.map((level) => round(Math.max(0, level + load + drift + (rnd() - 0.5) * 0.2), 3));
  return [x, y, z];
}

/** A: 1.5 ± 0.5 over a 10-minute duty cycle, ±0.05 noise, never negative. */
export function current(ts: number, rnd: TRandom): number {
  return round(Math.max(0, 1.5 + 0.5 * Math.sin((2 * Math.PI * ts) / 600_000) + (rnd() - 0.5) * 0.1), 3);
}

/**
 * The values of `key` at `ts` (1–3 numbers) of a device whose vibration follows `vibrationProfile`; unknown keys get a
 * noisy level around 50.
 */
export function valuesOf(key: string, ts: number, rnd: TRandom, vibrationProfile: TVibrationProfile = 'steady'): number[] {
  switch (key) {
    case 'temperature':
      return [temperature(ts, rnd)];
    case 'humidity':
      return [humidity(ts, rnd)];
    case 'vibration':
      return vibration(ts, rnd, vibrationProfile);
    case 'current':
      return [current(ts, rnd)];
    default:
      return [round(50 + (rnd() - 0.5) * 10)];
  }
}

/** Low bits a status word changes (8 flag bits); the rest of the 40 bits stay as the device was set up. */
export const STATUS_FLAG_MASK = 0xff;

/** The next status word: each of the 8 low flag bits flips with probability 0.1; the high bits stay. */
export function nextStatusWord(word: number, rnd: TRandom): number {
  let flags = word & STATUS_FLAG_MASK;
  for (let bit = 0; bit < 8; bit += 1) if (rnd() < 0.1) flags ^= 1 << bit;
  const high = word - (word & STATUS_FLAG_MASK);
  return Math.min(STATUS_WORD_MAX, high + flags);
}
