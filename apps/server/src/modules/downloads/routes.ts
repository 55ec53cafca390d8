/**
 * `/frontstage-dc/v1` (spec §7 "Data records: timeseries-records list, POST, download, DELETE"; docs/downloads.md):
 * the caller's telemetry exports. Accounts granted the download section (feature code 8); the file itself also opens
 * with a short-lived link token instead of the bearer header, so the browser can save it to disk directly.
 */
import { create as contentDisposition } from 'content-disposition';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ZDownloadJob,
  ZDownloadJobCreate,
  ZDownloadJobPage,
  ZDownloadLink,
  ZDownloadLinkQuery,
  ZIdParam,
  ZListQuery,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireSection } from '../../core/principal.js';
import { cancelJob, createJob, deleteJob, getJob, linkFor, listJobs, openFile } from './jobs.js';

const tags = ['download-centre'];
const requireDownloads = requireSection('download');
const granted = { preHandler: requireDownloads };
const noContent = { 204: z.null().describe('no content') };

/** The file route: a link token stands in for the login; without one the section gate applies. */
async function tokenOrSection(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if ((request.query as { token?: string }).token !== undefined) return;
  await requireDownloads(request, reply);
}

/** Registers the download-centre routes (prefix `/frontstage-dc/v1`). */
export async function downloadRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db, blobs, outbox } = ctx;
  app.get('/timeseries-records', { ...granted, schema: { tags, querystring: ZListQuery, response: { 200: ZDownloadJobPage } } }, (req) =>
    listJobs(db, principalOf(req), req.query),
  );
  app.post(
    '/timeseries-records',
    { ...granted, schema: { tags, body: ZDownloadJobCreate, response: { 201: ZDownloadJob } } },
    async (req, reply) => {
      const job = await createJob(db, principalOf(req), req.body);
      outbox.nudge('downloads');
      return reply.status(201).send(job);
    },
  );
  app.get('/timeseries-records/:id', { ...granted, schema: { tags, params: ZIdParam, response: { 200: ZDownloadJob } } }, (req) =>
    getJob(db, principalOf(req), req.params.id),
  );
  app.post('/timeseries-records/:id/cancel', { ...granted, schema: { tags, params: ZIdParam, response: { 200: ZDownloadJob } } }, (req) =>
    cancelJob(db, principalOf(req), req.params.id),
  );
  app.delete('/timeseries-records/:id', { ...granted, schema: { tags, params: ZIdParam, response: noContent } }, async (req, reply) => {
    await deleteJob(db, blobs, principalOf(req), req.params.id);
    return reply.status(204).send(null);
  });
  app.post('/timeseries-records/:id/link', { ...granted, schema: { tags, params: ZIdParam, response: { 200: ZDownloadLink } } }, (req) =>
    linkFor(db, principalOf(req), req.params.id),
  );
  app.get(
    '/timeseries-records/:id/download',
    {
      preHandler: tokenOrSection,
      schema: {
        tags,
        params: ZIdParam,
        querystring: ZDownloadLinkQuery,
        description: 'The packaged file (text/csv or application/zip): with the bearer header, or ?token= from POST …/link',
      },
    },
    async (req, reply) => {
      const file = await openFile(db, blobs, req.params.id, { principal: req.principal, token: req.query.token });
      reply
        .header('content-type', file.format === 'zip' ? 'application/zip' : 'text/csv; charset=utf-8')
        .header('content-length', String(file.bytes))
        .header('content-disposition', contentDisposition(file.fileName))
        .header('cache-control', 'private, no-store');
      return reply.send(file.stream);
    },
  );
}
