/**
 * Alerts routes (prefix `/frontstage-alert/v1`; spec §7 "alerts, vendors, products, projects, statistics,
 * statistics/detail, dashboard/alerts", plus acknowledge, resolve and the CSV). Any logged-in account holding the
 * alerts feature (code 5 or one of its pages); every answer is limited to the alerts the caller may see
 * (alerts/access.ts), so another tenant's alert answers 404 and its lists are empty.
 * Paths: `alertPaths` in packages/contracts; decisions: docs/decisions/alerts.md.
 */
import type { FastifyRequest } from 'fastify';
import {
  ZAlert,
  ZAlertDashboard,
  ZAlertDetail,
  ZAlertDetailQuery,
  ZAlertFilterQuery,
  ZAlertList,
  ZAlertListQuery,
  ZAlertOptions,
  ZAlertRangeQuery,
  ZAlertStatistics,
  ZAlertStatisticsQuery,
  ZIdParam,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf } from '../../core/principal.js';
import { acknowledgeAlert, resolveAlert } from './alert-actions.js';
import { alertProducts, alertProjects, alertVendors } from './alert-options.js';
import { requireAlertsFeature } from './feature.js';
import { prepareAlertCsv } from './download.js';
import { latestAlerts, listAlerts } from './list-alerts.js';
import { alertStatistics } from './statistics.js';
import { alertStatisticsDetail } from './statistics-detail.js';

const tags = ['alerts'];
const guard = { preHandler: requireAlertsFeature };
const me = (req: FastifyRequest) => principalOf(req);

/** Registers the alerts routes. */
export async function alertRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db } = ctx;

  app.get('/alerts', { ...guard, schema: { tags, querystring: ZAlertListQuery, response: { 200: ZAlertList } } }, (req) =>
    listAlerts(db, me(req), req.query),
  );
  app.get(
    '/alerts/download',
    {
      ...guard,
      schema: { tags, querystring: ZAlertFilterQuery, description: 'CSV (text/csv) of the filtered alert history, newest first' },
    },
    async (req, reply) => {
      const { filename, stream } = await prepareAlertCsv(db, me(req), req.query);
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`);
      return reply.send(stream);
    },
  );
  app.post('/alerts/:id/acknowledge', { ...guard, schema: { tags, params: ZIdParam, response: { 200: ZAlert } } }, (req) =>
    acknowledgeAlert(ctx, me(req), req.params.id),
  );
  app.post('/alerts/:id/resolve', { ...guard, schema: { tags, params: ZIdParam, response: { 200: ZAlert } } }, (req) =>
    resolveAlert(ctx, me(req), req.params.id),
  );

  const options = { ...guard, schema: { tags, querystring: ZAlertRangeQuery, response: { 200: ZAlertOptions } } };
  app.get('/vendors', options, (req) => alertVendors(db, me(req), req.query));
  app.get('/products', options, (req) => alertProducts(db, me(req), req.query));
  app.get('/projects', options, (req) => alertProjects(db, me(req), req.query));

  app.get('/statistics', { ...guard, schema: { tags, querystring: ZAlertStatisticsQuery, response: { 200: ZAlertStatistics } } }, (req) =>
    alertStatistics(db, me(req), req.query),
  );
  app.get('/statistics/detail', { ...guard, schema: { tags, querystring: ZAlertDetailQuery, response: { 200: ZAlertDetail } } }, (req) =>
    alertStatisticsDetail(db, me(req), req.query),
  );
  app.get('/dashboard/alerts', { ...guard, schema: { tags, response: { 200: ZAlertDashboard } } }, (req) => latestAlerts(db, me(req)));
}
