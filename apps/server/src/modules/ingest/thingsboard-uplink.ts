/**
 * What a device logged in with its access token publishes besides telemetry (docs/protocol.md "ThingsBoard device
 * API"): client attributes (`v1/devices/me/attributes`, stored before the PUBACK), attribute requests
 * (`…/attributes/request/{n}`, answered on `…/attributes/response/{n}`), answers to the platform's RPC
 * (`…/rpc/response/{n}`) and RPC requests of its own (`…/rpc/request/{n}`, answered `{"error":"unsupported"}`,
 * docs/decisions/device-apis.md "RPC from the device") and claims (`v1/devices/me/claim`, refused: claim-refusal.ts).
 * The HTTP device API calls the same functions.
 */
import type { Logger } from 'pino';
import { parseAttributeMessage, splitAttributeKeys } from '@tessera/contracts';
import { ThrottledLog } from '../../core/throttled-log.js';
import type { Db } from '../../db/client.js';
import { answerAttributeRequest, writeAttributes } from '../attributes/attribute-store.js';
import type { TIngestDevice } from './directory.js';
import { refuseClaim } from './claim-refusal.js';
import { THINGSBOARD_CLAIM_TOPIC, type TThingsboardTopic } from './thingsboard-acl.js';
import type { ThingsboardDownlink } from './thingsboard-downlink.js';

/** Why a device's client attributes were not stored (the HTTP API answers 400 with it; MQTT logs it and acknowledges). */
export type TClientAttributesOutcome = { ok: true } | { ok: false; reason: string };

/** The answer to an RPC request a device sends the platform: Tessera serves none (docs/decisions/device-apis.md). */
export const RPC_UNSUPPORTED_ANSWER = JSON.stringify({ error: 'unsupported' });

/** Stores `payload` (a JSON object of attributes) as device `device`'s client attributes, at `nowMs`. */
export async function storeClientAttributes(
  db: Db,
  device: TIngestDevice,
  payload: Buffer,
  nowMs = Date.now(),
): Promise<TClientAttributesOutcome> {
  const parsed = parseAttributeMessage(payload.toString('utf8'));
  if (!parsed.ok) return { ok: false, reason: `malformed: ${parsed.reason}` };
  const written = await writeAttributes(db, device.id, 'client', parsed.values, nowMs);
  return written.ok ? { ok: true } : { ok: false, reason: written.reason };
}

/**
 * Reads an attribute request's payload `{"clientKeys":"a,b","sharedKeys":"c"}` (either list may be absent; an empty
 * payload asks for everything) and answers `{ client, shared }`, or `{ error }` for a payload that is not such an object.
 */
export async function attributeRequestAnswer(db: Db, device: TIngestDevice, payload: Buffer): Promise<string> {
  const text = payload.toString('utf8').trim();
  let json: unknown = {};
  if (text.length > 0) {
    try {
      json = JSON.parse(text);
    } catch {
      return JSON.stringify({ error: 'malformed: not JSON' });
    }
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return JSON.stringify({ error: 'malformed: not a JSON object' });
  const req = json as { clientKeys?: unknown; sharedKeys?: unknown };
  return JSON.stringify(
    await answerAttributeRequest(db, device.id, splitAttributeKeys(req.clientKeys), splitAttributeKeys(req.sharedKeys)),
  );
}

/** Handles the non-telemetry publishes of token-logged devices. */
export class ThingsboardUplink {
  private readonly refusedLog: ThrottledLog;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly downlink: () => ThingsboardDownlink,
  ) {
    this.refusedLog = new ThrottledLog(log);
  }

  /**
   * Handles `payload` published by `device` on `topic` (not telemetry). Resolves once it is done — client attributes
   * stored — so the broker's PUBACK follows the commit; rejects when the database failed (the device resends).
   */
  async handle(device: TIngestDevice, topic: Exclude<TThingsboardTopic, { kind: 'telemetry' }>, payload: Buffer): Promise<void> {
    switch (topic.kind) {
      case 'attributes': {
        const stored = await storeClientAttributes(this.db, device, payload);
        if (!stored.ok) {
          this.refusedLog.warn(
            `attributes:${device.tangramId}`,
            { tangramId: device.tangramId, reason: stored.reason },
            'client attributes refused',
          );
        }
        return;
      }
      case 'attribute_request': {
        const answer = await attributeRequestAnswer(this.db, device, payload);
        this.downlink().deliver(
          device.tangramId,
          'v1/devices/me/attributes/response/+',
          `v1/devices/me/attributes/response/${topic.n}`,
          answer,
        );
        return;
      }
      case 'claim':
        return refuseClaim(this.db, this.refusedLog, device, THINGSBOARD_CLAIM_TOPIC);
      case 'rpc_response':
        if (!(await this.downlink().rpcAnswered(device.tangramId, topic.n, payload, false))) {
          this.log.debug({ tangramId: device.tangramId, id: topic.n }, 'RPC answer to no pending request ignored');
        }
        return;
      case 'rpc_request':
        this.downlink().deliver(
          device.tangramId,
          'v1/devices/me/rpc/response/+',
          `v1/devices/me/rpc/response/${topic.n}`,
          RPC_UNSUPPORTED_ANSWER,
        );
        return;
    }
  }
}
