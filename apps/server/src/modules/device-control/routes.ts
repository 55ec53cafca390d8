/**
 * Device detail calls (spec §7 devices, prefix `/frontstage/v1`; docs/decisions/device-control.md):
 * `devices/{tangramId}/remoteControl/{getDeviceInfo|sensorCommand|commands}`, `devices/{tangramId}/userRules[/{id}]`,
 * `devices/configFCMStatus`, `devices/{tangramId}/clean-data`. Every route needs a login and a device the caller
 * may see (404 otherwise, another tenant's device included); what each level may do is in the domain functions.
 */
import { z } from 'zod';
import {
  ZCleanDataRequest,
  ZCleanDataResult,
  ZDeviceCommandLogList,
  ZDeviceInfoAnswer,
  ZFcmStatus,
  ZFcmStatusQuery,
  ZFcmStatusUpdate,
  ZListQuery,
  ZSensorCommandAnswer,
  ZSensorCommandRequest,
  ZTangramIdParam,
  ZUserRule,
  ZUserRuleInput,
  ZUserRuleList,
  ZUserRuleParams,
  ZUserRuleUpdate,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireAuth, requireVendor } from '../../core/principal.js';
import { cleanDeviceData, verifyCallerPassword } from './clean-data.js';
import { listCommands } from './command-log.js';
import { getPushStatus, setPushStatus } from './push-settings.js';
import { getDeviceInfo, sendSensorCommand } from './remote-control.js';
import { deviceFor } from '../devices/access.js';
import { createUserRule, deleteUserRule, listUserRules, updateUserRule } from './user-rules.js';

const tags = ['devices'];
const auth = { preHandler: requireAuth };
const noContent = { 204: z.null().describe('no content') };

/** Registers the device-control routes (prefix `/frontstage/v1`). */
export async function deviceControlRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db } = ctx;
  const params = ZTangramIdParam;

  app.post(
    '/devices/:tangramId/remoteControl/getDeviceInfo',
    { ...auth, schema: { tags, params, response: { 200: ZDeviceInfoAnswer } } },
    (req) => getDeviceInfo(ctx, principalOf(req), req.params.tangramId),
  );
  app.post(
    '/devices/:tangramId/remoteControl/sensorCommand',
    { ...auth, schema: { tags, params, body: ZSensorCommandRequest, response: { 200: ZSensorCommandAnswer } } },
    (req) => sendSensorCommand(ctx, principalOf(req), req.params.tangramId, req.body),
  );
  app.get(
    '/devices/:tangramId/remoteControl/commands',
    { ...auth, schema: { tags, params, querystring: ZListQuery, response: { 200: ZDeviceCommandLogList } } },
    async (req) => {
      const principal = principalOf(req);
      const device = await deviceFor(db, principal, req.params.tangramId, 'control_device');
      return listCommands(db, principal, device.id, req.query);
    },
  );

  app.get(
    '/devices/:tangramId/userRules',
    { ...auth, schema: { tags, params, querystring: ZListQuery, response: { 200: ZUserRuleList } } },
    async (req) => {
      const principal = principalOf(req);
      return listUserRules(db, principal, await deviceFor(db, principal, req.params.tangramId, 'receive_alerts'), req.query);
    },
  );
  app.post(
    '/devices/:tangramId/userRules',
    { ...auth, schema: { tags, params, body: ZUserRuleInput, response: { 201: ZUserRule } } },
    async (req, reply) => {
      const principal = principalOf(req);
      const device = await deviceFor(db, principal, req.params.tangramId, 'receive_alerts');
      const rule = await createUserRule(db, ctx.ruleChanges, principal, device, req.body);
      return reply.status(201).send(rule);
    },
  );
  app.put(
    '/devices/:tangramId/userRules/:id',
    { ...auth, schema: { tags, params: ZUserRuleParams, body: ZUserRuleUpdate, response: { 200: ZUserRule } } },
    async (req) => {
      const principal = principalOf(req);
      const device = await deviceFor(db, principal, req.params.tangramId, 'receive_alerts');
      const rule = await updateUserRule(db, ctx.ruleChanges, principal, device, req.params.id, req.body);
      return rule;
    },
  );
  app.delete(
    '/devices/:tangramId/userRules/:id',
    { ...auth, schema: { tags, params: ZUserRuleParams, response: noContent } },
    async (req, reply) => {
      const principal = principalOf(req);
      const device = await deviceFor(db, principal, req.params.tangramId, 'receive_alerts');
      await deleteUserRule(db, ctx.ruleChanges, principal, device, req.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/devices/configFCMStatus',
    { ...auth, schema: { tags, querystring: ZFcmStatusQuery, response: { 200: ZFcmStatus } } },
    async (req) => {
      const principal = principalOf(req);
      return getPushStatus(db, principal, await deviceFor(db, principal, req.query.tangram_id, 'receive_alerts'));
    },
  );
  app.put('/devices/configFCMStatus', { ...auth, schema: { tags, body: ZFcmStatusUpdate, response: { 200: ZFcmStatus } } }, async (req) => {
    const principal = principalOf(req);
    return setPushStatus(db, principal, await deviceFor(db, principal, req.body.tangram_id, 'receive_alerts'), req.body.enabled);
  });

  app.post(
    '/devices/:tangramId/clean-data',
    { preHandler: requireVendor, schema: { tags, params, body: ZCleanDataRequest, response: { 200: ZCleanDataResult } } },
    async (req) => {
      const principal = principalOf(req);
      const device = await deviceFor(db, principal, req.params.tangramId);
      await verifyCallerPassword(db, principal.accountId, req.body.password, req.ip);
      const deleted = await cleanDeviceData(db, device);
      req.log.info({ tangramId: device.tangramId, accountId: principal.accountId, deleted }, 'device data cleaned');
      return deleted;
    },
  );
}
