/**
 * Runs the Drizzle migrations in apps/server/drizzle on start (ARCHITECTURE.md: the same migrations on PGlite and
 * PostgreSQL). On PostgreSQL an advisory lock keeps replicas starting together from migrating twice.
 */
import { fileURLToPath } from 'node:url';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { Database } from './client.js';

/** Folder of the generated SQL migrations. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));
const MIGRATION_LOCK_ID = 727_001;

/**
 * Applies every pending migration.
 * @throws when a migration fails (the failed migration is rolled back).
 */
export async function runMigrations(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  // One connection without timeouts for the lock and the migrations: the lock may wait for another replica's
  // migration, and a migration may build an index on a large table.
  const client = await database.connectUnbounded!();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migratePg(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
