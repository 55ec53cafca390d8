/**
 * Platform telemetry (docs/platform-telemetry.md): a tenant's derived series, the devices mounted on each (with
 * the alias the formula calls them by) and the stored series, one point per minute. Part of the one Drizzle schema
 * (schema.ts re-exports every schema file); times are epoch ms in `bigint` columns.
 */
import { doublePrecision, index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, epochMs, updatedAt } from './columns.js';
import { tenants } from './schema-accounts.js';
import { devices } from './schema-catalogue.js';

/** A platform telemetry: its formula and coefficient, and its latest evaluation (value and time, or why none). */
export const platformTelemetries = pgTable(
  'platform_telemetries',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    formula: text('formula').notNull(),
    coefficient: doublePrecision('coefficient').notNull().default(1),
    unit: text('unit').notNull().default(''),
    latestValue: doublePrecision('latest_value'),
    latestTs: epochMs('latest_ts'),
    latestError: text('latest_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('platform_telemetries_name_uq').on(t.tenantId, t.name)],
);

/** A device mounted on a platform telemetry, under the alias its formula uses. */
export const platformTelemetryDevices = pgTable(
  'platform_telemetry_devices',
  {
    platformTelemetryId: integer('platform_telemetry_id')
      .notNull()
      .references(() => platformTelemetries.id, { onDelete: 'cascade' }),
    alias: text('alias').notNull(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.platformTelemetryId, t.alias] }), index('platform_telemetry_devices_device_idx').on(t.deviceId)],
);

/** The stored series: the last value evaluated in each minute (`ts` the minute's start). */
export const platformTelemetryPoints = pgTable(
  'platform_telemetry_points',
  {
    platformTelemetryId: integer('platform_telemetry_id')
      .notNull()
      .references(() => platformTelemetries.id, { onDelete: 'cascade' }),
    ts: epochMs('ts').notNull(),
    value: doublePrecision('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.platformTelemetryId, t.ts] })],
);
