/**
 * HTTP latency by route template and status: one histogram observation per response, labelled with the route's
 * declared URL (`/frontstage/v1/devices/:id`), never the raw URL, so the series stay bounded. Requests no route
 * matched are `unmatched`. The main HTTP port's responses are `tessera_http_request_duration_seconds`; the device
 * HTTP port's (its own thread, app/device-http-thread.ts) are `tessera_device_http_request_duration_seconds`, so that
 * a route served on both ports is told apart.
 */
import type { FastifyInstance } from 'fastify';
import { Histogram, type Registry } from 'prom-client';

/** Upper bounds of the HTTP latency histogram, in seconds. */
const HTTP_SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The histograms {@link observeHttpRequests} declares: the main HTTP port's, and the device HTTP port's. */
const HTTP_HISTOGRAMS = {
  main: {
    name: 'tessera_http_request_duration_seconds',
    help: 'HTTP request latency, by method, route template and status code, in seconds.',
  },
  device: {
    name: 'tessera_device_http_request_duration_seconds',
    help: 'Device HTTP port (DEVICE_HTTP_PORT) request latency, by method, route template and status code, in seconds.',
  },
} as const;

/**
 * Declares the `listener`'s latency histogram on `registry` (`tessera_http_request_duration_seconds` for the main
 * port, `tessera_device_http_request_duration_seconds` for the device port) and observes every response of `app`.
 */
export function observeHttpRequests(app: FastifyInstance, registry: Registry, listener: 'main' | 'device' = 'main'): void {
  const seconds = new Histogram({
    ...HTTP_HISTOGRAMS[listener],
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
