/**
 * Devices' X.509 client certificates (docs/deployment.md "MQTT over TLS", "Certificate login"): the SHA-256
 * fingerprint of the one certificate a device may log in with over MQTT TLS, without its secret. Part of the one
 * Drizzle schema: schema.ts re-exports this file.
 */
import { integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { devices } from './schema-catalogue.js';

/**
 * A device's registered certificate: `fingerprint` is the SHA-256 of its DER encoding, 64 lower-case hex digits,
 * unique (a certificate identifies one device). Removing the row revokes it.
 */
export const deviceCertificates = pgTable(
  'device_certificates',
  {
    deviceId: integer('device_id')
      .primaryKey()
      .references(() => devices.id, { onDelete: 'cascade' }),
    fingerprint: text('fingerprint').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('device_certificates_fingerprint_uq').on(t.fingerprint)],
);
