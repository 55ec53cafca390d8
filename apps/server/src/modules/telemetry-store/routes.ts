/**
 * Telemetry storage routes (prefix `/frontstage/v1`): a project's retention (GET/PUT) and disk use on its System tab
 * (vendor only, tenant-scoped: another tenant's project answers 404), and the platform admin's view of the whole
 * platform's telemetry on disk and the storage job's runs. docs/decisions/telemetry-storage.md.
 */
import { ZAdminStorage, ZIdParam, ZProjectStorage, ZRetention } from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireAdmin, requireVendor } from '../../core/principal.js';
import { getAdminStorage, getProjectStorage, getRetention, putRetention } from './project-storage.js';

/** Registers the telemetry storage routes. */
export async function telemetryStorageRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db } = ctx;
  const tags = ['projects'];
  const vendor = { preHandler: requireVendor };
  app.get(
    '/projects/:id/retention',
    { ...vendor, schema: { tags, summary: "Read a project's telemetry retention", params: ZIdParam, response: { 200: ZRetention } } },
    (req) => getRetention(db, principalOf(req).tenantId, req.params.id),
  );
  app.put(
    '/projects/:id/retention',
    {
      ...vendor,
      schema: { tags, summary: "Set a project's telemetry retention", params: ZIdParam, body: ZRetention, response: { 200: ZRetention } },
    },
    (req) => putRetention(db, principalOf(req).tenantId, req.params.id, req.body),
  );
  app.get(
    '/projects/:id/storage',
    {
      ...vendor,
      schema: {
        tags,
        summary: "Read a project's telemetry disk use and last expiry",
        params: ZIdParam,
        response: { 200: ZProjectStorage },
      },
    },
    (req) => getProjectStorage(db, principalOf(req).tenantId, req.params.id),
  );
  app.get(
    '/admin/telemetry-storage',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['admin'],
        summary: "Read the platform's telemetry disk use and the storage job's runs",
        response: { 200: ZAdminStorage },
      },
    },
    () => getAdminStorage(db),
  );
}
