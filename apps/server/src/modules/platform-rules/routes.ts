/**
 * `/rule-engine/v1` (spec §7): platform rules CRUD plus copy, apply, start, stop, a manual run and a replay; their
 * runs (logs); the devices a rule may reference; the tenant's engineConfig; rule-metrics; the platform-rule alerts'
 * dashboard, summary and history (rule-alerts.ts). Vendors only, but for the list and the alert views, which users
 * granted the platform-rule section may read (their alert views hold only alerts of devices they may see).
 */
import {
  ZEngineConfig,
  ZFlowFireList,
  ZFlowReplayRequest,
  ZFlowRun,
  ZFlowRunList,
  ZIdParam,
  ZIdText,
  ZAlertDashboard,
  ZAlertList,
  ZListQuery,
  ZPlatformAlertDashboardQuery,
  ZPlatformAlertQuery,
  ZPlatformAlertSummary,
  ZPlatformAlertSummaryQuery,
  ZPlatformRule,
  ZPlatformRuleInput,
  ZPlatformRuleList,
  ZRuleMetrics,
} from '@tessera/contracts';
import { z } from 'zod';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireVendor } from '../../core/principal.js';
import { requirePlatformRuleViewer } from './feature.js';
import { listRuleDevices, ZRuleDeviceList } from './rule-devices.js';
import { ruleMetrics } from './metrics.js';
import { platformAlertDashboard, platformAlertHistory, platformAlertSummary } from './rule-alerts.js';
import {
  applyRule,
  copyRule,
  createRule,
  deleteRule,
  getEngineConfig,
  getRule,
  getRun,
  listFires,
  listRules,
  listRuns,
  putEngineConfig,
  replayRun,
  runRule,
  startRule,
  stopRule,
  updateRule,
} from './rule-service.js';

const tags = ['rule-engine'];
const vendor = { preHandler: requireVendor };
/** The rule list and the platform-rule alerts: vendors, and users granted the section (read-only; docs/platform-rules.md "Who sees what"). */
const viewer = { preHandler: requirePlatformRuleViewer };
const noContent = { 204: z.null().describe('no content') };
const ZRunParams = z.object({ id: ZIdText, runId: ZIdText });
const ZRunAnswer = z.object({ run_id: z.number().int() });

/** Registers the rule engine routes (prefix `/rule-engine/v1`). */
export async function platformRuleRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db, flows } = ctx;
  const tenant = (req: Parameters<typeof principalOf>[0]) => principalOf(req).tenantId;

  app.get('/rules', { ...viewer, schema: { tags, querystring: ZListQuery, response: { 200: ZPlatformRuleList } } }, (req) =>
    listRules(db, flows, tenant(req), req.query),
  );
  app.post('/rules', { ...vendor, schema: { tags, body: ZPlatformRuleInput, response: { 201: ZPlatformRule } } }, async (req, reply) =>
    reply.status(201).send(await createRule(db, flows, tenant(req), req.body)),
  );
  app.get('/rules/:id', { ...vendor, schema: { tags, params: ZIdParam, response: { 200: ZPlatformRule } } }, (req) =>
    getRule(db, flows, tenant(req), req.params.id),
  );
  app.put(
    '/rules/:id',
    { ...vendor, schema: { tags, params: ZIdParam, body: ZPlatformRuleInput, response: { 200: ZPlatformRule } } },
    (req) => updateRule(db, flows, tenant(req), req.params.id, req.body),
  );
  app.delete('/rules/:id', { ...vendor, schema: { tags, params: ZIdParam, response: noContent } }, async (req, reply) => {
    await deleteRule(db, flows, tenant(req), req.params.id);
    return reply.status(204).send(null);
  });
  app.post('/rules/:id/copy', { ...vendor, schema: { tags, params: ZIdParam, response: { 201: ZPlatformRule } } }, async (req, reply) =>
    reply.status(201).send(await copyRule(db, flows, tenant(req), req.params.id)),
  );
  app.post('/rules/:id/apply', { ...vendor, schema: { tags, params: ZIdParam, response: { 200: ZPlatformRule } } }, (req) =>
    applyRule(db, flows, tenant(req), req.params.id),
  );
  app.post('/rules/:id/start', { ...vendor, schema: { tags, params: ZIdParam, response: { 200: ZPlatformRule } } }, (req) =>
    startRule(db, flows, tenant(req), req.params.id),
  );
  app.post('/rules/:id/stop', { ...vendor, schema: { tags, params: ZIdParam, response: { 200: ZPlatformRule } } }, (req) =>
    stopRule(db, flows, tenant(req), req.params.id),
  );
  app.post('/rules/:id/run', { ...vendor, schema: { tags, params: ZIdParam, response: { 200: ZRunAnswer } } }, (req) =>
    runRule(db, flows, tenant(req), req.params.id),
  );
  app.post(
    '/rules/:id/replay',
    { ...vendor, schema: { tags, params: ZIdParam, body: ZFlowReplayRequest, response: { 200: ZRunAnswer } } },
    (req) => replayRun(db, flows, tenant(req), req.params.id, req.body.run_id),
  );
  app.get(
    '/rules/:id/logs',
    { ...vendor, schema: { tags, params: ZIdParam, querystring: ZListQuery, response: { 200: ZFlowRunList } } },
    (req) => listRuns(db, tenant(req), req.params.id, req.query),
  );
  app.get('/rules/:id/logs/:runId', { ...vendor, schema: { tags, params: ZRunParams, response: { 200: ZFlowRun } } }, (req) =>
    getRun(db, tenant(req), req.params.id, req.params.runId),
  );
  app.get(
    '/rules/:id/fires',
    { ...vendor, schema: { tags, params: ZIdParam, querystring: ZListQuery, response: { 200: ZFlowFireList } } },
    (req) => listFires(db, tenant(req), req.params.id, req.query),
  );
  app.get('/devices', { ...vendor, schema: { tags, querystring: ZListQuery, response: { 200: ZRuleDeviceList } } }, (req) =>
    listRuleDevices(db, tenant(req), req.query),
  );
  app.get('/engineConfig', { ...vendor, schema: { tags, response: { 200: ZEngineConfig } } }, (req) => getEngineConfig(db, tenant(req)));
  app.put('/engineConfig', { ...vendor, schema: { tags, body: ZEngineConfig, response: { 200: ZEngineConfig } } }, (req) =>
    putEngineConfig(db, flows, tenant(req), req.body),
  );
  app.get('/rule-metrics', { ...vendor, schema: { tags, response: { 200: ZRuleMetrics } } }, (req) =>
    ruleMetrics(db, tenant(req), Date.now()),
  );
  app.get(
    '/alerts/dashboard',
    { ...viewer, schema: { tags, querystring: ZPlatformAlertDashboardQuery, response: { 200: ZAlertDashboard } } },
    (req) => platformAlertDashboard(db, principalOf(req), req.query),
  );
  app.get(
    '/alerts/summary',
    { ...viewer, schema: { tags, querystring: ZPlatformAlertSummaryQuery, response: { 200: ZPlatformAlertSummary } } },
    (req) => platformAlertSummary(db, principalOf(req), req.query),
  );
  app.get('/alerts/history', { ...viewer, schema: { tags, querystring: ZPlatformAlertQuery, response: { 200: ZAlertList } } }, (req) =>
    platformAlertHistory(db, principalOf(req), req.query),
  );
}
