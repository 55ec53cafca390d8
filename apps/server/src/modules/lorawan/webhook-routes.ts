/**
 * The uplink webhook network servers POST to (docs/protocol.md "LoRaWAN network servers"):
 * `POST /lorawan/v1/{integrationId}/chirpstack?event=up` (ChirpStack v4's HTTP integration, JSON encoding) and
 * `POST /lorawan/v1/{integrationId}/tts` (The Things Stack v3's webhook, JSON format), the integration's secret in
 * the `x-tessera-secret` header. 200 `{stored}` only once the points are committed; 202 `{stored: 0, refused, detail}`
 * when the request was fine but its uplink was not stored (unknown DevEUI, no decoded payload, a value ingest refuses);
 * 204 for events that carry no uplink; 400, 401, 404, 413, 429, 503 as receive-uplink.ts says.
 */
import { LORAWAN_NETWORK_SERVERS, LORAWAN_SECRET_HEADER, MQTT_MAX_PACKET_BYTES, ZIdText, ZLorawanUplinkAnswer } from '@tessera/contracts';
import { z } from 'zod';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { ThrottledLog } from '../../core/throttled-log.js';
import { lorawanRuntime } from './lorawan-cache.js';
import { LorawanMqttSubscriptions } from './mqtt-subscriptions.js';
import { receiveUplink } from './receive-uplink.js';

/** Requests per integration and window (in memory, per replica): 100 a second on average, a whole application's uplinks. */
export const LORAWAN_WEBHOOK_RATE_LIMIT = { max: 1000, timeWindow: 10_000 } as const;
/**
 * The limit's `x-ratelimit-*` headers are left off the answers within it (a network server reads none of them; three
 * headers cost ~7 µs of a request, docs/connectivity.md); a 429 still carries them and `retry-after`.
 */
const WITHIN_LIMIT_HEADERS = { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false } as const;

const ZWebhookParams = z.object({ integrationId: ZIdText, networkServer: z.enum(LORAWAN_NETWORK_SERVERS) });
const ZWebhookQuery = z.object({ event: z.string().max(32).optional() });

/** Registers the uplink webhook (prefix `''`). */
export async function lorawanWebhookRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const log = new ThrottledLog(ctx.log);
  const runtime = lorawanRuntime(ctx, (stop) => app.addHook('onClose', stop));
  const { directory, uplinkLog } = runtime;
  // Integrations over MQTT: consumed from when the server listens (their client ids name its port) until it stops.
  const subscriptions = new LorawanMqttSubscriptions({
    db: ctx.db,
    runtime,
    bus: ctx.bus,
    log: ctx.log,
    throttled: log,
    shareGroup: ctx.config.mqttShareGroup,
    secretsKey: ctx.config.secretsKey,
  });
  runtime.onChange((change) => void subscriptions.changed(change));
  app.addHook('onListen', async () => {
    const address = app.server.address();
    await subscriptions.start(typeof address === 'object' && address ? address.port : ctx.config.port);
  });
  app.addHook('preClose', () => subscriptions.stopAccepting());
  app.addHook('onClose', () => subscriptions.close());
  // The body is read as the bytes that came, whatever the content type, so the log shows what was sent.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MQTT_MAX_PACKET_BYTES }, (_req, body, done) => done(null, body));
  app.post(
    '/lorawan/v1/:integrationId/:networkServer',
    {
      schema: {
        tags: ['device-api'],
        summary: "A LoRaWAN network server's uplink webhook (ChirpStack v4, The Things Stack v3)",
        params: ZWebhookParams,
        querystring: ZWebhookQuery,
        response: { 200: ZLorawanUplinkAnswer, 202: ZLorawanUplinkAnswer, 204: z.null() },
      },
      // The answer is this handler's own `{stored, refused?, detail?}`: written by JSON.stringify, not checked again
      // against the schema (zod's encode), which stays for the API document.
      serializerCompiler: () => (data) => JSON.stringify(data),
      config: {
        // A network server reads the answer, no browser renders it: no CSP or framing headers (core/security-headers.ts).
        securityHeaders: 'non-document',
        rateLimit: {
          ...LORAWAN_WEBHOOK_RATE_LIMIT,
          addHeadersOnExceeding: WITHIN_LIMIT_HEADERS,
          keyGenerator: (req) => (req.params as { integrationId?: string }).integrationId ?? '',
        },
      },
    },
    async (req, reply) => {
      const secret = req.headers[LORAWAN_SECRET_HEADER];
      const result = await receiveUplink(
        { directory, uplinkLog, bus: ctx.bus, log },
        {
          integrationId: req.params.integrationId,
          networkServer: req.params.networkServer,
          secret: typeof secret === 'string' ? secret : undefined,
          chirpstackEvent: req.query.event,
          body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
          receivedAt: Date.now(),
        },
      );
      if (result.status === 204) return reply.status(204).send(null);
      return reply.status(result.status).send(result.answer);
    },
  );
}
