/**
 * The motor-health tab's answer (spec §2 device detail `motor-health`; docs/decisions/motor-health.md): the device's
 * vibration velocity judged by ISO 10816-3 zones of its machine class — the latest reading's zone, the range's series
 * and the hours spent in each zone.
 */
import {
  HISTORY_RANGE_MAX_DAYS,
  hoursInZones,
  MOTOR_HEALTH_KEY,
  type TMotorHealth,
  type TMotorHealthQuery,
  VIBRATION_VELOCITY_UNIT,
  worstAxisVelocity,
  ZONE_BOUNDARIES_MM_S,
  zoneOfVelocity,
} from '@tessera/contracts';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { TPrincipal } from '../../core/principal.js';
import { projectSensors, telemetryLatest } from '../../db/schema.js';
import { deviceFor } from '../devices/access.js';
import { planBuckets } from '../telemetry/buckets.js';
import { assertRange } from '../telemetry/range.js';
import { machineClassOfDevice } from './device-machine-class.js';
import { planHoursBuckets, readVelocitySeries } from './velocity-series.js';

/**
 * The motor health of device `tangramId` over [startTs, endTs] (epoch ms, inclusive), its chart in about `width` points.
 * @throws AppError 400 VALIDATION_FAILED when start is not before end, 400 RANGE_TOO_LONG over HISTORY_RANGE_MAX_DAYS;
 *   404 when the device is missing or invisible to `principal`; 403 DEVICE_PERMISSION_DENIED without view_history.
 */
export async function getMotorHealth(db: Db, principal: TPrincipal, tangramId: string, q: TMotorHealthQuery): Promise<TMotorHealth> {
  assertRange(q.startTs, q.endTs, HISTORY_RANGE_MAX_DAYS);
  const device = await deviceFor(db, principal, tangramId, 'view_history');
  const cls = await machineClassOfDevice(db, device);
  const [sensor] = await db
    .select({ key: projectSensors.key })
    .from(projectSensors)
    .where(and(eq(projectSensors.projectId, device.projectId), eq(projectSensors.key, MOTOR_HEALTH_KEY)))
    .limit(1);
  const [latestRow] = await db
    .select()
    .from(telemetryLatest)
    .where(and(eq(telemetryLatest.deviceId, device.id), eq(telemetryLatest.key, MOTOR_HEALTH_KEY)))
    .limit(1);
  const latestVelocity = latestRow ? worstAxisVelocity([latestRow.v1, latestRow.v2, latestRow.v3]) : null;

  const chartPlan = planBuckets(q.startTs, q.endTs, q.width);
  const series = await readVelocitySeries(db, device.id, chartPlan);
  const hoursPlan = planHoursBuckets(q.startTs, q.endTs, chartPlan);
  const hoursSeries = hoursPlan === chartPlan ? series : await readVelocitySeries(db, device.id, hoursPlan);
  const hours = hoursInZones(hoursSeries, cls.machineClass, { fromTs: q.startTs, toTs: q.endTs, minSpacingMs: hoursPlan.bucketMs });

  return {
    tangramId: device.tangramId,
    key: MOTOR_HEALTH_KEY,
    unit: VIBRATION_VELOCITY_UNIT,
    has_vibration_key: sensor !== undefined,
    machine_class: cls.machineClass,
    class_source: cls.source,
    machine: cls.machine,
    boundaries_mm_s: { ...ZONE_BOUNDARIES_MM_S[cls.machineClass] },
    latest:
      latestRow && latestVelocity !== null
        ? { ts: Number(latestRow.ts), velocity_mm_s: latestVelocity, zone: zoneOfVelocity(latestVelocity, cls.machineClass) }
        : null,
    bucket_ms: chartPlan.bucketMs,
    source: chartPlan.source,
    series,
    hours_bucket_ms: hoursPlan.bucketMs,
    hours,
  };
}
