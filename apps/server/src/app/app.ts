/**
 * The Fastify application (fastify/demo composition): external plugins → error handling and auth hook → routes by
 * prefix → the built console. Does not listen; server.ts does.
 */
import { existsSync } from 'node:fs';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import type { TApp } from '../core/app-type.js';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { isConsoleAssetPath, registerConsoleStatic, sendConsoleIndex } from './console-static.js';
import { registerModules } from './modules.js';
import { registerAuditLog } from '../modules/audit-log/register.js';
import type { TServerMetrics } from '../modules/metrics/registry.js';
import { registerMetricsRoute } from '../modules/metrics/routes.js';
import { API_SECTIONS } from './openapi/api-sections.js';
import { createApiDocumentHooks } from './openapi/document.js';
import type { TAppContext } from '../core/context.js';
import { sendErrorReply, sendNoRoute } from '../core/error-reply.js';
import { resolvePrincipal } from '../core/principal.js';
import { sharedListenerOptions } from '../core/http-connection-guard.js';
import { registerInputGuard } from '../core/input-guard.js';
import { registerSecurityHeaders } from '../core/security-headers.js';

/**
 * What {@link buildApp} adds besides the API: the metrics (none without METRICS_TOKEN), observed on every response
 * and served at `/metrics`.
 */
export interface TBuildOptions {
  metrics?: TServerMetrics;
  /** Serve `GET /metrics` on this app (false when METRICS_PORT gives it a listener of its own). */
  metricsRoute?: boolean;
}

/** Builds the app on `ctx`. `webDist`, when it exists, is served at `/` with an SPA fallback (console-static.ts). */
export async function buildApp(ctx: TAppContext, opts: TBuildOptions = {}): Promise<TApp> {
  const app = Fastify({
    loggerInstance: ctx.log as FastifyBaseLogger,
    // Device data (ThingsBoard's HTTP API, LoRaWAN uplinks) is not logged per request, as an MQTT publish is not: its
    // refusals are counted (device_ingest_stats, metrics, the integration's last payloads) and its errors still logged.
    logController: new LogController({ disableRequestLogging: isDeviceDataRequest }),
    ...sharedListenerOptions(ctx.config.trustProxy),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  registerSecurityHeaders(app, ctx.config.pagesOrigin, Boolean(ctx.config.trustProxy));
  await app.register(fastifyRateLimit, { global: false });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tessera IoT API',
        version: '0.1.0',
        description: 'The API behind the Tessera console (spec §7 calls, §8 errors). Every error body is `{ code, message }`.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: '/', description: 'this server' }],
      tags: API_SECTIONS.map(({ name, description }) => ({ name, description })),
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    ...createApiDocumentHooks(),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());

  registerInputGuard(app);
  opts.metrics?.observeHttp(app);
  if (opts.metricsRoute) registerMetricsRoute(app, opts.metrics, ctx.config.metricsToken);
  app.decorateRequest('principal', null);
  app.decorateRequest('authFailure', null);
  // Callback hooks, not async ones: most requests (devices, the console's anonymous calls) need no promise here.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // No credential: principal and authFailure keep their decorated null.
    if (request.headers.authorization === undefined) return done();
    resolvePrincipal(request, ctx.db, ctx.tokens).then(() => done(), done);
  });

  app.setErrorHandler(sendErrorReply);
  // Whether the console is served is decided once, here: its files are registered only if they exist now.
  const consoleServed = webDistExists(ctx);
  app.setNotFoundHandler((request, reply) => {
    if (isApiPath(request.url) || !consoleServed || isConsoleAssetPath(request.url)) return sendNoRoute(request, reply);
    return sendConsoleIndex(reply);
  });

  // Before the modules: every mutating route registered after this is audited (modules/audit-log/hooks.ts).
  registerAuditLog(app, ctx);
  await registerModules(app, ctx);

  if (consoleServed) {
    await registerConsoleStatic(app, ctx.config.webDist!);
  }
  return app;
}

const API_PREFIXES = [
  '/authorization/',
  '/frontstage',
  '/healthz',
  '/metrics',
  '/openapi.json',
  '/docs',
  '/mqtt',
  '/notification/',
  '/rule-engine/',
  '/dashboard/v1',
  '/client-authz/',
  '/pages/',
  '/lorawan/',
];
/** A request of a device's own API (ThingsBoard HTTP, a LoRaWAN network server's webhook). */
function isDeviceDataRequest(request: { url: string }): boolean {
  return request.url.startsWith('/api/v1/') || request.url.startsWith('/lorawan/v1/');
}
function isApiPath(url: string): boolean {
  return API_PREFIXES.some((p) => url.startsWith(p));
}
function webDistExists(ctx: TAppContext): boolean {
  return Boolean(ctx.config.webDist && existsSync(ctx.config.webDist));
}
