/**
 * `/frontstage/user/v1/project-role…` (spec §7 User API "project-role POST, PUT, DELETE {id}, GET project/{id}").
 * Vendor only (§6: project roles are the vendor's to define), scoped to the caller's tenant: another tenant's role
 * or project answers 404.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ZIdParam, ZListQuery, ZProjectRole, ZProjectRoleCreate, ZProjectRoleList, ZProjectRoleUpdate } from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireVendor } from '../../core/principal.js';
import { deleteProjectRole } from './delete-role.js';
import { listProjectRoles } from './role-queries.js';
import { createProjectRole, updateProjectRole } from './save-role.js';

const tags = ['project-roles'];
const vendor = { preHandler: requireVendor };
const tenant = (req: FastifyRequest) => principalOf(req).tenantId;

/** Registers the project-role routes (prefix `/frontstage/user/v1`). */
export async function projectRoleRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db } = ctx;

  app.get(
    '/project-role/project/:id',
    { ...vendor, schema: { tags, params: ZIdParam, querystring: ZListQuery, response: { 200: ZProjectRoleList } } },
    (req) => listProjectRoles(db, tenant(req), req.params.id, req.query),
  );
  app.post(
    '/project-role',
    { ...vendor, schema: { tags, body: ZProjectRoleCreate, response: { 201: ZProjectRole } } },
    async (req, reply) => reply.status(201).send(await createProjectRole(db, tenant(req), req.body)),
  );
  app.put(
    '/project-role/:id',
    { ...vendor, schema: { tags, params: ZIdParam, body: ZProjectRoleUpdate, response: { 200: ZProjectRole } } },
    (req) => updateProjectRole(db, tenant(req), req.params.id, req.body),
  );
  app.delete(
    '/project-role/:id',
    { ...vendor, schema: { tags, params: ZIdParam, response: { 204: z.null().describe('no content') } } },
    async (req, reply) => {
      await deleteProjectRole(db, tenant(req), req.params.id);
      return reply.status(204).send(null);
    },
  );
}
