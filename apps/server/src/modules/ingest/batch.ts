/**
 * One ingest batch being filled: the accepted messages (each with its rows and the publisher waiting for its QoS 1
 * acknowledgement), the refused messages' counters, and helpers that turn any slice of the messages into the
 * writer's argument, the live messages and the commit listener's rows — a batch the database refuses is written
 * again in slices (commit.ts), and each slice that commits is acknowledged and published on its own.
 */
import { STATUS_LIVE_KEY, topics, type TLiveMessage, type TStatusMessage } from '@tessera/contracts';
import type { TIngestBatch, TRejectedIn, TStatusRowIn, TTelemetryRowIn } from '../telemetry/rows.js';
import type { TIngestDevice } from './directory.js';
import type { TParsedPoint, TRejectReason } from './parse.js';

type TLiveItem = TLiveMessage['list'][number];

/** A publisher waiting for its message's fate: resolve acknowledges it, reject leaves it unacknowledged. */
export interface TWaiter {
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * Told, as a publish is filed, what became of it: its points accepted into a batch, or refused with the parser's or the
 * rate limit's reason. For callers that answer a request with it (HTTP, webhooks); the MQTT path passes none.
 */
export type TFiledReport = (
  outcome: { kind: 'stored'; points: number } | { kind: 'refused'; reason: TRejectReason; detail: string },
) => void;

/** One accepted publish: its telemetry points or its status word, as rows. */
export interface TPendingMessage {
  device: TIngestDevice;
  telemetry: readonly TTelemetryRowIn[];
  status: readonly TStatusRowIn[];
  /** Points it holds (a status word counts as one). */
  points: number;
  waiter: TWaiter;
}

/** What a committed slice hands to the commit listener: its stored rows and their devices. */
export interface TCommittedRows {
  telemetry: readonly TTelemetryRowIn[];
  status: readonly TStatusRowIn[];
  devices: ReadonlyMap<number, TIngestDevice>;
}

/** The rows of a slice of messages, gathered once for both the writer and the commit listener. */
export interface TSliceRows {
  telemetry: TTelemetryRowIn[];
  status: TStatusRowIn[];
}

/** What a message without telemetry or without a status word holds there (shared: one allocation less per message). */
const NO_TELEMETRY: readonly TTelemetryRowIn[] = Object.freeze([]);
const NO_STATUS: readonly TStatusRowIn[] = Object.freeze([]);

/** A batch under construction. */
export class PendingBatch {
  readonly messages: TPendingMessage[] = [];
  /** Counters of messages refused before the batch (parse, rate, window), per device and reason. */
  readonly rejected = new Map<string, TRejectedIn>();
  /** Publishers of those refused messages: acknowledged once their counters are written. */
  readonly refusedWaiters: TWaiter[] = [];
  /** Points and status words held, plus one per refused message (what INGEST_BATCH_MAX counts). */
  size = 0;
  /** When the first message joined (Date.now()), or null while empty: the batch is written INGEST_FLUSH_MS later. */
  openedAt: number | null = null;

  /** Adds an accepted telemetry message of `device` (a non-numeric key's point keeps its `value`). */
  addPoints(device: TIngestDevice, points: readonly TParsedPoint[], svcRecvTs: number, waiter: TWaiter): void {
    const telemetry = points.map(
      (p): TTelemetryRowIn =>
        p.value === undefined
          ? { deviceId: device.id, key: p.key, ts: p.ts, svcRecvTs, v1: p.vs[0] ?? null, v2: p.vs[1] ?? null, v3: p.vs[2] ?? null }
          : { deviceId: device.id, key: p.key, ts: p.ts, svcRecvTs, v1: null, v2: null, v3: null, value: p.value },
    );
    this.push({ device, telemetry, status: NO_STATUS, points: points.length, waiter });
  }

  /** Adds an accepted status word of `device`. */
  addStatus(device: TIngestDevice, status: TStatusMessage, svcRecvTs: number, waiter: TWaiter): void {
    this.push({
      device,
      telemetry: NO_TELEMETRY,
      status: [{ deviceId: device.id, ts: status.ts, svcRecvTs, value: status.value }],
      points: 1,
      waiter,
    });
  }

  /** Counts `count` refused points of `deviceId` for `reason`; `waiter` is acknowledged when the count is written. */
  addRejected(deviceId: number, reason: TRejectReason, count: number, waiter: TWaiter): void {
    addCount(this.rejected, deviceId, reason, count);
    this.refusedWaiters.push(waiter);
    this.size += 1;
    this.openedAt ??= Date.now();
  }

  /** True when nothing at all waits in the batch. */
  isEmpty(): boolean {
    return this.size === 0;
  }

  private push(message: TPendingMessage): void {
    this.messages.push(message);
    this.size += message.points;
    this.openedAt ??= Date.now();
  }
}

/** Adds `count` to the counter of (`deviceId`, `reason`) in `counters`. */
export function addCount(counters: Map<string, TRejectedIn>, deviceId: number, reason: TRejectReason, count: number): void {
  const k = `${deviceId}:${reason}`;
  const r = counters.get(k);
  if (r) r.count += count;
  else counters.set(k, { deviceId, reason, count });
}

/** The rows of `messages`, in their order. */
export function rowsOf(messages: readonly TPendingMessage[]): TSliceRows {
  const telemetry: TTelemetryRowIn[] = [];
  const status: TStatusRowIn[] = [];
  for (const m of messages) {
    for (const r of m.telemetry) telemetry.push(r);
    for (const r of m.status) status.push(r);
  }
  return { telemetry, status };
}

/** The writer's argument for `rows` plus `rejected` counters. */
export function toWrite(rows: TSliceRows, rejected: readonly TRejectedIn[]): TIngestBatch {
  return { telemetry: rows.telemetry, status: rows.status, rejected: [...rejected] };
}

/** The committed `rows` of `messages` and their devices, for the commit listener. */
export function committedRowsOf(messages: readonly TPendingMessage[], rows: TSliceRows): TCommittedRows {
  const devices = new Map<number, TIngestDevice>();
  for (const m of messages) devices.set(m.device.id, m.device);
  return { telemetry: rows.telemetry, status: rows.status, devices };
}

/**
 * One live message per device (ZLiveMessage) with every point and status word of committed `messages`, for the
 * devices whose live topic `isWatched` answers true of (asked once per device).
 */
export function liveMessagesOf(
  messages: readonly TPendingMessage[],
  isWatched: (topic: string) => boolean = () => true,
): { topic: string; message: TLiveMessage }[] {
  // null: a device nobody watches
  const lists = new Map<string, TLiveItem[] | null>();
  for (const m of messages) {
    let list = lists.get(m.device.tangramId);
    if (list === undefined) {
      list = isWatched(topics.live(m.device.tangramId)) ? [] : null;
      lists.set(m.device.tangramId, list);
    }
    if (list === null) continue;
    for (const r of m.telemetry)
      list.push(r.value === undefined ? { key: r.key, ts: r.ts, vs: valuesOf(r) } : { key: r.key, ts: r.ts, vs: [], value: r.value });
    for (const s of m.status) list.push({ key: STATUS_LIVE_KEY, ts: s.ts, vs: [s.value] });
  }
  const live: { topic: string; message: TLiveMessage }[] = [];
  for (const [tangramId, list] of lists) {
    if (!list) continue;
    const topic = topics.live(tangramId);
    live.push({ topic, message: { topic, list } });
  }
  return live;
}

/** v1..v3 without the trailing absent slots (what the device sent). */
function valuesOf(r: TTelemetryRowIn): number[] {
  const vs = [r.v1, r.v2, r.v3];
  while (vs.length > 0 && vs[vs.length - 1] === null) vs.pop();
  return vs as number[];
}
