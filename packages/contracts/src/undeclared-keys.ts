/**
 * Undeclared telemetry keys (docs/decisions/telemetry.md "Undeclared keys"): a project may accept keys no sensor
 * declares (a setting, off by default). Ingest then stores such a key's points, typed by its first value, and offers
 * the key for declaration: the configure tab lists it, and a vendor declares it (it becomes a sensor of that type)
 * or discards it (its later values are refused again as `unknown_key`). The setting itself is a project setting
 * (project-settings.ts ZUndeclaredKeySetting).
 */
import { z } from 'zod';
import { API } from './api-paths.js';
import { NAME_MAX } from './limits.js';
import { SENSOR_UNIT_MAX } from './sensors.js';
import { ZTelemetryKey } from './telemetry.js';
import { ZTelemetryValueType } from './telemetry-values.js';

/** Paths of the undeclared-key endpoints (server routes, console and tests). */
export const undeclaredKeyPaths = {
  /** GET: the keys offered for declaration. */
  list: (projectId: number) => `${API.frontstage}/projects/${projectId}/undeclared-keys`,
  /** POST: declares one as a sensor. */
  declare: (projectId: number) => `${API.frontstage}/projects/${projectId}/undeclared-keys/declare`,
  /** POST: discards one (its values are refused again). */
  discard: (projectId: number) => `${API.frontstage}/projects/${projectId}/undeclared-keys/discard`,
} as const;

/**
 * One key offered for declaration: the type of its first value (and, for numbers, how many values that point
 * carried, 1–3), and when ingest received it (epoch ms).
 */
export const ZUndeclaredKey = z.object({
  key: z.string(),
  value_type: ZTelemetryValueType,
  value_count: z.number().int(),
  first_seen_at: z.number().int(),
});
export type TUndeclaredKey = z.infer<typeof ZUndeclaredKey>;

/**
 * GET `projects/{id}/undeclared-keys`: the keys on offer, oldest first (at most `limit`, contracts
 * UNDECLARED_KEYS_MAX), and whether the project accepts undeclared keys now.
 */
export const ZUndeclaredKeyList = z.object({
  items: z.array(ZUndeclaredKey),
  limit: z.number().int(),
  accepts_undeclared_keys: z.boolean(),
});
export type TUndeclaredKeyList = z.infer<typeof ZUndeclaredKeyList>;

/** POST `…/undeclared-keys/declare`: the key becomes a sensor of its type with this name and unit. */
export const ZDeclareUndeclaredKey = z.object({
  key: ZTelemetryKey,
  name: z.string().trim().min(1).max(NAME_MAX),
  unit: z.string().trim().max(SENSOR_UNIT_MAX).default(''),
});
export type TDeclareUndeclaredKey = z.infer<typeof ZDeclareUndeclaredKey>;

/** POST `…/undeclared-keys/discard`: the key leaves the offer and its later values are refused. */
export const ZDiscardUndeclaredKey = z.object({ key: ZTelemetryKey });
export type TDiscardUndeclaredKey = z.infer<typeof ZDiscardUndeclaredKey>;
