/**
 * Migrations run on start on both databases, a second run is a no-op, and the committed
 * SQL has not drifted from schema.ts (STYLE.md: generated files never drift from their source).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmptyTestDatabase, TEST_DB_KIND } from '../../test/helpers.js';
import { rowsOf, type Database } from './client.js';
import { MIGRATIONS_FOLDER, runMigrations } from './migrate.js';
import * as schema from './schema.js';
import { TEXT_KEY_LAYOUT_TABLES } from '../modules/telemetry-store/partitions.js';

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
const tableNames = (Object.values(schema) as unknown[])
  .filter((v): v is PgTable => is(v, PgTable))
  .map((t) => getTableConfig(t).name)
  .sort();

describe(`migrations (${TEST_DB_KIND})`, () => {
  let database: Database;
  beforeAll(async () => {
    // An empty cluster, not the test harness's migrated one: this test is about migrating from nothing.
    database = await openEmptyTestDatabase();
  });
  afterAll(() => database.close());

  it('create every table of schema.ts, and a second run changes nothing', async () => {
    await runMigrations(database);
    await runMigrations(database);
    const rows = rowsOf<{ table_name: string }>(
      // partitions are not tables of their own in schema.ts (raw telemetry's days: modules/telemetry-store)
      await database.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public'
        and table_name not in (select relname from pg_class where relispartition) order by 1`),
    );
    // The earlier telemetry layout's tables stay, outside schema.ts, until the storage job has emptied them.
    expect(rows.map((r) => r.table_name)).toEqual([...tableNames, ...TEXT_KEY_LAYOUT_TABLES].sort());
    const applied = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`));
    expect(applied[0].n).toBe(readdirSync(MIGRATIONS_FOLDER).filter((f) => f.endsWith('.sql')).length);
  });

  it('the committed migrations match schema.ts (drizzle-kit generates nothing new)', () => {
    const out = mkdtempSync(join(tmpdir(), 'tessera-drift-'));
    cpSync(MIGRATIONS_FOLDER, out, { recursive: true });
    const before = readdirSync(out).length;
    const kit = join(SERVER_DIR, '../../node_modules/.bin/drizzle-kit');
    // drizzle-kit prefixes `./` to --out, so it gets a path relative to its working directory.
    const printed = execFileSync(
      kit,
      ['generate', '--dialect', 'postgresql', '--schema', './src/db/schema.ts', '--out', relative(SERVER_DIR, out)],
      {
        cwd: SERVER_DIR,
        encoding: 'utf8',
        stdio: 'pipe',
      },
    );
    expect(printed).toMatch(/No schema changes/);
    expect(readdirSync(out).length).toBe(before);
  });
});
