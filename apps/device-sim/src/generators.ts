/**
 * Value generators of the simulator: plausible readings from a seeded random source, so tests can pin them.
 * Temperature follows a daily sine plus noise; humidity moves against it; vibration is three axes (g) around
 * gravity on z; current (A) follows a slower duty cycle. Status words keep their high bits and let a few low
 * bits change, as a device's flags would.
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

/** g on x, y, z: small noise around (0, 0, 1). */
export function vibration(_ts: number, rnd: TRandom): [number, number, number] {
  return [round((rnd() - 0.5) * 0.1, 3), round((rnd() - 0.5) * 0.1, 3), round(1 + (rnd() - 0.5) * 0.1, 3)];
}

/** A: 1.5 ± 0.5 over a 10-minute duty cycle, ±0.05 noise, never negative. */
export function current(ts: number, rnd: TRandom): number {
  return round(Math.max(0, 1.5 + 0.5 * Math.sin((2 * Math.PI * ts) / 600_000) + (rnd() - 0.5) * 0.1), 3);
}

/** The values of `key` at `ts` (1–3 numbers); unknown keys get a noisy level around 50. */
export function valuesOf(key: string, ts: number, rnd: TRandom): number[] {
  switch (key) {
    case 'temperature':
      return [temperature(ts, rnd)];
    case 'humidity':
      return [humidity(ts, rnd)];
    case 'vibration':
      return vibration(ts, rnd);
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
