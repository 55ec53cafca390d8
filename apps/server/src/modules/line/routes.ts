/**
 * LINE routes (prefix `/notification/v1`, spec §7 "Line official account, user, message-flow, account-link"):
 * official account, chats, linked users and message-flow groups are vendor only; account-link is any logged-in
 * account's own; the webhook is public and answers only bodies signed with the tenant's channel secret. The push
 * worker is the outbox stage's (app/outbox.ts).
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ZAccountLinkRedirect,
  ZAccountLinkStart,
  ZAccountLinkStatus,
  ZIdParam,
  ZLineChats,
  ZLineGroup,
  ZLineGroupInput,
  ZLineGroups,
  ZLineGroupTestResult,
  ZLineLinkedUsers,
  ZLineOfficialAccountInput,
  ZLineOfficialAccountState,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireAuth, requireVendor } from '../../core/principal.js';
import { accountLinkStatus, listLinkedUsers, startAccountLink, unlinkAccount } from './account-link.js';
import { listChats } from './chats.js';
import { testGroupPush } from './group-test.js';
import { createGroup, deleteGroup, updateGroup } from './groups.js';
import { getGroup, listGroups } from './groups-read.js';
import { deleteOfficialAccount, getOfficialAccount, putOfficialAccount } from './official-account.js';
import { createLineRuntime, type TLineRuntime } from './runtime.js';
import { receiveLineWebhook } from './webhook.js';

const vendor = { preHandler: requireVendor };
const anyAccount = { preHandler: requireAuth };
const tenant = (req: FastifyRequest) => principalOf(req).tenantId;
const origin = (req: FastifyRequest) => `${req.protocol}://${req.host}`;
const tags = { tags: ['notification'] };

/** Registers the LINE routes and the push worker's lifecycle. */
export async function lineRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const rt = await createLineRuntime(ctx);
  const { db, box } = rt;
  const base = (req: FastifyRequest) => rt.publicUrl ?? origin(req);

  await app.register(async (scope) => webhookRoute(scope as TApp, rt));

  const account = '/line/official-account';
  app.get(account, { ...vendor, schema: { ...tags, response: { 200: ZLineOfficialAccountState } } }, (req) =>
    getOfficialAccount(db, box, tenant(req), base(req)),
  );
  app.put(
    account,
    { ...vendor, schema: { ...tags, body: ZLineOfficialAccountInput, response: { 200: ZLineOfficialAccountState } } },
    (req) => putOfficialAccount(db, box, tenant(req), req.body, origin(req), base(req)),
  );
  app.delete(account, { ...vendor, schema: tags }, async (req, reply) => {
    await deleteOfficialAccount(db, tenant(req));
    return reply.status(204).send();
  });
  app.get('/line/chats', { ...vendor, schema: { ...tags, response: { 200: ZLineChats } } }, (req) => listChats(db, tenant(req)));

  app.post(
    '/account-link',
    { ...anyAccount, schema: { ...tags, body: ZAccountLinkStart, response: { 200: ZAccountLinkRedirect } } },
    (req) => startAccountLink(db, principalOf(req), req.body.linkToken),
  );
  app.get('/account-link', { ...anyAccount, schema: { ...tags, response: { 200: ZAccountLinkStatus } } }, (req) =>
    accountLinkStatus(db, principalOf(req)),
  );
  app.delete('/account-link', { ...anyAccount, schema: tags }, async (req, reply) => {
    await unlinkAccount(db, principalOf(req));
    return reply.status(204).send();
  });
  app.get('/user', { ...vendor, schema: { ...tags, response: { 200: ZLineLinkedUsers } } }, (req) => listLinkedUsers(db, tenant(req)));

  const groups = '/message-flow';
  app.get(groups, { ...vendor, schema: { ...tags, response: { 200: ZLineGroups } } }, (req) => listGroups(db, tenant(req)));
  app.post(groups, { ...vendor, schema: { ...tags, body: ZLineGroupInput, response: { 201: ZLineGroup } } }, async (req, reply) =>
    reply.status(201).send(await createGroup(db, tenant(req), req.body)),
  );
  app.get(`${groups}/:id`, { ...vendor, schema: { ...tags, params: ZIdParam, response: { 200: ZLineGroup } } }, (req) =>
    getGroup(db, tenant(req), req.params.id),
  );
  app.put(
    `${groups}/:id`,
    { ...vendor, schema: { ...tags, params: ZIdParam, body: ZLineGroupInput, response: { 200: ZLineGroup } } },
    (req) => updateGroup(db, tenant(req), req.params.id, req.body),
  );
  app.delete(`${groups}/:id`, { ...vendor, schema: { ...tags, params: ZIdParam } }, async (req, reply) => {
    await deleteGroup(db, tenant(req), req.params.id);
    return reply.status(204).send();
  });
  app.post(`${groups}/:id/test`, { ...vendor, schema: { ...tags, params: ZIdParam, response: { 200: ZLineGroupTestResult } } }, (req) =>
    testGroupPush(rt, tenant(req), req.params.id),
  );
}

/** The webhook in its own scope, whose only body parser keeps the raw bytes (the signature is over them). */
async function webhookRoute(scope: TApp, rt: TLineRuntime): Promise<void> {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  scope.post(
    '/line/webhook/:webhookId',
    {
      schema: {
        ...tags,
        security: [],
        params: z.object({ webhookId: z.string().min(1).max(64) }),
        response: { 200: z.object({ handled: z.number().int() }) },
      },
    },
    async (req) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const signature = req.headers['x-line-signature'];
      return { handled: await receiveLineWebhook(rt, req.params.webhookId, raw, typeof signature === 'string' ? signature : undefined) };
    },
  );
}
