/**
 * `/frontstage-ts/v1…` (spec §7 Timeseries; §5 history range). Any logged-in account (JWT or API key); a device
 * the caller may not see answers 404 (§6). Range limits: docs/decisions/telemetry.md.
 */
import { z } from 'zod';
import {
  AGG_FNS,
  ZActivationRate,
  ZActivationRateQuery,
  ZStatisticsSummary,
  ZStatisticsSummaryQuery,
  ZDeviceTwin,
  ZDeviceTwinsQuery,
  ZDownloadQuery,
  ZLatestNQuery,
  ZLatestValue,
  ZRawTimeseriesQuery,
  ZTangramIdQuery,
  ZTelemetryMetadata,
  ZTelemetryRow,
  ZTimeseriesQuery,
  ZTimeseriesResponse,
  ZTimeseriesV1Query,
  ZTsTypes,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireAuth, requireSection, requireVendor } from '../../core/principal.js';
import { activationRate } from './activation.js';
import { prepareDownload } from './download.js';
import { getLatest, getLatestN, getMetadata } from './latest.js';
import { getRawValues } from './raw.js';
import { statisticsSummary } from './statistics.js';
import { queryTimeseries } from './timeseries.js';
import { getDeviceTwins } from './twins.js';

const tags = ['timeseries'];
const auth = { preHandler: requireAuth };

/** Registers the time-series routes (prefix `/frontstage-ts/v1`). */
export async function telemetryRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db } = ctx;
  app.get(
    '/telemetries/metadata',
    { ...auth, schema: { tags, querystring: ZTangramIdQuery, response: { 200: ZTelemetryMetadata } } },
    (req) => getMetadata(db, principalOf(req), req.query.tangramId),
  );
  app.get('/latest', { ...auth, schema: { tags, querystring: ZTangramIdQuery, response: { 200: z.array(ZLatestValue) } } }, (req) =>
    getLatest(db, principalOf(req), req.query.tangramId),
  );
  app.get('/latestN', { ...auth, schema: { tags, querystring: ZLatestNQuery, response: { 200: z.array(ZTelemetryRow) } } }, (req) =>
    getLatestN(db, principalOf(req), req.query),
  );
  app.get('/deviceTwins', { ...auth, schema: { tags, querystring: ZDeviceTwinsQuery, response: { 200: z.array(ZDeviceTwin) } } }, (req) =>
    getDeviceTwins(db, principalOf(req), req.query.tangramIds),
  );
  app.get('/types', { ...auth, schema: { tags, response: { 200: ZTsTypes } } }, async () => ({
    fns: [...AGG_FNS],
    values: ['v1', 'v2', 'v3'],
    diff: true,
  }));
  app.get('/v2/timeseries', { ...auth, schema: { tags, querystring: ZTimeseriesQuery, response: { 200: ZTimeseriesResponse } } }, (req) =>
    queryTimeseries(db, principalOf(req), req.query),
  );
  app.get('/timeseries', { ...auth, schema: { tags, querystring: ZTimeseriesV1Query, response: { 200: ZTimeseriesResponse } } }, (req) =>
    queryTimeseries(db, principalOf(req), { ...req.query, fn: 'avg', diff: false }),
  );
  app.get(
    '/telemetries/value/timeseries',
    { ...auth, schema: { tags, querystring: ZRawTimeseriesQuery, response: { 200: z.array(ZTelemetryRow) } } },
    (req) => getRawValues(db, principalOf(req), req.query),
  );
  app.get(
    '/statistics/summary',
    { ...auth, schema: { tags, querystring: ZStatisticsSummaryQuery, response: { 200: ZStatisticsSummary } } },
    (req) => statisticsSummary(db, principalOf(req), req.query),
  );
  app.get(
    '/statistics/activation-rate',
    // Vendors' view of their fleet (analytics section); users are refused (docs/analytics.md).
    {
      preHandler: [requireSection('analytics'), requireVendor],
      schema: { tags, querystring: ZActivationRateQuery, response: { 200: ZActivationRate } },
    },
    (req) => activationRate(db, principalOf(req), req.query),
  );
  app.get(
    '/download',
    // The body is a CSV stream (no JSON schema): columns ts (ISO), ts_ms, svc_recv_ts, key, v1, v2, v3.
    {
      ...auth,
      schema: { tags, querystring: ZDownloadQuery, description: 'CSV (text/csv) of raw rows: ts, ts_ms, svc_recv_ts, key, v1, v2, v3' },
    },
    async (req, reply) => {
      const { filename, stream } = await prepareDownload(db, principalOf(req), req.query);
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`);
      return reply.send(stream);
    },
  );
}
