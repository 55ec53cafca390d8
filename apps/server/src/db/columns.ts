/**
 * Column builders shared by the schema files: epoch-millisecond times (`bigint` as a JS number), the `created_at`
 * column every table stamps on insert, and `bytea` as a Buffer on both drivers.
 */
import { sql } from 'drizzle-orm';
import { bigint, customType } from 'drizzle-orm/pg-core';

/** An epoch-milliseconds `bigint` column read as a number (safe until the year 287396). */
export const epochMs = (name: string) => bigint(name, { mode: 'number' });

/** `created_at`: epoch ms, set by the database on insert. */
export const createdAt = () => epochMs('created_at').notNull().default(sql`(extract(epoch from now()) * 1000)::bigint`);

/** `updated_at`: epoch ms, set by the database on insert; writers set it on update. */
export const updatedAt = () => epochMs('updated_at').notNull().default(sql`(extract(epoch from now()) * 1000)::bigint`);

/** `bytea` as a Buffer on both drivers (PGlite answers a Uint8Array, node-postgres a Buffer). */
export const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});
