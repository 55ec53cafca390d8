/**
 * One ingest batch being filled: rows for writeIngestBatch, rejected counters, the live messages to publish
 * after commit, and the publishers waiting for that commit (their QoS 1 acknowledgement).
 */
import { STATUS_LIVE_KEY, topics, type TLiveMessage, type TStatusMessage, type TTelemetryPoint } from '@tessera/contracts';
import type { TIngestBatch, TRejectedIn, TStatusRowIn, TTelemetryRowIn } from '../telemetry/write.js';
import type { TIngestDevice } from './directory.js';
import type { TRejectReason } from './parse.js';

type TLiveItem = TLiveMessage['list'][number];

/** A batch under construction. */
export class PendingBatch {
  readonly telemetry: TTelemetryRowIn[] = [];
  readonly status: TStatusRowIn[] = [];
  private readonly rejected = new Map<string, TRejectedIn>();
  private readonly live = new Map<string, TLiveItem[]>();
  readonly waiters: { resolve: () => void; reject: (err: Error) => void }[] = [];
  /** The devices whose points or status words the batch holds (the rule engine needs their project). */
  readonly devices = new Map<number, TIngestDevice>();
  /** Points and status words held (what INGEST_BATCH_MAX counts). */
  size = 0;

  /** Adds accepted telemetry points of `device`. */
  addPoints(device: TIngestDevice, points: TTelemetryPoint[], svcRecvTs: number): void {
    const live = this.liveOf(device.tangramId);
    this.devices.set(device.id, device);
    for (const p of points) {
      this.telemetry.push({
        deviceId: device.id,
        key: p.key,
        ts: p.ts,
        svcRecvTs,
        v1: p.vs[0] ?? null,
        v2: p.vs[1] ?? null,
        v3: p.vs[2] ?? null,
      });
      live.push({ key: p.key, ts: p.ts, vs: p.vs });
    }
    this.size += points.length;
  }

  /** Adds an accepted status word of `device`. */
  addStatus(device: TIngestDevice, status: TStatusMessage, svcRecvTs: number): void {
    this.status.push({ deviceId: device.id, ts: status.ts, svcRecvTs, value: status.value });
    this.devices.set(device.id, device);
    this.liveOf(device.tangramId).push({ key: STATUS_LIVE_KEY, ts: status.ts, vs: [status.value] });
    this.size += 1;
  }

  /** Counts `count` refused points of `deviceId` for `reason`. */
  addRejected(deviceId: number, reason: TRejectReason, count: number): void {
    const k = `${deviceId}:${reason}`;
    const r = this.rejected.get(k);
    if (r) r.count += count;
    else this.rejected.set(k, { deviceId, reason, count });
    this.size += 1;
  }

  /** True when nothing at all waits in the batch. */
  isEmpty(): boolean {
    return this.waiters.length === 0 && this.size === 0;
  }

  /** The argument of writeIngestBatch. */
  toWrite(): TIngestBatch {
    return { telemetry: this.telemetry, status: this.status, rejected: [...this.rejected.values()] };
  }

  /** One live message per device (ZLiveMessage), to publish after commit. */
  liveMessages(): { topic: string; message: TLiveMessage }[] {
    return [...this.live].map(([tangramId, list]) => {
      const topic = topics.live(tangramId);
      return { topic, message: { topic, list } };
    });
  }

  private liveOf(tangramId: string): TLiveItem[] {
    let list = this.live.get(tangramId);
    if (!list) {
      list = [];
      this.live.set(tangramId, list);
    }
    return list;
  }
}
