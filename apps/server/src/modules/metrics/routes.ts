/**
 * `GET /metrics` (docs/deployment.md "Metrics"): the Prometheus text of {@link TServerMetrics}, for the bearer token
 * METRICS_TOKEN only — no token configured or a wrong one is 401 AUTH_REQUIRED. Served on the main HTTP port, or,
 * when METRICS_PORT is set, only on a listener of its own bound to 127.0.0.1 ({@link startMetricsListener}).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { isMetricsBearer } from './bearer.js';
import type { TServerMetrics } from './registry.js';

/** The path Prometheus scrapes. */
export const METRICS_PATH = '/metrics';

const UNAUTHORISED = JSON.stringify({ code: ErrorCode.Unauthenticated, message: 'metrics need Authorization: Bearer <METRICS_TOKEN>' });

/**
 * Registers `GET /metrics` on `app` (hidden from the API document: it is for Prometheus, not API clients). `metrics`
 * is undefined when no METRICS_TOKEN is configured: nothing is observed, and every scrape is 401.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: TServerMetrics | undefined, token: string | undefined): void {
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (!metrics || !isMetricsBearer(request.headers.authorization, token)) {
      return reply.status(401).header('www-authenticate', 'Bearer').type('application/json').send(UNAUTHORISED);
    }
    return reply.type(metrics.contentType).send(await metrics.render());
  });
}

/** A running metrics listener. */
export interface TMetricsListener {
  port: number;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` (same token) on `127.0.0.1:port` only: Prometheus on the same machine, or through a tunnel;
 * nothing else answers there (404).
 */
export async function startMetricsListener(port: number, metrics: TServerMetrics, token: string | undefined): Promise<TMetricsListener> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://x').pathname !== METRICS_PATH) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ code: ErrorCode.NotFound, message: 'only GET /metrics here' }));
      return;
    }
    if (!isMetricsBearer(req.headers.authorization, token)) {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' }).end(UNAUTHORISED);
      return;
    }
    metrics.render().then(
      (text) => res.writeHead(200, { 'content-type': metrics.contentType }).end(text),
      () =>
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ code: ErrorCode.Internal, message: 'metrics not collected' })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
