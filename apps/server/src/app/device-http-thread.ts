/**
 * The device HTTP port's thread (app/device-http.ts starts it; docs/deployment.md "The device HTTP port"): a Fastify
 * app with the main app's HTTP settings — request ids, body limit, TRUST_PROXY, header timeout, connection limits,
 * security headers, the NUL rule, rate limits and error bodies — serving the LoRaWAN webhook route of
 * modules/lorawan/webhook-route.ts. Each parsed request goes to the main thread, which answers it; errors come back
 * as `{statusCode, body, retryAfterS}` and are answered by the same error handler as on the main port. It holds
 * sockets and requests in flight only: no database connection, no cache (docs/ARCHITECTURE.md "Threads").
 */
import { parentPort, workerData } from 'node:worker_threads';
import fastifyRateLimit from '@fastify/rate-limit';
import proxyAddr from '@fastify/proxy-addr';
import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import pino from 'pino';
import { Registry } from 'prom-client';
import type { TApp } from '../core/app-type.js';
import { sendErrorReply, sendNoRoute } from '../core/error-reply.js';
import { AppError } from '../core/errors.js';
import { guardHttpConnections, sharedListenerOptions } from '../core/http-connection-guard.js';
import { registerInputGuard } from '../core/input-guard.js';
import { serializeLoggedError } from '../core/log-errors.js';
import { registerSecurityHeaders } from '../core/security-headers.js';
import type { TUplinkReply, TUplinkRequest } from '../modules/lorawan/receive-uplink.js';
import { registerLorawanWebhookRoute } from '../modules/lorawan/webhook-route.js';
import { observeHttpRequests } from '../modules/metrics/http-metrics.js';
import {
  batchedPost,
  type TDeviceHttpThreadData,
  type TFromDeviceHttpThread,
  type TToDeviceHttpThread,
  type TUplinkRequestMessage,
} from './device-http.js';

const port = parentPort;
if (!port) throw new Error('device-http-thread.ts runs as a worker thread (app/device-http.ts starts it)');
const data = workerData as TDeviceHttpThreadData;
const log = pino({ level: data.logLevel, serializers: { err: serializeLoggedError } }).child({ thread: 'device-http' });

/** Set when the server's stop begins: no new connection is taken, and answers close theirs. */
let closing = false;
/** Requests handed to the main thread and not answered yet, by id. */
const waiting = new Map<number, { resolve: (reply: TUplinkReply) => void; reject: (err: Error) => void }>();
let lastId = 0;

function tell(message: TFromDeviceHttpThread): void {
  port?.postMessage(message);
}
const handOver = batchedPost<{ id: number; request: TUplinkRequestMessage }>((requests) => tell({ kind: 'uplinks', requests }));

/** Hands `request` to the main thread; resolves with its answer, rejects with its error as an AppError. */
function answeredByMain(request: TUplinkRequest): Promise<TUplinkReply> {
  lastId += 1;
  const id = lastId;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    const { body, ...rest } = request;
    handOver({ id, request: { ...rest, bodyLatin1: body.toString('latin1') } });
  });
}

const app = Fastify({
  loggerInstance: log as FastifyBaseLogger,
  // Device data is not logged per request (app/app.ts); its errors still are.
  logController: new LogController({ disableRequestLogging: true }),
  ...sharedListenerOptions(data.trustProxy),
}).withTypeProvider<ZodTypeProvider>();
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);
registerSecurityHeaders(app, data.pagesOrigin, Boolean(data.trustProxy));
await app.register(fastifyRateLimit, { global: false });
registerInputGuard(app);
app.addHook('onRequest', (request, reply, done) => {
  reply.header('x-request-id', request.id);
  done();
});
// Once the port stops accepting, an answer to a request taken before ends its keep-alive connection: Fastify's close
// waits for every connection, and a network server's idle one would otherwise hold it until the stop's deadline.
app.addHook('onSend', (_request, reply, payload, done) => {
  if (closing) reply.header('connection', 'close');
  done(null, payload);
});
// The port's request latency, read by the main thread's scrape (app/device-http.ts `metricsText`).
const metrics = data.observeHttp ? new Registry() : null;
if (metrics) observeHttpRequests(app, metrics, 'device');
app.setErrorHandler(sendErrorReply);
app.setNotFoundHandler(sendNoRoute);
await app.register(async (scope) => registerLorawanWebhookRoute(scope as TApp, answeredByMain));

const isTrustedProxy = data.trustProxy ? proxyAddr.compile(data.trustProxy) : () => false;
guardHttpConnections(
  app.server,
  { maxConnections: data.maxConnections, perAddress: data.maxConnectionsPerIp, isTrustedProxy: (address) => isTrustedProxy(address, 0) },
  log,
);

port.on('message', (m: TToDeviceHttpThread) => {
  if (m.kind === 'stop-accepting') {
    // Fastify stops listening, answers 503 on open connections, and resolves once requests in flight are answered.
    if (!closing) void app.close().then(() => tell({ kind: 'closed' }));
    closing = true;
    return;
  }
  if (m.kind === 'metrics') {
    void (metrics?.metrics() ?? Promise.resolve('')).then((text) => tell({ kind: 'metrics', id: m.id, text }));
    return;
  }
  for (const answer of m.answers) {
    const asked = waiting.get(answer.id);
    if (!asked) continue;
    waiting.delete(answer.id);
    if ('reply' in answer) asked.resolve(answer.reply);
    else {
      const { statusCode, body, retryAfterS } = answer.error;
      asked.reject(new AppError(statusCode, body.code, body.message, body.details, retryAfterS));
    }
  }
});

await app.listen({ port: data.port, host: data.host });
const address = app.server.address();
tell({ kind: 'listening', port: typeof address === 'object' && address ? address.port : data.port });
