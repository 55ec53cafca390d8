/**
 * Wires the metrics module to what it reads (modules/metrics/sources.ts): the ingest pipeline and broker through
 * messaging, the two rule engines, the database pools. Everything is read at scrape time; the one hot-path hook is
 * the batch observer (once per committed batch).
 */
import type { Database } from '../db/client.js';
import type { RuleEngine } from '../modules/evaluation/engine.js';
import type { FlowEngine } from '../modules/evaluation/flows/flow-engine.js';
import type { TMessaging } from '../modules/ingest/messaging.js';
import { createServerMetrics, type TServerMetrics } from '../modules/metrics/registry.js';
import type { TPoolReading } from '../modules/metrics/sources.js';
import type { TDeviceHttpThread } from './device-http.js';

/**
 * How long a scrape waits for the device HTTP thread's metrics, in milliseconds; a busy or restarting thread's are
 * left out of that scrape rather than holding it (Prometheus' default scrape timeout is 10 s).
 */
export const DEVICE_HTTP_METRICS_WAIT_MS = 1_000;

/** Creates the server's metrics over its parts and attaches the ingest batch observer. */
export function createMetricsStage(parts: {
  messaging: TMessaging;
  rules: RuleEngine;
  flows: FlowEngine;
  database: Database;
  /** The device HTTP port's thread once it started (read at scrape time). */
  deviceHttp: () => Pick<TDeviceHttpThread, 'isUp' | 'restarts' | 'metricsText'> | undefined;
}): TServerMetrics {
  const { messaging, rules, flows, database } = parts;
  const metrics = createServerMetrics({
    ingest() {
      const c = messaging.ingestCounters();
      const backlog = messaging.bus.ingestBacklog();
      return {
        messagesByWay: c.messagesByWay,
        pointsByWay: c.pointsByWay,
        stored: c.pointsAccepted,
        duplicates: c.duplicates,
        batches: c.batches,
        writeFailures: c.writeFailures,
        rejected: c.rejected,
        queuedPoints: backlog.queuedPoints,
        waitingPublishes: backlog.waitingPublishes,
        openPublishes: backlog.openPublishes,
        readingPaused: messaging.isReadingPaused(),
        stalled: backlog.stalled,
      };
    },
    connections: () => messaging.connections(),
    brokerRefusals: () => messaging.brokerRefusals(),
    rules: () => rules.counters,
    platformRules: () => flows.counters,
    deviceHttp() {
      const thread = parts.deviceHttp();
      return thread ? { up: thread.isUp(), restarts: thread.restarts() } : null;
    },
    deviceHttpMetricsText: () => parts.deviceHttp()?.metricsText(DEVICE_HTTP_METRICS_WAIT_MS) ?? Promise.resolve(null),
    pools() {
      const readings: TPoolReading[] = [];
      if (database.pool) readings.push(poolReading('main', database.pool));
      if (database.ingestPool) readings.push(poolReading('ingest', database.ingestPool));
      return readings;
    },
    db: database.db,
  });
  messaging.setBatchObserver((rows, commitMs) => metrics.observeBatch(rows, commitMs));
  return metrics;
}

function poolReading(pool: TPoolReading['pool'], p: { totalCount: number; idleCount: number; waitingCount: number }): TPoolReading {
  return { pool, total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount };
}
