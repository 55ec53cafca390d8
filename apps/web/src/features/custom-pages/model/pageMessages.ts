/**
 * The messages between the console and a custom page (page-author API, docs/custom-pages.md): the points the host
 * posts (`tessera:telemetry`) and the requests it accepts from its own frame (`tessera:ready`, `tessera:resize`).
 */
import {
  STATUS_LIVE_KEY,
  type TDeviceTwin,
  type TPageInboundMessage,
  type TPageTelemetryMessage,
  ZPageInboundMessage,
  type ZPagePoint,
} from '@tessera/contracts';
import type { z } from 'zod';

/** A point as a page receives it. */
export type TPagePoint = z.infer<typeof ZPagePoint>;
/** The device a page is shown for. */
export type TPageDevice = TPageTelemetryMessage['device'];

/** The twin's latest points: one per telemetry key, and the status word as key `$status`. */
export function pointsOfTwin(twin: TDeviceTwin | null | undefined): TPagePoint[] {
  if (!twin) return [];
  const points = twin.telemetry.map(({ key, ts, vs }) => ({ key, ts, vs }));
  if (twin.status) points.push({ key: STATUS_LIVE_KEY, ts: twin.status.ts, vs: [twin.status.value] });
  return points;
}

/** Keeps in `latest` the newest point per key from `points` (an older point never replaces a newer one). */
export function mergeLatest(latest: Map<string, TPagePoint>, points: readonly TPagePoint[]): void {
  for (const p of points) {
    const held = latest.get(p.key);
    if (!held || p.ts >= held.ts) latest.set(p.key, p);
  }
}

/** The message posted to the page. */
export function telemetryMessage(device: TPageDevice, list: readonly TPagePoint[]): TPageTelemetryMessage {
  return { type: 'tessera:telemetry', device, list: [...list] };
}

/** A page's request, or null for anything else (unknown types, bad shapes, and non-objects are ignored). */
export function readInbound(data: unknown): TPageInboundMessage | null {
  const parsed = ZPageInboundMessage.safeParse(data);
  return parsed.success ? parsed.data : null;
}
