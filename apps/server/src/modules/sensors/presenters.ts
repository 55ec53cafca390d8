/** Response shapes of the sensors module (never a DB row). */
import type { TSensor, TSensorDisplay, TTelemetryProfileItem } from '@tessera/contracts';
import type { projectSensors, sensorDisplay } from '../../db/schema.js';

/** A project_sensors row. */
export type TSensorRow = typeof projectSensors.$inferSelect;

/** A sensor as presented (periods in server milliseconds, §3). */
export function presentSensor(r: TSensorRow): TSensor {
  return {
    id: r.id,
    project_id: r.projectId,
    key: r.key,
    name: r.name,
    unit: r.unit,
    value_count: r.valueCount,
    address: r.address,
    save_period: r.savePeriodMs,
    update_period: r.updatePeriodMs,
    upload_period: r.uploadPeriodMs,
    batch: r.batch,
    enabled: r.enabled,
    value_type: r.valueType,
  };
}

/** A sensor's display settings as presented. */
export function presentDisplay(r: typeof sensorDisplay.$inferSelect): TSensorDisplay {
  return { sensor_id: r.sensorId, decimals: r.decimals, gauge_min: r.gaugeMin, gauge_max: r.gaugeMax, color: r.color };
}

/** A sensor as one telemetry key of a profile (periods in server milliseconds, §3). */
export function presentTelemetryProfileItem(r: TSensorRow): TTelemetryProfileItem {
  return {
    key: r.key,
    name: r.name,
    unit: r.unit,
    value_count: r.valueCount,
    enabled: r.enabled,
    upload_period: r.uploadPeriodMs,
    save_period: r.savePeriodMs,
    update_period: r.updatePeriodMs,
  };
}
