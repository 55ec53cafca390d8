/**
 * Chart series from telemetry points: history buckets and the real-time buffer fed by live messages.
 * A key carries up to three values (v1..v3); each becomes one line.
 */
import type { TLiveMessage } from '@tessera/contracts';

/** A point of one key: `ts` epoch ms, `vs` v1..v3 (null where absent). */
export interface TPoint {
  ts: number;
  vs: (number | null)[];
}

/** One line: `[ts, value]` pairs in time order. */
export type TLine = [number, number | null][];

/** Splits points into `valueCount` lines (v1..vN); a missing value becomes null so the line shows a gap. */
export function toLines(points: readonly TPoint[], valueCount: number): TLine[] {
  return Array.from({ length: Math.max(1, valueCount) }, (_, i) => points.map((p): [number, number | null] => [p.ts, p.vs[i] ?? null]));
}

/** How many values a set of lines actually draws (non-null), e.g. for the chart's `data-points` attribute. */
export function countDrawn(lines: readonly TLine[]): number {
  return lines.reduce((n, line) => n + line.filter(([, v]) => v !== null).length, 0);
}

/** Real-time buffer: points per key, each list in time order. */
export type TLiveBuffer = Readonly<Record<string, readonly TPoint[]>>;

/**
 * Returns a new buffer with the message's points of plain keys added (status words are not charted), keeping time
 * order, replacing a point of the same ts (a resend), and dropping points older than `now - windowMs`.
 */
export function appendLive(buffer: TLiveBuffer, message: TLiveMessage, windowMs: number, now: number): TLiveBuffer {
  const next: Record<string, TPoint[]> = {};
  const cutoff = now - windowMs;
  for (const [key, points] of Object.entries(buffer)) next[key] = points.filter((p) => p.ts >= cutoff);
  for (const { key, ts, vs } of message.list) {
    if (key.startsWith('$') || ts < cutoff) continue;
    next[key] ??= [];
    const list = next[key];
    const same = list.findIndex((p) => p.ts === ts);
    if (same >= 0) list[same] = { ts, vs };
    else if (list.length === 0 || list[list.length - 1].ts < ts) list.push({ ts, vs });
    else
      list.splice(
        list.findIndex((p) => p.ts > ts),
        0,
        { ts, vs },
      );
  }
  return next;
}

/**
 * The real-time chart's points of one key: the initial history (buckets of the last minutes) followed by the live
 * points newer than the last bucket, all at or after `cutoff` (epoch ms).
 */
export function joinRealtime(history: readonly TPoint[], live: readonly TPoint[], cutoff: number): TPoint[] {
  const kept = history.filter((p) => p.ts >= cutoff);
  const last = kept.length ? kept[kept.length - 1].ts : Number.NEGATIVE_INFINITY;
  return [...kept, ...live.filter((p) => p.ts > last && p.ts >= cutoff)];
}
