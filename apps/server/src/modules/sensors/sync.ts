/**
 * POST sync (spec §7 sensors, docs/protocol.md "Config"): publishes the project's sensor configuration to every
 * device of the project as a retained QoS 1 message on `devices/{id}/config`, so a device that is offline now
 * gets it when it next connects.
 */
import { asc, eq } from 'drizzle-orm';
import { type TDeviceConfig, type TSyncResult, topics, ZDeviceConfig } from '@tessera/contracts';
import type { TAppContext } from '../../core/context.js';
import type { Db } from '../../db/client.js';
import { devices, projectSensors } from '../../db/schema.js';
import { ownedProject } from './ownership.js';

/** The device configuration of project `projectId` at `version` (periods in ms). */
export async function buildDeviceConfig(db: Db, projectId: number, version: number): Promise<TDeviceConfig> {
  const rows = await db.select().from(projectSensors).where(eq(projectSensors.projectId, projectId)).orderBy(asc(projectSensors.id));
  return ZDeviceConfig.parse({
    version,
    sensors: rows.map((s) => ({
      key: s.key,
      enabled: s.enabled,
      uploadPeriodMs: s.uploadPeriodMs,
      savePeriodMs: s.savePeriodMs,
      updatePeriodMs: s.updatePeriodMs,
    })),
  });
}

/**
 * Publishes the tenant's project configuration to all its devices. The version is the sync time (epoch ms), so a
 * later sync always carries a higher version.
 * @throws AppError 404 when the project is not the tenant's; the bus's error when the broker refuses.
 */
export async function syncProject(ctx: Pick<TAppContext, 'db' | 'bus'>, tenantId: number, projectId: number): Promise<TSyncResult> {
  await ownedProject(ctx.db, tenantId, projectId);
  const version = Date.now();
  const payload = JSON.stringify(await buildDeviceConfig(ctx.db, projectId, version));
  const targets = await ctx.db.select({ tangramId: devices.tangramId }).from(devices).where(eq(devices.projectId, projectId));
  await Promise.all(targets.map((d) => ctx.bus.publish(topics.config(d.tangramId), payload, { qos: 1, retain: true })));
  return { devices: targets.length, version };
}
