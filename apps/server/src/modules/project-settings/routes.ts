/**
 * Project settings routes (prefix `/frontstage/v1`): the notification tab (§7 "notification emails: GET, PUT;
 * POST notification/email/test"), the system tab's read-only provisioning details and fee estimate, and whether the
 * project's gateways may create devices and whether ingest accepts undeclared telemetry keys.
 * Vendor only (§6), scoped to the caller's tenant; another tenant's project answers 404.
 */
import type { FastifyRequest } from 'fastify';
import {
  ZFeeEstimate,
  ZIdParam,
  ZNotificationEmails,
  ZNotificationEmailTest,
  ZNotificationEmailTestResult,
  ZProjectGatewaySettings,
  ZProvisioning,
  ZUndeclaredKeySetting,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireVendor } from '../../core/principal.js';
import { getGatewaySettings, putGatewaySettings } from './gateway-setting.js';
import { getNotificationEmails, putNotificationEmails } from './notification-emails.js';
import { ownedProject } from './owned-project.js';
import { projectFeeEstimate } from './project-fee.js';
import { provisioningFor } from './provisioning.js';
import { sendTestMail } from './test-mail.js';
import { getUndeclaredKeySetting, putUndeclaredKeySetting } from './undeclared-key-setting.js';

const vendor = { preHandler: requireVendor };
const tenant = (req: FastifyRequest) => principalOf(req).tenantId;

/** Registers the project-settings routes. */
export async function projectSettingsRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db } = ctx;
  const notification = { tags: ['notification'] };
  const system = { tags: ['projects'] };

  app.get(
    '/projects/:id/notification/emails',
    { ...vendor, schema: { ...notification, params: ZIdParam, response: { 200: ZNotificationEmails } } },
    (req) => getNotificationEmails(db, tenant(req), req.params.id),
  );
  app.put(
    '/projects/:id/notification/emails',
    { ...vendor, schema: { ...notification, params: ZIdParam, body: ZNotificationEmails, response: { 200: ZNotificationEmails } } },
    (req) => putNotificationEmails(db, tenant(req), req.params.id, req.body),
  );
  app.post(
    '/notification/email/test',
    { ...vendor, schema: { ...notification, body: ZNotificationEmailTest, response: { 200: ZNotificationEmailTestResult } } },
    (req) => sendTestMail(ctx, principalOf(req), req.body.project_id, req.headers['accept-language']),
  );

  app.get(
    '/projects/:id/provisioning',
    { ...vendor, schema: { ...system, params: ZIdParam, response: { 200: ZProvisioning } } },
    async (req) => {
      await ownedProject(db, tenant(req), req.params.id);
      return provisioningFor(ctx.config, req.hostname);
    },
  );
  const gateway = { ...system, params: ZIdParam, response: { 200: ZProjectGatewaySettings } };
  app.get(
    '/projects/:id/gateway',
    { ...vendor, schema: { ...gateway, summary: "Whether the project's gateways may create devices" } },
    (req) => getGatewaySettings(db, tenant(req), req.params.id),
  );
  app.put(
    '/projects/:id/gateway',
    {
      ...vendor,
      schema: { ...gateway, body: ZProjectGatewaySettings, summary: "Let the project's gateways create the devices they name, or not" },
    },
    (req) => putGatewaySettings(db, tenant(req), req.params.id, req.body),
  );
  const undeclared = { ...system, params: ZIdParam, response: { 200: ZUndeclaredKeySetting } };
  app.get(
    '/projects/:id/undeclared-keys/setting',
    { ...vendor, schema: { ...undeclared, summary: 'Whether ingest stores telemetry keys no sensor of the project declares' } },
    (req) => getUndeclaredKeySetting(db, tenant(req), req.params.id),
  );
  app.put(
    '/projects/:id/undeclared-keys/setting',
    {
      ...vendor,
      schema: {
        ...undeclared,
        body: ZUndeclaredKeySetting,
        summary: 'Accept telemetry keys no sensor declares (typed by their first value), or not',
      },
    },
    (req) => putUndeclaredKeySetting(ctx, tenant(req), req.params.id, req.body),
  );
  app.get('/projects/:id/fee-estimate', { ...vendor, schema: { ...system, params: ZIdParam, response: { 200: ZFeeEstimate } } }, (req) =>
    projectFeeEstimate(db, tenant(req), req.params.id),
  );
}
