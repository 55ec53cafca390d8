/**
 * Batched rollup reads (rollup-reader.ts): reads made together go out in one statement and each gets its own
 * device's, key's, slot's and range's figures; a range without buckets answers undefined.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject } from '../../../../test/device-factory.js';
import { openTestDatabase, TEST_DB_KIND } from '../../../../test/helpers.js';
import type { Database } from '../../../db/client.js';
import { runMigrations } from '../../../db/migrate.js';
import { telemetryRollup } from '../../../db/schema.js';
import { RollupReader } from './rollup-reader.js';

const MINUTE = 60_000;
const T0 = 1_700_000_040_000 - (1_700_000_040_000 % MINUTE);

describe(`platform-rule rollup reads (${TEST_DB_KIND})`, () => {
  let database: Database;
  let deviceIds: number[];
  beforeAll(async () => {
    database = await openTestDatabase();
    await runMigrations(database);
    deviceIds = (await buildDeviceProject(database.db, { count: 3 })).devices.map((d) => d.id);
    // Device i has, for `temperature`, buckets at T0 + m minutes (m = 0..4) with count 2, v1 sum 10·(i+1)+m, v2 sum 100.
    await database.db.insert(telemetryRollup).values(
      deviceIds.flatMap((deviceId, i) =>
        Array.from({ length: 5 }, (_, m) => ({
          deviceId,
          key: 'temperature',
          bucketMs: MINUTE,
          bucketTs: T0 + m * MINUTE,
          count: 2,
          v1Min: m,
          v1Max: 10 * (i + 1) + m,
          v1Sum: 10 * (i + 1) + m,
          v2Min: -1,
          v2Max: 1,
          v2Sum: 100,
          firstTs: T0 + m * MINUTE,
          firstV1: m,
          lastTs: T0 + m * MINUTE + 1,
          lastV1: 10 * (i + 1) + m,
        })),
      ),
    );
  });
  afterAll(() => database?.close());

  it('answers many reads from one statement, each with its own figures', async () => {
    const reader = new RollupReader(database.db);
    const read = (deviceId: number, slot: 1 | 2, fromM: number, toM: number, key = 'temperature') =>
      reader.read({ deviceId, key, slot, bucketMs: MINUTE, fromMs: T0 + fromM * MINUTE, toMs: T0 + toM * MINUTE });
    const [a, b, c, none, otherKey] = await Promise.all([
      read(deviceIds[0] as number, 1, 0, 4),
      read(deviceIds[2] as number, 1, 3, 4),
      read(deviceIds[1] as number, 2, 1, 2),
      read(deviceIds[1] as number, 1, 10, 20),
      read(deviceIds[0] as number, 1, 0, 4, 'humidity'),
    ]);
    expect(reader.statements).toBe(1);
    expect({ ...a, n: Number(a?.n), s: Number(a?.s) }).toEqual({ n: 10, mn: 0, mx: 14, s: 60, first: 0, last: 14 });
    expect({ ...b, n: Number(b?.n), s: Number(b?.s) }).toEqual({ n: 4, mn: 3, mx: 34, s: 67, first: 3, last: 34 });
    expect({ n: Number(c?.n), mn: c?.mn, mx: c?.mx, s: Number(c?.s) }).toEqual({ n: 4, mn: -1, mx: 1, s: 200 });
    expect(none).toBeUndefined();
    expect(otherKey).toBeUndefined();
    // A read made after the first is answered by a later statement.
    expect(Number((await read(deviceIds[1] as number, 1, 0, 0))?.n)).toBe(2);
    expect(reader.statements).toBe(2);
  });
});
