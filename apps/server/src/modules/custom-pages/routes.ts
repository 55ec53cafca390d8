/**
 * Custom page routes (spec §2 project tab custom-page, §7 "custom page: GET, PUT multipart htmlFile, DELETE").
 * API under `/frontstage/v1/projects/{id}/custom-page`: GET for the project's vendor and its authorised users, PUT and
 * DELETE for the vendor; another tenant's project answers 404. The page itself is served under `/pages` with a view
 * token instead of the bearer header (docs/decisions/custom-pages.md).
 */
import fastifyMultipart from '@fastify/multipart';
import {
  CUSTOM_PAGE_FILE_FIELD,
  CUSTOM_PAGE_MAX_BYTES,
  CUSTOM_PAGE_TITLE_FIELD,
  CustomPageErrorCode,
  ZCustomPage,
  ZCustomPageViewQuery,
  ZErrorBody,
  ZIdParam,
} from '@tessera/contracts';
import { z } from 'zod';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { notFound, unauthorized } from '../../core/errors.js';
import { principalOf, requireAuth, requireVendor } from '../../core/principal.js';
import { assertCanViewPage, principalOfAccount } from './page-access.js';
import { deletePage, getPage, readPageHtml, revisionOf, savePage } from './page-service.js';
import { readPageUpload, UPLOAD_LIMITS } from './read-upload.js';
import { verifyViewToken } from './view-token.js';
import { consoleOriginOf, isPagesHost, pageHeaders } from './view-url.js';

const tags = ['custom-page'];
const noContent = z.null().describe('no content');

/** Registers the custom page API (prefix `/frontstage/v1`). Multipart is registered in this scope only. */
export async function customPageRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  await app.register(fastifyMultipart, { limits: UPLOAD_LIMITS });
  const path = '/projects/:id/custom-page';

  app.get(
    path,
    {
      preHandler: requireAuth,
      schema: { tags, params: ZIdParam, response: { 200: ZCustomPage, 204: noContent.describe('the project has no page') } },
    },
    async (req, reply) => {
      const page = await getPage(ctx, principalOf(req), req.params.id, consoleOriginOf(req));
      return page ? page : reply.status(204).send(null);
    },
  );
  app.put(
    path,
    {
      preHandler: requireVendor,
      schema: {
        tags,
        params: ZIdParam,
        consumes: ['multipart/form-data'],
        description: `multipart/form-data: "${CUSTOM_PAGE_TITLE_FIELD}" and a UTF-8 HTML file (at most ${CUSTOM_PAGE_MAX_BYTES} bytes) in "${CUSTOM_PAGE_FILE_FIELD}"; the file may be left out to change only the title of an existing page`,
        response: { 200: ZCustomPage },
      },
    },
    async (req) => savePage(ctx, principalOf(req), req.params.id, await readPageUpload(app, req), consoleOriginOf(req)),
  );
  app.delete(path, { preHandler: requireVendor, schema: { tags, params: ZIdParam, response: { 204: noContent } } }, async (req, reply) => {
    await deletePage(ctx, principalOf(req).tenantId, req.params.id);
    return reply.status(204).send(null);
  });
}

/** Headers of a refused page request (an error body must not be sniffed or framed either). */
const REFUSAL_HEADERS = {
  'content-security-policy': "sandbox; default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** Registers the page itself (prefix `/pages`): `GET /pages/custom-page/{projectId}?t=<view token>`. */
export async function customPageViewRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  app.get(
    '/custom-page/:id',
    {
      // The console's policy (and its X-Frame-Options) would be wrong here; pageHeaders sets this document's own.
      config: { securityHeaders: false },
      schema: {
        tags,
        security: [],
        params: ZIdParam,
        querystring: ZCustomPageViewQuery,
        description: 'the page HTML, sandboxed by its CSP; opened with the view URL of GET custom-page',
        response: { 200: z.unknown().describe('text/html; charset=utf-8'), 401: ZErrorBody, 404: ZErrorBody },
      },
    },
    async (req, reply) => {
      reply.headers(REFUSAL_HEADERS);
      if (!isPagesHost(ctx.config, req)) throw notFound('page');
      const verified = req.query.t ? await verifyViewToken(ctx.db, req.query.t) : ({ ok: false, reason: 'invalid' } as const);
      if (!verified.ok) {
        if (verified.reason === 'expired')
          throw unauthorized('the page link has expired: open the page again', CustomPageErrorCode.LinkExpired);
        throw unauthorized('the page link is invalid', CustomPageErrorCode.LinkInvalid);
      }
      const grant = verified.grant;
      const viewer = await principalOfAccount(ctx.db, grant.accountId);
      if (grant.projectId !== req.params.id || !viewer || viewer.tenantId !== grant.tenantId) {
        throw unauthorized('the page link is not for this page', CustomPageErrorCode.LinkInvalid);
      }
      await assertCanViewPage(ctx.db, viewer, grant.projectId);
      const page = await readPageHtml(ctx, grant.projectId);
      if (!page || revisionOf(page.sha256) !== grant.revision) throw notFound('custom page');
      return reply.headers(pageHeaders(grant.frameAncestor)).type('text/html; charset=utf-8').send(page.html);
    },
  );
}
