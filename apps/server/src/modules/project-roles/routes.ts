/**
 * The role routes of `/frontstage/user/v1` (spec §7 User API "device-role POST, PUT, DELETE {id}, GET project/{id};
 * project-role same; … machine … role CRUD"): `project-role…` and `device-role…` over devices of one project,
 * `machine-role…` over the tenant's machines. Vendor only (§6: roles are the vendor's to define), scoped to the
 * caller's tenant: another tenant's role, project or machine answers 404, and so does a role of another kind.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ZIdParam,
  ZListQuery,
  ZMachineRoleInput,
  ZProjectRole,
  ZProjectRoleCreate,
  ZProjectRoleList,
  ZProjectRoleUpdate,
  type TProjectRole,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireVendor } from '../../core/principal.js';
import { deleteRole } from './delete-role.js';
import { announceAccessChange } from '../devices/access-changes.js';
import { listRoles, roleMemberIds } from './role-queries.js';
import { createMachineRole, createRole, updateMachineRole, updateRole } from './save-role.js';

const tags = ['roles'];
const vendor = { preHandler: requireVendor };
const tenant = (req: FastifyRequest) => principalOf(req).tenantId;
const noContent = { 204: z.null().describe('no content') };

/** Registers the project-, device- and machine-role routes (prefix `/frontstage/user/v1`). */
export async function projectRoleRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db, bus, log } = ctx;
  /**
   * Runs a role's create or update, then tells its members before and after the change that their access changed (the
   * live access channel: consoles refetch, lost devices' live connections close). A role with members cannot be
   * deleted, so deleting tells nobody.
   */
  const announcing = async (roleId: number | null, change: () => Promise<TProjectRole>): Promise<TProjectRole> => {
    const before = roleId === null ? [] : await roleMemberIds(db, roleId);
    const role = await change();
    await announceAccessChange(bus, log, [...before, ...(await roleMemberIds(db, role.id))]);
    return role;
  };

  for (const kind of ['project', 'device'] as const) {
    const base = `/${kind}-role`;
    app.get(
      `${base}/project/:id`,
      { ...vendor, schema: { tags, params: ZIdParam, querystring: ZListQuery, response: { 200: ZProjectRoleList } } },
      (req) => listRoles(db, tenant(req), kind, req.params.id, req.query),
    );
    app.post(base, { ...vendor, schema: { tags, body: ZProjectRoleCreate, response: { 201: ZProjectRole } } }, async (req, reply) =>
      reply.status(201).send(await announcing(null, () => createRole(db, tenant(req), kind, req.body))),
    );
    app.put(
      `${base}/:id`,
      { ...vendor, schema: { tags, params: ZIdParam, body: ZProjectRoleUpdate, response: { 200: ZProjectRole } } },
      (req) => announcing(req.params.id, () => updateRole(db, tenant(req), kind, req.params.id, req.body)),
    );
    app.delete(`${base}/:id`, { ...vendor, schema: { tags, params: ZIdParam, response: noContent } }, async (req, reply) => {
      await deleteRole(db, tenant(req), kind, req.params.id);
      return reply.status(204).send(null);
    });
  }

  app.get('/machine-role', { ...vendor, schema: { tags, querystring: ZListQuery, response: { 200: ZProjectRoleList } } }, (req) =>
    listRoles(db, tenant(req), 'machine', null, req.query),
  );
  app.post('/machine-role', { ...vendor, schema: { tags, body: ZMachineRoleInput, response: { 201: ZProjectRole } } }, async (req, reply) =>
    reply.status(201).send(await announcing(null, () => createMachineRole(db, tenant(req), req.body))),
  );
  app.put(
    '/machine-role/:id',
    { ...vendor, schema: { tags, params: ZIdParam, body: ZMachineRoleInput, response: { 200: ZProjectRole } } },
    (req) => announcing(req.params.id, () => updateMachineRole(db, tenant(req), req.params.id, req.body)),
  );
  app.delete('/machine-role/:id', { ...vendor, schema: { tags, params: ZIdParam, response: noContent } }, async (req, reply) => {
    await deleteRole(db, tenant(req), 'machine', req.params.id);
    return reply.status(204).send(null);
  });
}
