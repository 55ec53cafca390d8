/**
 * ThingsBoard's HTTP device API (docs/protocol.md "ThingsBoard device API (HTTP)"): `POST /api/v1/{token}/telemetry`
 * with the same payloads as `v1/devices/me/telemetry`. 200 (empty) only once the points are committed; 401 for a
 * token no device has; 400 for a message ingest refuses (malformed, a key the project lacks, a value that is not a
 * number, over 1000 values, a timestamp outside the window — counted like an MQTT refusal); 413 over
 * MQTT_MAX_PACKET_BYTES; 429 over the per-token request rate; 503 while the server shuts down.
 */
import { ErrorCode, MQTT_MAX_PACKET_BYTES } from '@tessera/contracts';
import { z } from 'zod';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { AppError, badRequest, unauthorized } from '../../core/errors.js';
import { IngestClosedError } from '../ingest/commit.js';

/** Requests per access token and window (in memory, per replica): 10 a second on average, in bursts of up to 100. */
export const HTTP_DEVICE_RATE_LIMIT = { max: 100, timeWindow: 10_000 } as const;

const ZTokenParam = z.object({ token: z.string().min(1).max(128) });
const tags = ['device-api'];

/** Registers the HTTP device API (prefix `''`: the paths are ThingsBoard's). */
export async function deviceHttpRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  // The payload goes to ingest as the bytes that came, whatever the content type (curl -d sends a form type).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MQTT_MAX_PACKET_BYTES }, (_req, body, done) => done(null, body));
  app.post(
    '/api/v1/:token/telemetry',
    {
      schema: { tags, params: ZTokenParam, summary: "A device's telemetry, ThingsBoard's HTTP form" },
      config: { rateLimit: { ...HTTP_DEVICE_RATE_LIMIT, keyGenerator: (req) => (req.params as { token?: string }).token ?? '' } },
    },
    async (req, reply) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const outcome = await ctx.bus.ingestTokenTelemetry(req.params.token, body).catch((err: unknown) => {
        if (err instanceof IngestClosedError) throw new AppError(503, ErrorCode.DatabaseUnavailable, 'the server is stopping: retry');
        throw err;
      });
      if (outcome.kind === 'unknown_token') throw unauthorized('no device has this access token', ErrorCode.WrongCredentials);
      if (outcome.kind === 'refused') {
        if (outcome.reason === 'rate_limited') throw new AppError(429, ErrorCode.RateLimited, outcome.detail, undefined, 1);
        throw badRequest(`${outcome.reason}: ${outcome.detail}`);
      }
      return reply.status(200).send();
    },
  );
}
