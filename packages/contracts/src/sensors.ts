/**
 * Project sensors, sensor bus, sensor display and sync (spec §3 "Sensor", "Project sensor bus", §5 sensor rules,
 * §7 sensors calls, §8 "telemetry count over limit (excess set disabled)"). Decisions: docs/decisions/sensors.md.
 */
import { z } from 'zod';
import { ZId } from './input.js';
import { API } from './api-paths.js';
import {
  DEFAULT_BATCH,
  EASY_IMPORT_MAX_LINES,
  FREQUENCY_FLOOR_MS,
  MAX_TELEMETRY_VALUES,
  NAME_MAX,
  SENSOR_ADDRESS_MAX,
  SENSOR_ADDRESS_MIN,
} from './limits.js';
import { zPage } from './pagination.js';
import { type TStatusGroup, ZStatusGroups } from './status-word.js';
import { ZTelemetryKey } from './telemetry.js';
import { ZTelemetryValueType } from './telemetry-values.js';

/** §3: the interfaces a project's sensor bus may use. */
export const SENSOR_IFACES = ['SPI', 'UART', 'I2C', 'I2S'] as const;
/** Highest sensor-bus port number (a module has at most 16 ports of one interface). */
export const SENSOR_PORT_MAX = 15;
/** Largest batch a sensor may gather before an upload. */
export const SENSOR_BATCH_MAX = 100_000;
/** Largest period, in ms (one day): longer is a configuration mistake, not a sensing plan. */
export const SENSOR_PERIOD_MAX_MS = 86_400_000;
/**
 * Telemetry-enable limit (§9 "computed from the project; value not shown"): the value slots one device frame of a
 * hardware module carries. Each enabled sensor takes `value_count` slots (1–3), so the number of sensors that may be
 * enabled is computed from the project's sensors. See {@link telemetrySlotsUsed}.
 */
export const TELEMETRY_VALUE_SLOTS = 32;
/** Unit text length. */
export const SENSOR_UNIT_MAX = 16;

/** §5: a period in server ms: 0 disables, else at least {@link FREQUENCY_FLOOR_MS}. */
export const ZSensorPeriodMs = z
  .number()
  .int()
  .min(0)
  .max(SENSOR_PERIOD_MAX_MS)
  .refine((v) => v === 0 || v >= FREQUENCY_FLOOR_MS, { message: `0 or at least ${FREQUENCY_FLOOR_MS}` });

/** §5: sensor address 0–255. */
export const ZSensorAddress = z.number().int().min(SENSOR_ADDRESS_MIN).max(SENSOR_ADDRESS_MAX);

/** The editable fields of a sensor, without defaults (PUT takes any subset; defaults would overwrite). */
const sensorFields = {
  key: ZTelemetryKey,
  name: z.string().trim().min(1).max(NAME_MAX),
  unit: z.string().trim().max(SENSOR_UNIT_MAX),
  value_count: z.number().int().min(1).max(MAX_TELEMETRY_VALUES),
  address: ZSensorAddress,
  save_period: ZSensorPeriodMs,
  update_period: ZSensorPeriodMs,
  upload_period: ZSensorPeriodMs,
  batch: z.number().int().min(1).max(SENSOR_BATCH_MAX),
  enabled: z.boolean(),
  /** The type of the key's values (telemetry-values.ts); `number` unless declared otherwise. */
  value_type: ZTelemetryValueType,
};

/** POST {id}/profile/sensors: a new sensor; omitted fields take the §9 defaults (1000 ms, batch 1000, enabled). */
export const ZSensorInput = z.object({
  ...sensorFields,
  unit: sensorFields.unit.default(''),
  value_count: sensorFields.value_count.default(1),
  address: sensorFields.address.default(0),
  save_period: sensorFields.save_period.default(FREQUENCY_FLOOR_MS),
  update_period: sensorFields.update_period.default(FREQUENCY_FLOOR_MS),
  upload_period: sensorFields.upload_period.default(FREQUENCY_FLOOR_MS),
  batch: sensorFields.batch.default(DEFAULT_BATCH),
  enabled: sensorFields.enabled.default(true),
  value_type: sensorFields.value_type.default('number'),
});
export type TSensorInput = z.infer<typeof ZSensorInput>;

/** PUT projects/profile/sensors/{id}: any subset of the fields. */
export const ZSensorUpdate = z.object(sensorFields).partial();
export type TSensorUpdate = z.infer<typeof ZSensorUpdate>;

/** POST v2 {id}/profile/sensors: several sensors at once (all or nothing). */
export const ZSensorBulkCreate = z.object({
  sensors: z
    .array(ZSensorInput)
    .min(1)
    .max(TELEMETRY_VALUE_SLOTS * 4),
});
/** PUT v2 {id}/profile/sensors: several existing sensors updated at once by id (the configure tab's save). */
export const ZSensorBulkUpdate = z.object({
  sensors: z
    .array(ZSensorUpdate.extend({ id: ZId }))
    .min(1)
    .max(TELEMETRY_VALUE_SLOTS * 4),
});
export type TSensorBulkUpdate = z.infer<typeof ZSensorBulkUpdate>;

/** A sensor as presented; periods in server milliseconds. */
export const ZSensor = z.object({ ...sensorFields, id: z.number().int(), project_id: z.number().int() });
export type TSensor = z.infer<typeof ZSensor>;

/** GET {id}/profile/sensors: a page of sensors plus the telemetry-enable limit and its use, in value slots. */
export const ZSensorList = zPage(ZSensor).extend({
  telemetry_limit: z.number().int(),
  telemetry_used: z.number().int(),
});
export type TSensorList = z.infer<typeof ZSensorList>;

/**
 * The answer of every sensor write. `disabled_excess` lists the keys this write asked to enable but which were saved
 * disabled because the project's telemetry limit was reached (§8 "excess set disabled"); empty when none.
 */
export const ZSensorSaveResult = z.object({
  data: z.array(ZSensor),
  disabled_excess: z.array(z.string()),
  telemetry_limit: z.number().int(),
});
export type TSensorSaveResult = z.infer<typeof ZSensorSaveResult>;

/** The value slots taken by the enabled sensors of a project. Pure. */
export function telemetrySlotsUsed(sensors: readonly { enabled: boolean; value_count: number }[]): number {
  return sensors.reduce((n, s) => n + (s.enabled ? s.value_count : 0), 0);
}

/** §3 sensor bus (GET/PUT {id}/profile/sensorBus). */
export const ZSensorBus = z.object({
  iface: z.enum(SENSOR_IFACES),
  port: z.number().int().min(0).max(SENSOR_PORT_MAX),
});
export type TSensorBus = z.infer<typeof ZSensorBus>;

/** Decimals a display may show. */
export const DISPLAY_DECIMALS_MAX = 6;

/** Display settings of one sensor (sensorDisplay; decision in docs/decisions/sensors.md). */
export const ZSensorDisplayInput = z
  .object({
    decimals: z.number().int().min(0).max(DISPLAY_DECIMALS_MAX).default(2),
    gauge_min: z.number().finite().nullable().default(null),
    gauge_max: z.number().finite().nullable().default(null),
    color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, { message: 'a #rrggbb colour' })
      .default('#1677ff'),
  })
  .refine((d) => d.gauge_min === null || d.gauge_max === null || d.gauge_min < d.gauge_max, {
    message: 'gauge_min must be below gauge_max',
    path: ['gauge_max'],
  });
export type TSensorDisplayInput = z.infer<typeof ZSensorDisplayInput>;
/** POST sensorDisplay: settings for a sensor that has none yet. */
export const ZSensorDisplayCreate = z.intersection(z.object({ sensor_id: ZId }), ZSensorDisplayInput);
/** A sensor's display settings as presented. */
export const ZSensorDisplay = z.object({
  sensor_id: z.number().int(),
  decimals: z.number().int(),
  gauge_min: z.number().nullable(),
  gauge_max: z.number().nullable(),
  color: z.string(),
});
export type TSensorDisplay = z.infer<typeof ZSensorDisplay>;

/** POST sync: publish a project's configuration to its devices. */
export const ZSyncRequest = z.object({ project_id: ZId });
/** POST sync answer: how many devices were sent the retained config, and its version (epoch ms). */
export const ZSyncResult = z.object({ devices: z.number().int(), version: z.number().int() });
export type TSyncResult = z.infer<typeof ZSyncResult>;

/** Paths of the sensors calls (§7 sensors). */
export const sensorPaths = {
  list: (projectId: number) => `${API.frontstage}/${projectId}/profile/sensors`,
  listV2: (projectId: number) => `${API.frontstage}/v2/${projectId}/profile/sensors`,
  one: (sensorId: number) => `${API.frontstage}/projects/profile/sensors/${sensorId}`,
  bus: (projectId: number) => `${API.frontstage}/${projectId}/profile/sensorBus`,
  displays: `${API.frontstage}/sensorDisplay`,
  display: (sensorId: number) => `${API.frontstage}/sensorDisplay/${sensorId}`,
  sync: `${API.frontstage}/sync`,
} as const;

/** One problem of an easy import: the 1-based line (0 = the whole text) and what is wrong. */
export interface TImportError {
  line: number;
  message: string;
}

/**
 * Easy import of status groups (§5 "Easy import lines max 20"; format in docs/decisions/sensors.md): one group per
 * line, `name;index;length;value=label,value=label,…` (index = first bit from the right, length in bits). Blank lines
 * and lines starting with `#` are skipped. At most {@link EASY_IMPORT_MAX_LINES} non-blank lines; the groups must then
 * pass {@link ZStatusGroups} (≤ 16 lines, values fit, unique codes). Pure; never throws.
 */
export function parseStatusImport(text: string): { groups: TStatusGroup[]; errors: TImportError[] } {
  const lines = text.split(/\r?\n/).map((l, i) => ({ n: i + 1, l: l.trim() }));
  const filled = lines.filter((x) => x.l !== '');
  if (filled.length > EASY_IMPORT_MAX_LINES) {
    return { groups: [], errors: [{ line: 0, message: `at most ${EASY_IMPORT_MAX_LINES} lines` }] };
  }
  const groups: TStatusGroup[] = [];
  const errors: TImportError[] = [];
  for (const { n, l } of filled) {
    if (l.startsWith('#')) continue;
    const [name, index, length, values = '', ...rest] = l.split(';').map((p) => p.trim());
    const parsedValues = values === '' ? [] : values.split(',').map((v) => v.split('='));
    if (rest.length > 0 || !name || !/^\d+$/.test(index ?? '') || !/^\d+$/.test(length ?? '')) {
      errors.push({ line: n, message: 'expected name;index;length;value=label,…' });
      continue;
    }
    if (parsedValues.some((v) => v.length !== 2 || !/^\d+$/.test(v[0].trim()) || v[1].trim() === '')) {
      errors.push({ line: n, message: 'values are value=label, separated by commas' });
      continue;
    }
    groups.push({
      name,
      index: Number(index),
      bytesLength: Number(length),
      values: parsedValues.map(([v, label]) => ({ value: Number(v.trim()), label: label.trim() })),
    });
  }
  if (errors.length > 0) return { groups: [], errors };
  const checked = ZStatusGroups.safeParse(groups);
  if (!checked.success) {
    const issues = checked.error.issues.map((i) => ({
      line: typeof i.path[0] === 'number' ? lineOfGroup(filled, i.path[0]) : 0,
      message: `${i.path.slice(1).join('.') || 'groups'}: ${i.message}`,
    }));
    return { groups: [], errors: issues };
  }
  return { groups: checked.data, errors: [] };
}

function lineOfGroup(filled: readonly { n: number; l: string }[], groupIndex: number): number {
  return filled.filter((x) => !x.l.startsWith('#'))[groupIndex]?.n ?? 0;
}
