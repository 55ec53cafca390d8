/**
 * What the metrics read, as plain shapes: the composition root (app/metrics.ts) hands in functions over the ingest
 * pipeline, the broker, the rule engines and the database pools, so this module depends on none of them.
 */
import type { Db } from '../../db/client.js';

/** Ingest's totals since start and its state now (modules/ingest/pipeline.ts). */
export interface TIngestReading {
  /** Publishes handed to ingest and points accepted into a batch, by way in (mqtt, mqtts, websocket, …). */
  messagesByWay: Readonly<Record<string, number>>;
  pointsByWay: Readonly<Record<string, number>>;
  stored: number;
  duplicates: number;
  batches: number;
  writeFailures: number;
  /** Points refused, by reason (contracts INGEST_REJECT_REASONS). */
  rejected: Readonly<Record<string, number>>;
  /** Points held in batches (filling, ready, being written). */
  queuedPoints: number;
  /** Publishes waiting for room in the batches (admission), and publishes not yet answered. */
  waitingPublishes: number;
  openPublishes: number;
  /** Devices' sockets are not read now (back-pressure). */
  readingPaused: boolean;
  /** Publishes waited INGEST_STALL_MS with no batch committing. */
  stalled: boolean;
}

/** One pg pool's connections now. */
export interface TPoolReading {
  pool: 'main' | 'ingest';
  total: number;
  idle: number;
  waiting: number;
}

/** Everything the metrics read at scrape time. */
export interface TMetricSources {
  ingest(): TIngestReading;
  /** Clients logged in to the embedded broker now. */
  connections(): { devices: number; browsers: number };
  /** MQTT connections the embedded broker closed since start, by reason. */
  brokerRefusals(): Readonly<Record<string, number>>;
  /** Project and app rules: evaluations, firings, alerts opened, failed device evaluations (since start). */
  rules(): { evaluations: number; fired: number; alertsOpened: number; errors: number };
  /** Platform rules: runs, runs that ended in error, refused over the tenant's limit, skipped at stop. */
  platformRules(): { runs: number; errors: number; refused: number; skipped: number };
  /** The device HTTP port's thread (app/device-http.ts), or null when DEVICE_HTTP_PORT is not set. */
  deviceHttp(): { up: boolean; restarts: number } | null;
  /**
   * The device HTTP thread's own metrics (its request latency histogram) in the Prometheus text format, or null when
   * there is no such thread or it did not answer in time.
   */
  deviceHttpMetricsText(): Promise<string | null>;
  /** The PostgreSQL pools (none on PGlite). */
  pools(): TPoolReading[];
  /** The database the outbox and download-job counts are read from. */
  db: Db;
}
