/**
 * The server's Prometheus metrics (docs/deployment.md "Metrics"): one registry per server (two servers in one test
 * process keep their own), plus prom-client's default process metrics (memory, CPU, event-loop lag, GC), which
 * describe the process and so are collected once per process.
 */
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { registerDatabaseMetrics } from './database-metrics.js';
import { registerEngineMetrics } from './engine-metrics.js';
import { observeHttpRequests } from './http-metrics.js';
import { registerIngestMetrics } from './ingest-metrics.js';
import type { TMetricSources } from './sources.js';

let processRegistry: Registry | null = null;

/**
 * prom-client 15's default gauges named like counters, which `promtool check metrics` flags ("non-counter metrics
 * should not have _total suffix"); their information stays in `nodejs_active_handles` and `nodejs_active_resources`.
 */
const MISNAMED_DEFAULT_METRICS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

/** The process-wide registry of prom-client's default metrics, made on first use. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    for (const name of MISNAMED_DEFAULT_METRICS) processRegistry.removeSingleMetric(name);
  }
  return processRegistry;
}

/** A server's metrics. */
export interface TServerMetrics {
  /** The Prometheus text exposition (version 0.0.4) of every metric. */
  render(): Promise<string>;
  /** The Content-Type of {@link TServerMetrics.render}'s answer. */
  contentType: string;
  /** Told of each committed ingest batch slice: points and status words, milliseconds to commit. */
  observeBatch(rows: number, commitMs: number): void;
  /** Observes every response of `app` (HTTP latency by route template and status). */
  observeHttp(app: FastifyInstance): void;
}

/** Declares every Tessera metric over `sources`. */
export function createServerMetrics(sources: TMetricSources): TServerMetrics {
  const registry = new Registry();
  const observeBatch = registerIngestMetrics(registry, sources);
  registerEngineMetrics(registry, sources);
  registerDatabaseMetrics(registry, sources);
  const perProcess = processMetrics();
  return {
    contentType: registry.contentType,
    async render() {
      const [own, proc, deviceHttp] = await Promise.all([registry.metrics(), perProcess.metrics(), sources.deviceHttpMetricsText()]);
      return deviceHttp ? `${own}\n${deviceHttp}\n${proc}` : `${own}\n${proc}`;
    },
    observeBatch,
    observeHttp: (app) => observeHttpRequests(app, registry),
  };
}
