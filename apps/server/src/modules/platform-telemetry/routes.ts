/**
 * `/frontstage-pt/v1/platform-telemetry` (spec §7: list, GET {id}, POST, PUT and DELETE {id}), plus the formula
 * preview and the stored series. Vendors (and admins) granted the platform-telemetry section (feature code 12): a
 * platform telemetry combines any of the tenant's devices, so users — who see only some — are refused.
 */
import {
  ZFormulaPreview,
  ZFormulaPreviewInput,
  ZIdParam,
  ZListQuery,
  ZPlatformTelemetry,
  ZPlatformTelemetryInput,
  ZPlatformTelemetryPage,
  ZPlatformTelemetrySeries,
  ZPlatformTelemetrySeriesQuery,
  ZPlatformTelemetryStatistics,
  ZPlatformTelemetryStatisticsQuery,
} from '@tessera/contracts';
import { z } from 'zod';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireSection, requireVendor } from '../../core/principal.js';
import {
  createPlatformTelemetry,
  deletePlatformTelemetry,
  getPlatformTelemetry,
  listPlatformTelemetry,
  previewFormula,
  updatePlatformTelemetry,
} from './service.js';
import { platformTelemetrySeries, platformTelemetryStatistics } from './stored-points.js';

const tags = ['platform-telemetry'];
const granted = { preHandler: [requireSection('platformTelemetry'), requireVendor] };

/** Registers the platform-telemetry routes (prefix `/frontstage-pt/v1`). */
export async function platformTelemetryRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db } = ctx;
  app.get(
    '/platform-telemetry',
    { ...granted, schema: { tags, querystring: ZListQuery, response: { 200: ZPlatformTelemetryPage } } },
    (req) => listPlatformTelemetry(db, principalOf(req), req.query),
  );
  app.post(
    '/platform-telemetry',
    { ...granted, schema: { tags, body: ZPlatformTelemetryInput, response: { 201: ZPlatformTelemetry } } },
    async (req, reply) =>
      reply
        .status(201)
        .send(await createPlatformTelemetry(db, principalOf(req), req.body).finally(() => ctx.platformTelemetry.mountsChanged())),
  );
  app.post(
    '/platform-telemetry/preview',
    { ...granted, schema: { tags, body: ZFormulaPreviewInput, response: { 200: ZFormulaPreview } } },
    (req) => previewFormula(db, principalOf(req), req.body),
  );
  app.get('/platform-telemetry/:id', { ...granted, schema: { tags, params: ZIdParam, response: { 200: ZPlatformTelemetry } } }, (req) =>
    getPlatformTelemetry(db, principalOf(req), req.params.id),
  );
  app.put(
    '/platform-telemetry/:id',
    { ...granted, schema: { tags, params: ZIdParam, body: ZPlatformTelemetryInput, response: { 200: ZPlatformTelemetry } } },
    (req) => updatePlatformTelemetry(db, principalOf(req), req.params.id, req.body).finally(() => ctx.platformTelemetry.mountsChanged()),
  );
  app.delete(
    '/platform-telemetry/:id',
    { ...granted, schema: { tags, params: ZIdParam, response: { 204: z.null().describe('no content') } } },
    async (req, reply) => {
      await deletePlatformTelemetry(db, principalOf(req), req.params.id);
      ctx.platformTelemetry.mountsChanged();
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/platform-telemetry/:id/timeseries',
    {
      ...granted,
      schema: { tags, params: ZIdParam, querystring: ZPlatformTelemetrySeriesQuery, response: { 200: ZPlatformTelemetrySeries } },
    },
    (req) => platformTelemetrySeries(db, principalOf(req), req.params.id, req.query),
  );
  app.get(
    '/platform-telemetry/:id/statistics',
    {
      ...granted,
      schema: { tags, params: ZIdParam, querystring: ZPlatformTelemetryStatisticsQuery, response: { 200: ZPlatformTelemetryStatistics } },
    },
    (req) => platformTelemetryStatistics(db, principalOf(req), req.params.id, req.query),
  );
}
