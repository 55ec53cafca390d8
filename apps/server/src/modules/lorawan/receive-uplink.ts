/**
 * One request of a network server to an integration's webhook (docs/decisions/lorawan.md, docs/protocol.md
 * "LoRaWAN network servers"): the secret checked, the body read, the device found by DevEUI within the integration's
 * project, the decoded payload mapped to the project's keys and handed to the one ingest pipeline — answered 200 only
 * once its batch committed. Every authenticated request is recorded in the integration's last payloads. The
 * integration and the DevEUI are read through lorawan-cache.ts; the last payloads are written in batches.
 */
import { ErrorCode, lorawanPaths, type TLorawanNetworkServer, type TLorawanRefusal, type TLorawanUplinkAnswer } from '@tessera/contracts';
import type { TMessageBus } from '../../core/context.js';
import { digestEquals, sha256 } from '../../core/crypto.js';
import { AppError, badRequest, notFound, unauthorized } from '../../core/errors.js';
import type { ThrottledLog } from '../../core/throttled-log.js';
import { IngestClosedError } from '../ingest/commit.js';
import { mapDecodedPayload } from './mapping.js';
import { readNetworkServerEvent } from './uplink-body.js';
import type { LorawanDirectory, TIntegrationRow } from './lorawan-cache.js';
import type { TUplinkRecord, UplinkLogWriter } from './uplink-log.js';

/** What the webhook was sent. */
export interface TUplinkRequest {
  integrationId: number;
  /** The network server the URL names (`…/chirpstack` or `…/tts`). */
  networkServer: TLorawanNetworkServer;
  /** The secret header's value, if any. */
  secret: string | undefined;
  /** ChirpStack's `?event=`. */
  chirpstackEvent: string | undefined;
  body: Buffer;
  /** When the request arrived (epoch ms): the points' time when the network server gives none. */
  receivedAt: number;
}

/** The webhook's answer: 200 stored, 202 refused (nothing stored, see `answer`), 204 an event that carries no uplink. */
export type TUplinkReply = { status: 200 | 202; answer: TLorawanUplinkAnswer } | { status: 204; answer: null };

/**
 * What the webhook needs: the cached look-ups, the batched payload log, the bus into ingest, and a log that says each
 * repeated refusal once.
 */
export interface TUplinkDeps {
  directory: LorawanDirectory;
  uplinkLog: UplinkLogWriter;
  bus: Pick<TMessageBus, 'ingestDeviceTelemetry'>;
  log: ThrottledLog;
}

/** A SHA-256 digest no secret has, compared against when the integration does not exist, so both refusals take as long. */
const NO_SECRET_DIGEST = Buffer.from(sha256('no integration'), 'hex');

/**
 * Each cached integration row's stored SHA-256 digest (`secretHash`, hex) as its 32 bytes, decoded once per row: the
 * directory answers the same row object until the integration changes or its entry is read again.
 */
const storedDigests = new WeakMap<TIntegrationRow, Buffer>();
function storedDigestOf(row: TIntegrationRow): Buffer {
  let digest = storedDigests.get(row);
  if (!digest) {
    digest = Buffer.from(row.secretHash, 'hex');
    storedDigests.set(row, digest);
  }
  return digest;
}

/**
 * The integration `id` whose secret is `secret`: the SHA-256 of the secret sent compared in constant time
 * (core/crypto.ts `digestEquals`) with the stored one, decoded once per cached row.
 * @throws AppError 401 AUTH_WRONG_CREDENTIALS when there is no such integration or the secret is missing or wrong
 * (one answer for both, so integration ids cannot be probed).
 */
async function authenticate(directory: LorawanDirectory, id: number, secret: string | undefined) {
  const row = await directory.integration(id);
  const matches = digestEquals(sha256(secret ?? ''), row ? storedDigestOf(row) : NO_SECRET_DIGEST);
  if (!row || !secret || !matches) throw unauthorized('unknown integration or wrong secret', ErrorCode.WrongCredentials);
  return row;
}

/** One event of a network server, read from a webhook request or an MQTT message. */
export interface TNetworkServerDelivery {
  networkServer: TLorawanNetworkServer;
  /** ChirpStack's event type (`?event=`, or the topic's last level). */
  chirpstackEvent: string | undefined;
  body: Buffer;
  /** When it arrived (epoch ms): the points' time when the network server gives none. */
  receivedAt: number;
}

/**
 * Handles one webhook request.
 * @throws AppError 401 (unknown integration, wrong secret), 404 (the URL names the other network server, or the
 * integration takes its uplinks over MQTT), and what {@link handleNetworkServerEvent} throws.
 */
export async function receiveUplink(deps: TUplinkDeps, req: TUplinkRequest): Promise<TUplinkReply> {
  const integration = await authenticate(deps.directory, req.integrationId, req.secret);
  if (integration.networkServer !== req.networkServer) {
    throw notFound(
      `this integration takes ${integration.networkServer}: ${lorawanPaths.webhook(integration.id, integration.networkServer)}`,
    );
  }
  if (integration.transport !== 'webhook') throw notFound("this integration reads its uplinks from ChirpStack's MQTT broker");
  return handleNetworkServerEvent(deps, integration, req);
}

/** What a request came to, as its last-payloads entry says it (the rest is the request's). */
type TUplinkOutcome = Omit<TUplinkRecord, 'integrationId' | 'receivedAt' | 'body'>;

/** Records `entry` for `req` in `integration`'s last payloads. */
function recordOutcome(deps: TUplinkDeps, integration: TIntegrationRow, req: TNetworkServerDelivery, entry: TUplinkOutcome): void {
  deps.uplinkLog.record({ integrationId: integration.id, receivedAt: req.receivedAt, body: req.body, ...entry });
}

/**
 * Records a refusal and answers it: 202 `{stored: 0, refused, detail}`.
 * @throws AppError 400 VALIDATION or 429 RATE_LIMITED (retry after 1 s) for those statuses.
 */
function refuseUplink(
  deps: TUplinkDeps,
  integration: TIntegrationRow,
  req: TNetworkServerDelivery,
  r: { status: 202 | 400 | 429; reason: TLorawanRefusal; detail: string; event: string; devEui: string | null; tangramId: string | null },
): TUplinkReply {
  recordOutcome(deps, integration, req, {
    event: r.event,
    devEui: r.devEui,
    tangramId: r.tangramId,
    outcome: 'refused',
    reason: r.reason,
    detail: r.detail,
    points: 0,
    status: r.status,
  });
  if (r.status === 400) throw badRequest(`${r.reason}: ${r.detail}`);
  if (r.status === 429) throw new AppError(429, ErrorCode.RateLimited, r.detail, undefined, 1);
  return { status: 202, answer: { stored: 0, refused: r.reason, detail: r.detail } };
}

/**
 * Reads one event of `integration`'s network server, stores an uplink's mapped points through the ingest pipeline
 * (resolving once they are committed) and records it in the last payloads.
 * @throws AppError 400 (not JSON, or not a shape of that network server: recorded), 429 (over the device's rate:
 * recorded), 503 (the server is stopping: nothing stored or recorded, the sender may retry).
 */
export async function handleNetworkServerEvent(
  deps: TUplinkDeps,
  integration: TIntegrationRow,
  req: TNetworkServerDelivery,
): Promise<TUplinkReply> {
  let json: unknown;
  try {
    json = JSON.parse(req.body.toString('utf8'));
  } catch {
    return refuseUplink(deps, integration, req, {
      status: 400,
      reason: 'malformed',
      detail: 'the body is not JSON (set the integration to send JSON, not Protobuf)',
      event: req.chirpstackEvent ?? '?',
      devEui: null,
      tangramId: null,
    });
  }
  const read = readNetworkServerEvent(req.networkServer, json, req.chirpstackEvent);
  if ('error' in read)
    return refuseUplink(deps, integration, req, {
      status: 400,
      reason: 'malformed',
      detail: read.error,
      event: req.chirpstackEvent ?? '?',
      devEui: null,
      tangramId: null,
    });
  if (read.event !== 'up') {
    recordOutcome(deps, integration, req, {
      event: read.event,
      devEui: read.devEui,
      tangramId: null,
      outcome: 'ignored',
      reason: null,
      detail: '',
      points: 0,
      status: 204,
    });
    return { status: 204, answer: null };
  }
  const devEui = read.devEui as string;
  const device = await deps.directory.device(integration.tenantId, devEui);
  if (!device || device.projectId !== integration.projectId) {
    const detail = device ? `DevEUI ${devEui} is a device of another project` : `no device of this tenant has DevEUI ${devEui}`;
    deps.log.warn(
      `lorawan-device:${integration.id}:${devEui}`,
      { integrationId: integration.id, devEui },
      'LoRaWAN uplink of an unknown device',
    );
    return refuseUplink(deps, integration, req, { status: 202, reason: 'unknown_device', detail, event: 'up', devEui, tangramId: null });
  }
  if (!read.decoded)
    return refuseUplink(deps, integration, req, {
      status: 202,
      reason: 'not_decoded',
      detail: 'the uplink has no decoded payload (no codec or payload formatter ran)',
      event: 'up',
      devEui,
      tangramId: device.tangramId,
    });
  const points = mapDecodedPayload(read.decoded, integration.mapping, read.receivedAtMs ?? req.receivedAt);
  if (points.length === 0)
    return refuseUplink(deps, integration, req, {
      status: 202,
      reason: 'nothing_mapped',
      detail: 'no mapped field is in the decoded payload',
      event: 'up',
      devEui,
      tangramId: device.tangramId,
    });

  let outcome: Awaited<ReturnType<TUplinkDeps['bus']['ingestDeviceTelemetry']>>;
  try {
    outcome = await deps.bus.ingestDeviceTelemetry(device.tangramId, Buffer.from(JSON.stringify(points)));
  } catch (err) {
    if (err instanceof IngestClosedError) throw new AppError(503, ErrorCode.DatabaseUnavailable, 'the server is stopping: retry');
    throw err;
  }
  if (outcome.kind === 'unknown_device')
    return refuseUplink(deps, integration, req, {
      status: 202,
      reason: 'unknown_device',
      detail: `DevEUI ${devEui}'s device was just deleted`,
      event: 'up',
      devEui,
      tangramId: null,
    });
  if (outcome.kind === 'refused') {
    return refuseUplink(deps, integration, req, {
      status: outcome.reason === 'rate_limited' ? 429 : 202,
      reason: outcome.reason,
      detail: outcome.detail,
      event: 'up',
      devEui,
      tangramId: device.tangramId,
    });
  }
  recordOutcome(deps, integration, req, {
    event: 'up',
    devEui,
    tangramId: device.tangramId,
    outcome: 'stored',
    reason: null,
    detail: '',
    points: outcome.points,
    status: 200,
  });
  return { status: 200, answer: { stored: outcome.points } };
}
