/**
 * Project rules routes (prefix `/frontstage/v1`; spec §7 "rules: simples list, add, update, delete; blocklys list,
 * add, get, put, delete, POST compile; blockly setting GET and PUT"), all under `projects/{id}/rules/`. Vendor only
 * (§6), tenant-scoped: another tenant's project answers 404, and so does a rule of another project.
 * Paths: `rulePaths` in packages/contracts; decisions: docs/decisions/rules.md.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ZBlocklyProgram,
  ZBlocklyProgramInput,
  ZBlocklyProgramList,
  ZBlocklyProgramUpdate,
  ZBlocklySetting,
  ZCompileRequest,
  ZCompileResult,
  ZIdParam,
  ZListQuery,
  ZProjectRuleParams,
  ZSimpleRule,
  ZSimpleRuleInput,
  ZSimpleRuleList,
  ZSimpleRuleUpdate,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireVendor } from '../../core/principal.js';
import { compileForProject, createProgram, deleteProgram, getProgram, listPrograms, updateProgram } from './blockly-programs.js';
import { getBlocklySetting, putBlocklySetting } from './blockly-setting.js';
import { createSimpleRule, deleteSimpleRule, listSimpleRules, updateSimpleRule } from './simple-rules.js';

const tags = ['rules'];
const vendor = { preHandler: requireVendor };
const tenant = (req: FastifyRequest) => principalOf(req).tenantId;
const noContent = { 204: z.null().describe('no content') };
const simples = '/projects/:id/rules/simples';
const blocklys = '/projects/:id/rules/blocklys';

/** Registers the project rules routes. */
export async function projectRuleRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db, ruleChanges } = ctx;

  app.get(simples, { ...vendor, schema: { tags, params: ZIdParam, querystring: ZListQuery, response: { 200: ZSimpleRuleList } } }, (req) =>
    listSimpleRules(db, tenant(req), req.params.id, req.query),
  );
  app.post(
    simples,
    { ...vendor, schema: { tags, params: ZIdParam, body: ZSimpleRuleInput, response: { 201: ZSimpleRule } } },
    async (req, reply) => reply.status(201).send(await createSimpleRule(db, ruleChanges, tenant(req), req.params.id, req.body)),
  );
  app.put(
    `${simples}/:ruleId`,
    { ...vendor, schema: { tags, params: ZProjectRuleParams, body: ZSimpleRuleUpdate, response: { 200: ZSimpleRule } } },
    (req) => updateSimpleRule(db, ruleChanges, tenant(req), req.params.id, req.params.ruleId, req.body),
  );
  app.delete(`${simples}/:ruleId`, { ...vendor, schema: { tags, params: ZProjectRuleParams, response: noContent } }, async (req, reply) => {
    await deleteSimpleRule(db, ruleChanges, tenant(req), req.params.id, req.params.ruleId);
    return reply.status(204).send(null);
  });

  app.post(
    `${blocklys}/compile`,
    { ...vendor, schema: { tags, params: ZIdParam, body: ZCompileRequest, response: { 200: ZCompileResult } } },
    (req) => compileForProject(db, tenant(req), req.params.id, req.body.workspace),
  );
  app.get(
    blocklys,
    { ...vendor, schema: { tags, params: ZIdParam, querystring: ZListQuery, response: { 200: ZBlocklyProgramList } } },
    (req) => listPrograms(db, tenant(req), req.params.id, req.query),
  );
  app.post(
    blocklys,
    { ...vendor, schema: { tags, params: ZIdParam, body: ZBlocklyProgramInput, response: { 201: ZBlocklyProgram } } },
    async (req, reply) => reply.status(201).send(await createProgram(db, ruleChanges, tenant(req), req.params.id, req.body)),
  );
  app.get(`${blocklys}/:ruleId`, { ...vendor, schema: { tags, params: ZProjectRuleParams, response: { 200: ZBlocklyProgram } } }, (req) =>
    getProgram(db, tenant(req), req.params.id, req.params.ruleId),
  );
  app.put(
    `${blocklys}/:ruleId`,
    { ...vendor, schema: { tags, params: ZProjectRuleParams, body: ZBlocklyProgramUpdate, response: { 200: ZBlocklyProgram } } },
    (req) => updateProgram(db, ruleChanges, tenant(req), req.params.id, req.params.ruleId, req.body),
  );
  app.delete(
    `${blocklys}/:ruleId`,
    { ...vendor, schema: { tags, params: ZProjectRuleParams, response: noContent } },
    async (req, reply) => {
      await deleteProgram(db, ruleChanges, tenant(req), req.params.id, req.params.ruleId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/projects/:id/rules/blocklySetting',
    { ...vendor, schema: { tags, params: ZIdParam, response: { 200: ZBlocklySetting } } },
    (req) => getBlocklySetting(db, tenant(req), req.params.id),
  );
  app.put(
    '/projects/:id/rules/blocklySetting',
    { ...vendor, schema: { tags, params: ZIdParam, body: ZBlocklySetting, response: { 200: ZBlocklySetting } } },
    (req) => putBlocklySetting(db, ruleChanges, tenant(req), req.params.id, req.body),
  );
}
