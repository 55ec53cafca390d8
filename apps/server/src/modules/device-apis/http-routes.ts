/**
 * ThingsBoard's HTTP device API (docs/protocol.md "ThingsBoard device API (HTTP)"): `POST /api/v1/{token}/telemetry`
 * with the same payloads as `v1/devices/me/telemetry`; client attributes (`POST …/attributes`) and the attribute
 * request (`GET …/attributes?clientKeys=&sharedKeys=`); shared attribute changes by long poll
 * (`GET …/attributes/updates?timeout=`, 408 when none came); RPC by long poll (`GET …/rpc?timeout=`, 408 when none came)
 * and its answer (`POST …/rpc/{id}`); the device's own RPC (`POST …/rpc`, answered `{"error":"unsupported"}`); a
 * claim (`POST …/claim`), refused with 403 DEVICE_CLAIM_REFUSED and counted as `claim_refused` (docs/decisions/
 * device-apis.md "Claiming").
 * Telemetry: 200 (empty) only once the points are committed; 401 for a
 * token no device has; 400 for a message ingest refuses (malformed, a key the project lacks, a value that is not a
 * number, over 1000 values, a timestamp outside the window — counted like an MQTT refusal); 413 over
 * MQTT_MAX_PACKET_BYTES; 429 over the per-token request rate; 503 while the server shuts down.
 */
import {
  DEVICE_POLL_DEFAULT_MS,
  DEVICE_POLL_MAX_MS,
  DEVICE_POLL_MIN_MS,
  ErrorCode,
  MQTT_MAX_PACKET_BYTES,
  RPC_RESPONSE_MAX_BYTES,
} from '@tessera/contracts';
import { z } from 'zod';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import type { TTokenDevice } from '../../core/context.js';
import { AppError, badRequest, notFound, unauthorized } from '../../core/errors.js';
import { ThrottledLog } from '../../core/throttled-log.js';
import { CLAIM_REASON, refuseClaim } from '../ingest/claim-refusal.js';
import { IngestClosedError } from '../ingest/commit.js';
import { attributeRequestAnswer, RPC_UNSUPPORTED_ANSWER, storeClientAttributes } from '../ingest/thingsboard-uplink.js';

/** Requests per access token and window (in memory, per replica): 10 a second on average, in bursts of up to 100. */
export const HTTP_DEVICE_RATE_LIMIT = { max: 100, timeWindow: 10_000 } as const;

const ZTokenParam = z.object({ token: z.string().min(1).max(128) });
const ZRpcIdParam = ZTokenParam.extend({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'an RPC request id') });
const ZAttributeQuery = z.object({ clientKeys: z.string().max(8192).optional(), sharedKeys: z.string().max(8192).optional() });
const ZPollQuery = z.object({
  timeout: z.coerce.number().int().min(DEVICE_POLL_MIN_MS).max(DEVICE_POLL_MAX_MS).default(DEVICE_POLL_DEFAULT_MS),
});
const tags = ['device-api'];

/** Registers the HTTP device API (prefix `''`: the paths are ThingsBoard's). */
export async function deviceHttpRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  // The payload goes to ingest as the bytes that came, whatever the content type (curl -d sends a form type).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MQTT_MAX_PACKET_BYTES }, (_req, body, done) => done(null, body));
  const config = {
    rateLimit: { ...HTTP_DEVICE_RATE_LIMIT, keyGenerator: (req: { params: unknown }) => (req.params as { token?: string }).token ?? '' },
  };
  app.post(
    '/api/v1/:token/telemetry',
    { schema: { tags, params: ZTokenParam, summary: "A device's telemetry, ThingsBoard's HTTP form" }, config },
    async (req, reply) => {
      const body = bodyOf(req.body);
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

  /** The device of the path's token. @throws AppError 401 AUTH_WRONG_CREDENTIALS when no device has it. */
  async function deviceOf(token: string): Promise<TTokenDevice> {
    const device = await ctx.bus.tokenDevice(token);
    if (!device) throw unauthorized('no device has this access token', ErrorCode.WrongCredentials);
    return device;
  }

  app.post(
    '/api/v1/:token/attributes',
    { schema: { tags, params: ZTokenParam, summary: "A device's client attributes, ThingsBoard's HTTP form" }, config },
    async (req, reply) => {
      const device = await deviceOf(req.params.token);
      const stored = await storeClientAttributes(ctx.db, device, bodyOf(req.body));
      if (!stored.ok) throw badRequest(stored.reason);
      return reply.status(200).send();
    },
  );
  app.get(
    '/api/v1/:token/attributes',
    {
      schema: { tags, params: ZTokenParam, querystring: ZAttributeQuery, summary: "A device's client and shared attributes, by key" },
      config,
    },
    async (req, reply) => {
      const device = await deviceOf(req.params.token);
      const body = Buffer.from(JSON.stringify({ clientKeys: req.query.clientKeys, sharedKeys: req.query.sharedKeys }));
      return reply
        .status(200)
        .type('application/json')
        .send(await attributeRequestAnswer(ctx.db, device, body));
    },
  );
  app.get(
    '/api/v1/:token/attributes/updates',
    {
      schema: {
        tags,
        params: ZTokenParam,
        querystring: ZPollQuery,
        summary: "Wait for a change of the device's shared attributes (long poll)",
      },
      config,
    },
    async (req, reply) => {
      const device = await deviceOf(req.params.token);
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      const update = await ctx.bus.pollSharedAttributes(device.tangramId, req.query.timeout, gone.signal);
      if (!update)
        throw new AppError(408, ErrorCode.DeviceTimeout, `no shared attribute changed within ${req.query.timeout} ms: poll again`);
      return reply.status(200).send(update);
    },
  );
  app.get(
    '/api/v1/:token/rpc',
    {
      schema: { tags, params: ZTokenParam, querystring: ZPollQuery, summary: 'Wait for an RPC request to the device (long poll)' },
      config,
    },
    async (req, reply) => {
      const device = await deviceOf(req.params.token);
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      const request = await ctx.bus.pollRpc(device.tangramId, req.query.timeout, gone.signal);
      if (!request) throw new AppError(408, ErrorCode.DeviceTimeout, `no RPC request within ${req.query.timeout} ms: poll again`);
      return reply.status(200).send(request);
    },
  );
  app.post(
    '/api/v1/:token/rpc/:id',
    { schema: { tags, params: ZRpcIdParam, summary: "The device's answer to an RPC request" }, config },
    async (req, reply) => {
      const device = await deviceOf(req.params.token);
      const body = bodyOf(req.body);
      const known = await ctx.bus.answerRpc(device.tangramId, req.params.id, body);
      if (!known) throw notFound('no RPC request with this id is waiting for an answer');
      if (body.length > RPC_RESPONSE_MAX_BYTES) {
        throw new AppError(413, ErrorCode.PayloadTooLarge, `an RPC answer is at most ${RPC_RESPONSE_MAX_BYTES} bytes`);
      }
      return reply.status(200).send();
    },
  );
  app.post(
    '/api/v1/:token/rpc',
    { schema: { tags, params: ZTokenParam, summary: 'An RPC request of the device to the platform (none is served)' }, config },
    async (req, reply) => {
      await deviceOf(req.params.token);
      return reply.status(200).type('application/json').send(RPC_UNSUPPORTED_ANSWER);
    },
  );
  const claimLog = new ThrottledLog(ctx.log);
  app.post(
    '/api/v1/:token/claim',
    { schema: { tags, params: ZTokenParam, summary: 'A device claim (ThingsBoard): refused, Tessera has no claiming' }, config },
    async (req) => {
      const device = await deviceOf(req.params.token);
      await refuseClaim(ctx.db, claimLog, device, 'POST /api/v1/{token}/claim');
      throw new AppError(403, ErrorCode.DeviceClaimRefused, CLAIM_REASON);
    },
  );
}

/** The raw body bytes (every content type is read as a buffer). */
function bodyOf(body: unknown): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.alloc(0);
}
