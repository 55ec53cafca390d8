/**
 * Remote control (spec §7 devices "remoteControl getDeviceInfo and sensorCommand"; docs/decisions/device-control.md):
 * who may send what, one round trip through {@link exchangeCommand}, the audit row, and the HTTP answer — 200 with
 * the device's result, 409 DEVICE_OFFLINE, 504 DEVICE_TIMEOUT, 502 DEVICE_ERROR.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import {
  type TDeviceInfo,
  type TDeviceInfoAnswer,
  type TSensorCommandAnswer,
  ErrorCode,
  SENSOR_READ_ACTION,
  ZDeviceInfoReply,
  type ZSensorCommandRequest,
  ZSensorReading,
} from '@tessera/contracts';
import { z } from 'zod';
import type { TAppContext } from '../../core/context.js';
import { AppError, badRequest, forbidden } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import { projectSensors } from '../../db/schema.js';
import { deviceFor, type TDeviceRow } from '../devices/access.js';
import { type TCommand, type TCommandExchange, exchangeCommand } from './command-channel.js';
import { recordCommand } from './command-log.js';

type TCtx = Pick<TAppContext, 'db' | 'bus' | 'config'>;

/**
 * Runs one command: exchange, check the result with `schema` (a result it refuses counts as a device error), audit,
 * answer. @throws AppError 409 DEVICE_OFFLINE, 504 DEVICE_TIMEOUT, 502 DEVICE_ERROR, 503 BROKER_UNAVAILABLE.
 */
async function runCommand<T>(
  ctx: TCtx,
  principal: TPrincipal,
  device: TDeviceRow,
  command: TCommand,
  schema: z.ZodType<T>,
): Promise<{ req_id: string; latency_ms: number; result: T }> {
  const reqId = randomUUID();
  const sentAt = Date.now();
  let exchange: TCommandExchange = await exchangeCommand(ctx.bus, device.tangramId, reqId, command, ctx.config.commandTimeoutMs);
  let result: T | undefined;
  if (exchange.outcome === 'ok') {
    const checked = schema.safeParse(exchange.result);
    if (checked.success) result = checked.data;
    else exchange = { outcome: 'device_error', error: `the ${command.name} result is malformed`, latencyMs: exchange.latencyMs };
  }
  await recordCommand(ctx.db, { reqId, tenantId: device.tenantId, deviceId: device.id, principal, command, exchange, sentAt });
  switch (exchange.outcome) {
    case 'ok':
      return { req_id: reqId, latency_ms: exchange.latencyMs, result: result as T };
    case 'offline':
      throw new AppError(409, ErrorCode.DeviceOffline, 'the device is not connected');
    case 'timeout':
      throw new AppError(504, ErrorCode.DeviceTimeout, `the device did not answer within ${ctx.config.commandTimeoutMs / 1000} s`);
    case 'device_error':
      throw new AppError(502, ErrorCode.DeviceError, `the device answered with an error: ${exchange.error}`);
  }
}

/** A getDeviceInfo wire result, checked, → the API's snake_case shape. */
const ZDeviceInfoResult: z.ZodType<TDeviceInfo> = ZDeviceInfoReply.transform(
  (d): TDeviceInfo => ({
    firmware_version: d.firmwareVersion,
    uptime_s: Math.floor(d.uptimeMs / 1000),
    rssi_dbm: d.rssiDbm,
    sensors: d.sensors.map((s) => ({ key: s.key, enabled: s.enabled, upload_period_ms: s.uploadPeriodMs })),
  }),
);

/**
 * POST remoteControl/getDeviceInfo: firmware version, uptime, RSSI and sensors as the device reports them.
 * Any account that may see the device and control it (a project role needs control_device).
 * @throws AppError 404 (device), 403 DEVICE_PERMISSION_DENIED and the {@link runCommand} errors.
 */
export async function getDeviceInfo(ctx: TCtx, principal: TPrincipal, tangramId: string): Promise<TDeviceInfoAnswer> {
  const device = await deviceFor(ctx.db, principal, tangramId, 'control_device');
  return runCommand(ctx, principal, device, { name: 'getDeviceInfo', params: {} }, ZDeviceInfoResult);
}

/**
 * POST remoteControl/sensorCommand: `{ key, action }` on one of the project's sensors. `read` answers the current
 * reading `{ key, ts, vs }` (checked); other actions are firmware-defined and vendor-only.
 * @throws AppError 404 (device), 403 DEVICE_PERMISSION_DENIED (a role without control_device), 403 (a user and an
 * action other than read), 400 (a key the project does not
 * have) and the {@link runCommand} errors.
 */
export async function sendSensorCommand(
  ctx: TCtx,
  principal: TPrincipal,
  tangramId: string,
  body: z.output<typeof ZSensorCommandRequest>,
): Promise<TSensorCommandAnswer> {
  const device = await deviceFor(ctx.db, principal, tangramId, 'control_device');
  const isRead = body.action === SENSOR_READ_ACTION;
  if (!isRead && principal.level === 'user') throw forbidden(`users may only send the ${SENSOR_READ_ACTION} action`);
  const [sensor] = await ctx.db
    .select({ key: projectSensors.key })
    .from(projectSensors)
    .where(and(eq(projectSensors.projectId, device.projectId), eq(projectSensors.key, body.key)));
  if (!sensor) throw badRequest(`${body.key} is not a sensor of this device's project`);
  const command = { name: 'sensorCommand', params: { key: body.key, action: body.action } };
  return runCommand<unknown>(ctx, principal, device, command, isRead ? ZSensorReading : z.unknown());
}
