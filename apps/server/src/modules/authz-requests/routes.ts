/**
 * `/client-authz/v1` (spec §7 "Client authorisation: device-authz list, client, PUT {id}, users, device-ids";
 * docs/decisions/authorisation.md): authorisation requests for accounts granted the authorisation section (feature
 * code 6). Users ask (`client`), cancel and read their own; vendors and admins read the tenant's, answer, revoke, list
 * who holds access (`users`) and print a device's QR claim code; a user whose role includes `manage_access` reads,
 * answers and revokes the device and machine requests of what it manages, and lists their holders. Each answer (allow, deny, revoke) is announced on
 * the requester's `live/accounts/{id}/access`: its console refetches, and a revoked device's live stream stops at once.
 */
import {
  ZAuthzDecisionInput,
  ZAuthzDeviceIds,
  ZAuthzHolderList,
  ZAuthzQrCode,
  ZAuthzRequest,
  ZAuthzRequestInput,
  ZAuthzRequestList,
  ZAuthzRequestQuery,
  ZIdParam,
  ZListQuery,
  ZTangramIdParam,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireSection, requireVendor } from '../../core/principal.js';
import { announceAccessChange } from '../devices/access-changes.js';
import { createRequest } from './create-request.js';
import { decideRequest, grantedTangramIds, listHolders, listRequests, qrClaimOf } from './requests.js';

const tags = ['authorisation'];
const granted = { preHandler: requireSection('authorisation') };
const owners = { preHandler: [requireSection('authorisation'), requireVendor] };

/** Registers the authorisation-request routes (prefix `/client-authz/v1`). */
export async function authzRequestRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db, bus, log } = ctx;
  const announce = (accountId: number) => announceAccessChange(bus, log, [accountId]);

  app.get('/device-authz', { ...granted, schema: { tags, querystring: ZAuthzRequestQuery, response: { 200: ZAuthzRequestList } } }, (req) =>
    listRequests(db, principalOf(req), req.query),
  );
  app.post('/client', { ...granted, schema: { tags, body: ZAuthzRequestInput, response: { 201: ZAuthzRequest } } }, async (req, reply) =>
    reply.status(201).send(await createRequest(db, principalOf(req), req.body, Date.now())),
  );
  app.put(
    '/:id',
    { ...granted, schema: { tags, params: ZIdParam, body: ZAuthzDecisionInput, response: { 200: ZAuthzRequest } } },
    async (req) => {
      const { request, tellRequester } = await decideRequest(db, principalOf(req), req.params.id, req.body, Date.now());
      if (tellRequester !== null) await announce(tellRequester);
      return request;
    },
  );
  app.get('/users', { ...granted, schema: { tags, querystring: ZListQuery, response: { 200: ZAuthzHolderList } } }, (req) =>
    listHolders(db, principalOf(req), req.query),
  );
  app.get('/device-ids', { ...granted, schema: { tags, response: { 200: ZAuthzDeviceIds } } }, async (req) => ({
    tangram_ids: await grantedTangramIds(db, principalOf(req)),
  }));
  app.get('/qrcode/:tangramId', { ...owners, schema: { tags, params: ZTangramIdParam, response: { 200: ZAuthzQrCode } } }, (req) =>
    qrClaimOf(db, principalOf(req), req.params.tangramId),
  );
}
