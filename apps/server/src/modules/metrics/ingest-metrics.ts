/**
 * Ingest and broker metrics (docs/deployment.md "Metrics"): totals mirrored from the pipeline's counters at scrape
 * time, two histograms observed once per committed batch, and the queue and back-pressure state.
 */
import { Histogram, type Registry } from 'prom-client';
import { byLabel, collectedCounter, collectedGauge } from './collected.js';
import type { TMetricSources } from './sources.js';

/** Upper bounds of the batch-size histogram, in points (INGEST_BATCH_MAX is 5,000 by default). */
const BATCH_POINTS_BUCKETS = [1, 5, 25, 100, 250, 500, 1_000, 2_500, 5_000, 10_000];
/** Upper bounds of the commit-latency histogram, in seconds. */
const COMMIT_SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Declares the ingest metrics on `registry`; answers the observer the pipeline calls per committed batch slice
 * (`rows` points and status words, `commitMs` from the write's start to its commit, retries included).
 */
export function registerIngestMetrics(registry: Registry, sources: TMetricSources): (rows: number, commitMs: number) => void {
  const ingest = () => sources.ingest();
  collectedCounter({
    registry,
    name: 'tessera_ingest_messages_total',
    help: 'Device publishes (telemetry and status) handed to ingest, by way in.',
    labelNames: ['way'],
    read: () => byLabel('way', ingest().messagesByWay),
  });
  collectedCounter({
    registry,
    name: 'tessera_ingest_points_total',
    help: 'Points and status words accepted into an ingest batch, by way in.',
    labelNames: ['way'],
    read: () => byLabel('way', ingest().pointsByWay),
  });
  collectedCounter({
    registry,
    name: 'tessera_ingest_points_stored_total',
    help: 'Points and status words committed as new rows.',
    read: () => [[{}, ingest().stored]],
  });
  collectedCounter({
    registry,
    name: 'tessera_ingest_points_duplicate_total',
    help: 'Points committed that were already stored (a device resent them).',
    read: () => [[{}, ingest().duplicates]],
  });
  collectedCounter({
    registry,
    name: 'tessera_ingest_points_rejected_total',
    help: 'Points refused by ingest (acknowledged, counted, not stored), by reason.',
    labelNames: ['reason'],
    read: () => byLabel('reason', ingest().rejected),
  });
  collectedCounter({
    registry,
    name: 'tessera_ingest_batches_total',
    help: 'Ingest batches committed.',
    read: () => [[{}, ingest().batches]],
  });
  collectedCounter({
    registry,
    name: 'tessera_ingest_write_failures_total',
    help: 'Ingest batch writes that failed and were retried or split.',
    read: () => [[{}, ingest().writeFailures]],
  });
  collectedGauge({
    registry,
    name: 'tessera_ingest_queued_points',
    help: 'Points held in ingest batches (filling, ready or being written).',
    read: () => [[{}, ingest().queuedPoints]],
  });
  collectedGauge({
    registry,
    name: 'tessera_ingest_waiting_publishes',
    help: 'Publishes waiting for room in the ingest batches (back-pressure).',
    read: () => [[{}, ingest().waitingPublishes]],
  });
  collectedGauge({
    registry,
    name: 'tessera_ingest_open_publishes',
    help: 'Publishes handed to ingest and not yet acknowledged.',
    read: () => [[{}, ingest().openPublishes]],
  });
  collectedGauge({
    registry,
    name: 'tessera_ingest_reading_paused',
    help: "1 while devices' sockets are not read because ingest holds too much (back-pressure), else 0.",
    read: () => [[{}, ingest().readingPaused ? 1 : 0]],
  });
  collectedGauge({
    registry,
    name: 'tessera_ingest_stalled',
    help: '1 while publishes have waited INGEST_STALL_MS with no batch committing, else 0.',
    read: () => [[{}, ingest().stalled ? 1 : 0]],
  });
  collectedGauge({
    registry,
    name: 'tessera_mqtt_connected_clients',
    help: 'Clients logged in to the embedded MQTT broker, by kind (device or browser).',
    labelNames: ['kind'],
    read: () => {
      const { devices, browsers } = sources.connections();
      return [
        [{ kind: 'device' }, devices],
        [{ kind: 'browser' }, browsers],
      ];
    },
  });
  collectedCounter({
    registry,
    name: 'tessera_mqtt_refused_connections_total',
    help: 'MQTT connections the embedded broker closed over its limits, by reason.',
    labelNames: ['reason'],
    read: () => byLabel('reason', sources.brokerRefusals()),
  });
  collectedGauge({
    registry,
    name: 'tessera_device_http_up',
    help: 'Whether the device HTTP port (DEVICE_HTTP_PORT) listens now: 1, or 0 until its thread starts again.',
    read: () => {
      const d = sources.deviceHttp();
      return d ? [[{}, d.up ? 1 : 0]] : [];
    },
  });
  collectedCounter({
    registry,
    name: 'tessera_device_http_restarts_total',
    help: "Times the device HTTP port's thread was started again after it ended unexpectedly.",
    read: () => {
      const d = sources.deviceHttp();
      return d ? [[{}, d.restarts]] : [];
    },
  });
  const batchPoints = new Histogram({
    name: 'tessera_ingest_batch_points',
    help: 'Points and status words per committed ingest batch.',
    buckets: BATCH_POINTS_BUCKETS,
    registers: [registry],
  });
  const commitSeconds = new Histogram({
    name: 'tessera_ingest_commit_seconds',
    help: 'Time from an ingest batch write starting to its commit, retries included, in seconds.',
    buckets: COMMIT_SECONDS_BUCKETS,
    registers: [registry],
  });
  return (rows, commitMs) => {
    batchPoints.observe(rows);
    commitSeconds.observe(commitMs / 1000);
  };
}
