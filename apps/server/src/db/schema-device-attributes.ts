/**
 * Device attributes (docs/decisions/device-apis.md "Attributes"): ThingsBoard's key/value pairs of a device, in three
 * scopes — `client` (sent by the device), `shared` (set by a vendor, pushed to the device) and `server` (set by a
 * vendor, never sent to the device). Part of the one Drizzle schema: schema.ts re-exports this file.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { devices } from './schema-catalogue.js';
import { epochMs } from './columns.js';

/**
 * One attribute of one device: its scope, key, JSON value (a number, string, boolean or object, bounded by
 * `ATTRIBUTE_VALUE_MAX_BYTES`) and when it was last written (epoch ms). Deleting the device deletes them.
 */
export const deviceAttributes = pgTable(
  'device_attributes',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    scope: text('scope').$type<'client' | 'shared' | 'server'>().notNull(),
    key: text('key').notNull(),
    value: jsonb('value').$type<unknown>().notNull(),
    updatedAt: epochMs('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.scope, t.key] }),
    check('device_attributes_scope', sql`${t.scope} in ('client', 'shared', 'server')`),
    index('device_attributes_updated_idx').on(t.deviceId, t.scope, t.updatedAt),
  ],
);
