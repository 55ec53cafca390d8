/**
 * What ingest counts in the process since start (docs/decisions/ingest.md; read by the metrics on each scrape, so the
 * hot path only adds to plain numbers).
 */
import { INGEST_REJECT_REASONS } from '@tessera/contracts';
import type { TRejectReason } from './parse.js';

/**
 * How a publish reached ingest: the embedded broker's plain TCP listener, its TLS listener or its `/mqtt` WebSocket;
 * an external broker's shared subscription; the queue engine's AMQP queue; ThingsBoard's HTTP device API; a LoRaWAN
 * network server's uplink webhook.
 */
export const INGEST_WAYS = ['mqtt', 'mqtts', 'websocket', 'external_mqtt', 'queue', 'http', 'lorawan'] as const;
/** One of {@link INGEST_WAYS}. */
export type TIngestWay = (typeof INGEST_WAYS)[number];

/** In-process ingest counters (since start). */
export interface TIngestCounters {
  messages: number;
  /** Publishes handed to ingest, and points in those it accepted into a batch, by the way they came. */
  messagesByWay: Record<TIngestWay, number>;
  pointsByWay: Record<TIngestWay, number>;
  pointsAccepted: number;
  duplicates: number;
  batches: number;
  writeFailures: number;
  rejected: Record<TRejectReason, number>;
}

/** Counters at zero. */
export function emptyIngestCounters(): TIngestCounters {
  return {
    messages: 0,
    messagesByWay: zeroByWay(),
    pointsByWay: zeroByWay(),
    pointsAccepted: 0,
    duplicates: 0,
    batches: 0,
    writeFailures: 0,
    rejected: Object.fromEntries(INGEST_REJECT_REASONS.map((r) => [r, 0])) as Record<TRejectReason, number>,
  };
}

function zeroByWay(): Record<TIngestWay, number> {
  return Object.fromEntries(INGEST_WAYS.map((w) => [w, 0])) as Record<TIngestWay, number>;
}
