/**
 * `/frontstage-ai/v1` (spec §7 "AI: ai-models with revisions CRUD and download"; docs/decisions/ai.md): the tenant's
 * AI model registry. Every route is the vendor's: vendors and admins of the tenant granted the registry (feature code
 * 13:1); users get 403. Another tenant's ids answer 404 like missing ones. Multipart is registered in this scope
 * only, for the upload.
 */
import fastifyMultipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AI_MODEL_FILE_FIELD,
  AI_MODEL_NOTES_FIELD,
  AI_MODEL_NOTES_MAX,
  MAX_MODEL_BYTES,
  ZAiModel,
  ZAiModelDownloadQuery,
  ZAiModelInput,
  ZAiModelLink,
  ZAiModelListQuery,
  ZAiModelPage,
  ZAiModelRevision,
  ZAiModelRevisionPage,
  ZAiModelRevisionParam,
  ZIdParam,
  ZListQuery,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireSection, requireVendor } from '../../core/principal.js';
import { deleteAiModel, deleteRevision } from './delete-model.js';
import { revisionLink, revisionToDownload, sendRevisionFile } from './download.js';
import { getAiModel, listAiModels } from './model-queries.js';
import { readRevisionUpload } from './read-upload.js';
import { listRevisions } from './revision-queries.js';
import { createAiModel, updateAiModel } from './save-model.js';
import { uploadRevision } from './upload-revision.js';

const tags = ['ai-models'];
const noContent = { 204: z.null().describe('no content') };
const requireRegistry = requireSection('aiModel');

/** preHandler: a vendor or admin granted the registry (13:1). 401 without a login, 403 otherwise. */
export async function requireModelManager(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await requireVendor(request, reply);
  await requireRegistry(request, reply);
}
const manager = { preHandler: requireModelManager };

/** The download: a link token stands in for the login; without one the manager gate applies. */
async function tokenOrManager(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if ((request.query as { token?: string }).token !== undefined) return;
  await requireModelManager(request, reply);
}

const tenant = (req: FastifyRequest) => principalOf(req).tenantId;

/** Registers the AI model routes (prefix `/frontstage-ai/v1`). */
export async function aiModelRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db, blobs, log } = ctx;
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_MODEL_BYTES, files: 1, fields: 1, parts: 2, fieldSize: AI_MODEL_NOTES_MAX * 4 },
  });

  app.get('/ai-models', { ...manager, schema: { tags, querystring: ZAiModelListQuery, response: { 200: ZAiModelPage } } }, (req) =>
    listAiModels(db, tenant(req), req.query),
  );
  app.post('/ai-models', { ...manager, schema: { tags, body: ZAiModelInput, response: { 201: ZAiModel } } }, async (req, reply) =>
    reply.status(201).send(await createAiModel(db, tenant(req), req.body)),
  );
  app.get('/ai-models/:id', { ...manager, schema: { tags, params: ZIdParam, response: { 200: ZAiModel } } }, (req) =>
    getAiModel(db, tenant(req), req.params.id),
  );
  app.put('/ai-models/:id', { ...manager, schema: { tags, params: ZIdParam, body: ZAiModelInput, response: { 200: ZAiModel } } }, (req) =>
    updateAiModel(db, tenant(req), req.params.id, req.body),
  );
  app.delete('/ai-models/:id', { ...manager, schema: { tags, params: ZIdParam, response: noContent } }, async (req, reply) => {
    await deleteAiModel({ db, blobs, log }, tenant(req), req.params.id);
    return reply.status(204).send(null);
  });

  app.get(
    '/ai-models/:id/revisions',
    { ...manager, schema: { tags, params: ZIdParam, querystring: ZListQuery, response: { 200: ZAiModelRevisionPage } } },
    (req) => listRevisions(db, tenant(req), req.params.id, req.query),
  );
  app.post(
    '/ai-models/:id/revisions',
    {
      ...manager,
      schema: {
        tags,
        params: ZIdParam,
        consumes: ['multipart/form-data'],
        description: `multipart/form-data: optional "${AI_MODEL_NOTES_FIELD}" (at most ${AI_MODEL_NOTES_MAX} characters), then the file in "${AI_MODEL_FILE_FIELD}" (at most ${MAX_MODEL_BYTES} bytes)`,
        response: { 201: ZAiModelRevision },
      },
    },
    async (req, reply) => {
      const upload = await readRevisionUpload(req);
      return reply.status(201).send(await uploadRevision({ db, blobs, log }, principalOf(req), req.params.id, upload));
    },
  );
  app.delete(
    '/ai-models/:id/revisions/:rev',
    { ...manager, schema: { tags, params: ZAiModelRevisionParam, response: noContent } },
    async (req, reply) => {
      await deleteRevision({ db, blobs, log }, tenant(req), req.params.id, req.params.rev);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/ai-models/:id/revisions/:rev/link',
    { ...manager, schema: { tags, params: ZAiModelRevisionParam, response: { 200: ZAiModelLink } } },
    (req) => revisionLink(db, principalOf(req), req.params.id, req.params.rev),
  );
  app.get(
    '/ai-models/:id/revisions/:rev/download',
    {
      preHandler: tokenOrManager,
      schema: {
        tags,
        params: ZAiModelRevisionParam,
        querystring: ZAiModelDownloadQuery,
        description:
          'The file (application/octet-stream), with the bearer header or ?token= from POST …/link. One `Range: bytes=` range → 206; ETag is the SHA-256; a range outside the file → 416',
      },
    },
    async (req, reply) => {
      const revision = await revisionToDownload(db, req.params.id, req.params.rev, { principal: req.principal, token: req.query.token });
      return sendRevisionFile(blobs, revision, req, reply);
    },
  );
}
