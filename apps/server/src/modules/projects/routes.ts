/**
 * `/frontstage/v1/projects…` (spec §7 projects, plus device registration). Vendor only (§6), scoped to
 * the caller's tenant; another tenant's project answers 404.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ZDeviceBulkRegister,
  ZDeviceList,
  ZDeviceRegister,
  ZDeviceRegistered,
  ZDeviceRegisteredList,
  ZIdParam,
  ZListQuery,
  ZProject,
  ZProjectCopy,
  ZProjectCreate,
  ZProjectList,
  ZProjectUpdate,
  ZRuleTypeUpdate,
  ZSum,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireVendor } from '../../core/principal.js';
import { listDevices } from '../devices/device-queries.js';
import { registerDevices } from '../devices/register-devices.js';
import { countProjects, findProjectView, getProject, listProjects } from './project-queries.js';
import { copyProject, createProject, deleteProject, setRuleType, updateProject } from './project-service.js';

const tags = ['projects'];
const vendor = { preHandler: requireVendor };
const tenant = (req: FastifyRequest) => principalOf(req).tenantId;

/** Registers the project routes (prefix `/frontstage/v1`). */
export async function projectRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db } = ctx;

  app.get('/projects', { ...vendor, schema: { tags, querystring: ZListQuery, response: { 200: ZProjectList } } }, (req) =>
    listProjects(db, tenant(req), req.query),
  );
  app.post('/projects', { ...vendor, schema: { tags, body: ZProjectCreate, response: { 201: ZProject } } }, async (req, reply) =>
    reply.status(201).send(await createProject(db, tenant(req), req.body)),
  );
  app.post('/projects/copy', { ...vendor, schema: { tags, body: ZProjectCopy, response: { 201: ZProject } } }, async (req, reply) =>
    reply.status(201).send(await copyProject(db, tenant(req), req.body)),
  );
  app.get('/projects/sum', { ...vendor, schema: { tags, response: { 200: ZSum } } }, async (req) => ({
    total: await countProjects(db, tenant(req)),
  }));
  app.get('/projects/:id', { ...vendor, schema: { tags, params: ZIdParam, response: { 200: ZProject } } }, (req) =>
    getProject(db, tenant(req), req.params.id),
  );
  app.put('/projects/:id', { ...vendor, schema: { tags, params: ZIdParam, body: ZProjectUpdate, response: { 200: ZProject } } }, (req) =>
    updateProject(db, tenant(req), req.params.id, req.body),
  );
  app.delete(
    '/projects/:id',
    { ...vendor, schema: { tags, params: ZIdParam, response: { 204: z.null().describe('no content') } } },
    async (req, reply) => {
      await deleteProject(db, tenant(req), req.params.id);
      return reply.status(204).send(null);
    },
  );
  app.put(
    '/projects/:id/ruleType',
    { ...vendor, schema: { tags, params: ZIdParam, body: ZRuleTypeUpdate, response: { 200: ZProject } } },
    async (req) => {
      return setRuleType(db, ctx.ruleChanges, tenant(req), req.params.id, req.body);
    },
  );

  app.get(
    '/projects/:id/devices',
    { ...vendor, schema: { tags, params: ZIdParam, querystring: ZListQuery, response: { 200: ZDeviceList } } },
    async (req) => {
      await findProjectView(db, tenant(req), req.params.id);
      return listDevices(db, principalOf(req), { ...req.query, project_id: req.params.id });
    },
  );
  app.post(
    '/projects/:id/devices',
    { ...vendor, schema: { tags, params: ZIdParam, body: ZDeviceRegister, response: { 201: ZDeviceRegistered } } },
    async (req, reply) => {
      const entry = { serialNumber: req.body.serial_number, name: req.body.name };
      const [device] = await registerDevices(db, tenant(req), req.params.id, [entry]);
      return reply.status(201).send(device);
    },
  );
  app.post(
    '/projects/:id/devices/bulk',
    { ...vendor, schema: { tags, params: ZIdParam, body: ZDeviceBulkRegister, response: { 201: ZDeviceRegisteredList } } },
    async (req, reply) => {
      const { devices, serial_numbers: serials = [] } = req.body;
      const entries =
        devices?.map((d) => ({ serialNumber: d.serial_number, name: d.name })) ?? serials.map((serialNumber) => ({ serialNumber }));
      const pathOf = (i: number) => (devices ? `body/devices/${i}/serial_number` : `body/serial_numbers/${i}`);
      return reply.status(201).send(await registerDevices(db, tenant(req), req.params.id, entries, pathOf));
    },
  );
}
