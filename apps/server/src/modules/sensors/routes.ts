/**
 * Sensors routes (spec §7 sensors, prefix `/frontstage/v1`): sensors of a project, the sensor bus, sensor display
 * settings and sync. Vendor only (§6), tenant-scoped: another tenant's project or sensor answers 404.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ZProjectTelemetryProfile,
  ZIdParam,
  ZListQuery,
  ZSensor,
  ZSensorBulkCreate,
  ZSensorBulkUpdate,
  ZSensorBus,
  ZSensorDisplay,
  ZSensorDisplayCreate,
  ZSensorDisplayInput,
  ZSensorInput,
  ZSensorList,
  ZSensorSaveResult,
  ZSensorUpdate,
  ZSyncRequest,
  ZSyncResult,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireVendor } from '../../core/principal.js';
import { getSensorBus, putSensorBus } from './bus.js';
import { addDisplay, deleteDisplay, getDisplay, putDisplay } from './display.js';
import { ownedSensor } from './ownership.js';
import { presentSensor } from './presenters.js';
import { createSensors, deleteSensor, listSensors, updateSensors } from './sensor-service.js';
import { syncProject } from './sync.js';
import { projectTelemetryProfile } from './telemetry-profile.js';

const tags = ['sensors'];
const vendor = { preHandler: requireVendor };
const tenant = (req: FastifyRequest) => principalOf(req).tenantId;
const noContent = { 204: z.null().describe('no content') };

/** Registers the sensors routes (prefix `/frontstage/v1`). */
export async function sensorRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db } = ctx;
  const save = { 200: ZSensorSaveResult };
  const created = { 201: ZSensorSaveResult };

  app.get(
    '/:id/profile/sensors',
    { ...vendor, schema: { tags, params: ZIdParam, querystring: ZListQuery, response: { 200: ZSensorList } } },
    (req) => listSensors(db, tenant(req), req.params.id, req.query),
  );
  app.post(
    '/:id/profile/sensors',
    { ...vendor, schema: { tags, params: ZIdParam, body: ZSensorInput, response: created } },
    async (req, reply) => reply.status(201).send(await createSensors(db, tenant(req), req.params.id, [req.body])),
  );
  app.post(
    '/v2/:id/profile/sensors',
    { ...vendor, schema: { tags, params: ZIdParam, body: ZSensorBulkCreate, response: created } },
    async (req, reply) => reply.status(201).send(await createSensors(db, tenant(req), req.params.id, req.body.sensors)),
  );
  app.get(
    '/:id/profile/telemetries',
    { ...vendor, schema: { tags, params: ZIdParam, response: { 200: ZProjectTelemetryProfile } } },
    (req) => projectTelemetryProfile(db, tenant(req), req.params.id),
  );
  app.put('/v2/:id/profile/sensors', { ...vendor, schema: { tags, params: ZIdParam, body: ZSensorBulkUpdate, response: save } }, (req) =>
    updateSensors(db, tenant(req), req.params.id, req.body.sensors),
  );

  app.get('/projects/profile/sensors/:id', { ...vendor, schema: { tags, params: ZIdParam, response: { 200: ZSensor } } }, async (req) =>
    presentSensor(await ownedSensor(db, tenant(req), req.params.id)),
  );
  app.put(
    '/projects/profile/sensors/:id',
    { ...vendor, schema: { tags, params: ZIdParam, body: ZSensorUpdate, response: save } },
    async (req) => {
      const sensor = await ownedSensor(db, tenant(req), req.params.id);
      return updateSensors(db, tenant(req), sensor.projectId, [{ ...req.body, id: sensor.id }]);
    },
  );
  app.delete(
    '/projects/profile/sensors/:id',
    { ...vendor, schema: { tags, params: ZIdParam, response: noContent } },
    async (req, reply) => {
      await deleteSensor(db, (await ownedSensor(db, tenant(req), req.params.id)).id);
      return reply.status(204).send(null);
    },
  );

  app.get('/:id/profile/sensorBus', { ...vendor, schema: { tags, params: ZIdParam, response: { 200: ZSensorBus } } }, (req) =>
    getSensorBus(db, tenant(req), req.params.id),
  );
  app.put(
    '/:id/profile/sensorBus',
    { ...vendor, schema: { tags, params: ZIdParam, body: ZSensorBus, response: { 200: ZSensorBus } } },
    (req) => putSensorBus(db, tenant(req), req.params.id, req.body),
  );

  app.post(
    '/sensorDisplay',
    { ...vendor, schema: { tags, body: ZSensorDisplayCreate, response: { 201: ZSensorDisplay } } },
    async (req, reply) => reply.status(201).send(await addDisplay(db, tenant(req), req.body.sensor_id, req.body)),
  );
  app.get('/sensorDisplay/:id', { ...vendor, schema: { tags, params: ZIdParam, response: { 200: ZSensorDisplay } } }, (req) =>
    getDisplay(db, tenant(req), req.params.id),
  );
  app.put(
    '/sensorDisplay/:id',
    { ...vendor, schema: { tags, params: ZIdParam, body: ZSensorDisplayInput, response: { 200: ZSensorDisplay } } },
    (req) => putDisplay(db, tenant(req), req.params.id, req.body),
  );
  app.delete('/sensorDisplay/:id', { ...vendor, schema: { tags, params: ZIdParam, response: noContent } }, async (req, reply) => {
    await deleteDisplay(db, tenant(req), req.params.id);
    return reply.status(204).send(null);
  });

  app.post('/sync', { ...vendor, schema: { tags, body: ZSyncRequest, response: { 200: ZSyncResult } } }, (req) =>
    syncProject(ctx, tenant(req), req.body.project_id),
  );
}
