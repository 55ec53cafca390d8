/**
 * `/frontstage/user/v1/machine-configure…` and `…/machine-instance…` (spec §7 User API "machine configure, instance
 * and role CRUD"; docs/decisions/machines.md). Configures and every write are the vendor's (vendors and admins of the
 * tenant); users may read the machines they hold when the machine section (feature code 9) is theirs. Scoped to the
 * caller's tenant: another tenant's ids answer 404 like missing ones.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ZIdParam,
  ZListQuery,
  ZMachineConfigure,
  ZMachineConfigureCreate,
  ZMachineConfigureList,
  ZMachineConfigureUpdate,
  ZMachineInstance,
  ZMachineInstanceCreate,
  ZMachineInstanceList,
  ZMachineInstanceListQuery,
  ZMachineInstanceUpdate,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireSection, requireVendor } from '../../core/principal.js';
import { announceAccessChange } from '../devices/access-changes.js';
import { getMachineConfigure, listMachineConfigures } from './configure-queries.js';
import { deleteMachineConfigure, deleteMachineInstance } from './delete-machines.js';
import { getMachineInstance, listMachineInstances } from './instance-queries.js';
import { createMachineConfigure, updateMachineConfigure } from './save-configure.js';
import { machineHolderIds } from './holders.js';
import { createMachineInstance, updateMachineInstance } from './save-instance.js';

const tags = ['machines'];
const vendor = { preHandler: requireVendor };
const viewer = { preHandler: requireSection('machine', { usersOnly: true }) };
const tenant = (req: FastifyRequest) => principalOf(req).tenantId;
const noContent = { 204: z.null().describe('no content') };

/** Registers the machine routes (prefix `/frontstage/user/v1`). */
export async function machineRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db, bus, log } = ctx;

  app.get('/machine-configure', { ...vendor, schema: { tags, querystring: ZListQuery, response: { 200: ZMachineConfigureList } } }, (req) =>
    listMachineConfigures(db, tenant(req), req.query),
  );
  app.post(
    '/machine-configure',
    { ...vendor, schema: { tags, body: ZMachineConfigureCreate, response: { 201: ZMachineConfigure } } },
    async (req, reply) => reply.status(201).send(await createMachineConfigure(db, tenant(req), req.body)),
  );
  app.get('/machine-configure/:id', { ...vendor, schema: { tags, params: ZIdParam, response: { 200: ZMachineConfigure } } }, (req) =>
    getMachineConfigure(db, tenant(req), req.params.id),
  );
  app.put(
    '/machine-configure/:id',
    { ...vendor, schema: { tags, params: ZIdParam, body: ZMachineConfigureUpdate, response: { 200: ZMachineConfigure } } },
    (req) => updateMachineConfigure(db, tenant(req), req.params.id, req.body),
  );
  app.delete('/machine-configure/:id', { ...vendor, schema: { tags, params: ZIdParam, response: noContent } }, async (req, reply) => {
    await deleteMachineConfigure(db, tenant(req), req.params.id);
    return reply.status(204).send(null);
  });

  app.get(
    '/machine-instance',
    { ...viewer, schema: { tags, querystring: ZMachineInstanceListQuery, response: { 200: ZMachineInstanceList } } },
    (req) => listMachineInstances(db, principalOf(req), req.query),
  );
  app.post(
    '/machine-instance',
    { ...vendor, schema: { tags, body: ZMachineInstanceCreate, response: { 201: ZMachineInstance } } },
    async (req, reply) => reply.status(201).send(await createMachineInstance(db, principalOf(req), req.body)),
  );
  app.get('/machine-instance/:id', { ...viewer, schema: { tags, params: ZIdParam, response: { 200: ZMachineInstance } } }, (req) =>
    getMachineInstance(db, principalOf(req), req.params.id),
  );
  app.put(
    '/machine-instance/:id',
    { ...vendor, schema: { tags, params: ZIdParam, body: ZMachineInstanceUpdate, response: { 200: ZMachineInstance } } },
    async (req) => {
      const machine = await updateMachineInstance(db, principalOf(req), req.params.id, req.body);
      // Its bindings may have changed: whoever holds the machine gained or lost devices.
      await announceAccessChange(bus, log, await machineHolderIds(db, req.params.id));
      return machine;
    },
  );
  app.delete('/machine-instance/:id', { ...vendor, schema: { tags, params: ZIdParam, response: noContent } }, async (req, reply) => {
    const holders = await machineHolderIds(db, req.params.id);
    await deleteMachineInstance(db, tenant(req), req.params.id);
    await announceAccessChange(bus, log, holders);
    return reply.status(204).send(null);
  });
}
