/**
 * Device APIs other than the native protocol (docs/decisions/device-apis.md): the ThingsBoard-compatible access token
 * a device may log in with over MQTT (as its username) and HTTP (in the path). Part of the one Drizzle schema:
 * schema.ts re-exports this file.
 */
import { integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { devices } from './schema-catalogue.js';
import { epochMs } from './columns.js';

/**
 * A device's access token, at most one per device: its SHA-256 (hex; the token is shown once, when issued), its last
 * four characters (what the console shows masked) and when it was issued (epoch ms). Deleting the device deletes it.
 */
export const deviceAccessTokens = pgTable(
  'device_access_tokens',
  {
    deviceId: integer('device_id')
      .primaryKey()
      .references(() => devices.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    tokenLast4: text('token_last4').notNull(),
    issuedAt: epochMs('issued_at').notNull(),
  },
  (t) => [uniqueIndex('device_access_tokens_hash_uq').on(t.tokenHash)],
);
