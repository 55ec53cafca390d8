/**
 * HTTP latency by route template and status: one histogram observation per response, labelled with the route's
 * declared URL (`/frontstage/v1/devices/:id`), never the raw URL, so the series stay bounded. Requests no route
 * matched are `unmatched`.
 */
import type { FastifyInstance } from 'fastify';
import { Histogram, type Registry } from 'prom-client';

/** Upper bounds of the HTTP latency histogram, in seconds. */
const HTTP_SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Declares `tessera_http_request_duration_seconds` on `registry` and observes every response of `app`. */
export function observeHttpRequests(app: FastifyInstance, registry: Registry): void {
  const seconds = new Histogram({
    name: 'tessera_http_request_duration_seconds',
    help: 'HTTP request latency, by method, route template and status code, in seconds.',
    labelNames: ['method', 'route', 'status'],
    buckets: HTTP_SECONDS_BUCKETS,
    registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    seconds.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
