/**
 * The uplink webhook's HTTP face (docs/protocol.md "LoRaWAN network servers"): `POST /lorawan/v1/{integrationId}/
 * {chirpstack|tts}` with its parameters, body parser, rate limit and headers, registered on every listener that takes
 * it — the main HTTP port (webhook-routes.ts, answering in place) and the device HTTP port's thread
 * (app/device-http-thread.ts, handing each request to the main thread). What a request comes to is receive-uplink.ts's.
 * This module imports no database code: the device HTTP thread loads it.
 */
import { LORAWAN_NETWORK_SERVERS, LORAWAN_SECRET_HEADER, MQTT_MAX_PACKET_BYTES, ZIdText, ZLorawanUplinkAnswer } from '@tessera/contracts';
import { z } from 'zod';
import type { TApp } from '../../core/app-type.js';
import type { TUplinkReply, TUplinkRequest } from './receive-uplink.js';

/** Requests per integration and window (in memory, per listener): 100 a second on average, a whole application's uplinks. */
export const LORAWAN_WEBHOOK_RATE_LIMIT = { max: 1000, timeWindow: 10_000 } as const;
/**
 * The limit's `x-ratelimit-*` headers are left off the answers within it (a network server reads none of them; three
 * headers cost ~7 µs of a request, docs/connectivity.md); a 429 still carries them and `retry-after`.
 */
const WITHIN_LIMIT_HEADERS = { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false } as const;

const ZWebhookParams = z.object({ integrationId: ZIdText, networkServer: z.enum(LORAWAN_NETWORK_SERVERS) });
const ZWebhookQuery = z.object({ event: z.string().max(32).optional() });

/** Answers one webhook request: receive-uplink.ts's `receiveUplink`, here or on the main thread. */
export type TUplinkHandler = (req: TUplinkRequest) => Promise<TUplinkReply>;

/**
 * Registers the webhook on `app` (a scope of its own: it replaces the scope's body parsers), each request answered by
 * `handle`; its AppErrors are answered by the app's error handler.
 */
export function registerLorawanWebhookRoute(app: TApp, handle: TUplinkHandler): void {
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
      const result = await handle({
        integrationId: req.params.integrationId,
        networkServer: req.params.networkServer,
        secret: typeof secret === 'string' ? secret : undefined,
        chirpstackEvent: req.query.event,
        body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
        receivedAt: Date.now(),
      });
      if (result.status === 204) return reply.status(204).send(null);
      return reply.status(result.status).send(result.answer);
    },
  );
}
