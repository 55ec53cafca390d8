import { DAY_MS, paths } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { rowsOf } from '../../db/client.js';
import { readAggregate } from '../evaluation/aggregates.js';
import { type TTelemetryRowIn, writeIngestBatch } from '../telemetry/write.js';
import { compressColdDays } from './compress.js';
import { createDayPartition } from './partitions.js';

const D0 = Date.UTC(2026, 2, 1);
const FIRST_HOT = D0 + 2 * DAY_MS;

describe(`read paths answer the same from hot and compressed days (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let project: TBuiltProject;
  const get = async (url: string) => {
    const res = await server.api('GET', url, { token: vendor.token });
    expect(res.status, url).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    // The storage job stays off: its run at start could compress these March days before the test does.
    server = await startTestServer({ telemetryStorageIntervalMs: 0 });
    vendor = await buildVendor(server);
    project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 1 });
    for (let i = 0; i < 3; i += 1) await createDayPartition(server.ctx.db, D0 + i * DAY_MS);
    const [device] = project.devices;
    // one point every 7 minutes for three days (two of them to be compressed), a three-valued key beside
    const rows: TTelemetryRowIn[] = Array.from({ length: (3 * DAY_MS) / 420_000 }, (_, i) => {
      const ts = D0 + i * 420_000 + (i % 5);
      return {
        deviceId: device.id,
        key: i % 4 === 0 ? 'vibration' : 'temperature',
        ts,
        svcRecvTs: ts + 30 + (i % 17),
        v1: 20 + Math.sin(i) * 3,
        v2: i % 4 === 0 ? i : null,
        v3: i % 4 === 0 ? -i : null,
      };
    });
    await writeIngestBatch(server.ctx.db, { telemetry: rows, status: [], rejected: [] });
  });
  afterAll(() => server.stop());

  it('raw values, CSV download, raw-sourced timeseries, statistics, the newest n rows and rule aggregates', async () => {
    const [device] = project.devices;
    const tid = device.tangramId;
    const range = (a: number, b: number) => `tangramId=${tid}&startTs=${a}&endTs=${b}`;
    const answers = () =>
      Promise.all([
        get(`${paths.tsRawValues}?${range(D0 + 3_600_000, D0 + 2 * DAY_MS + 7_200_000)}&key=temperature`),
        get(`${paths.tsRawValues}?${range(D0, D0 + DAY_MS)}&key=vibration`),
        get(`${paths.tsDownload}?${range(D0 + 1000, D0 + 2.5 * DAY_MS)}`),
        // buckets under a minute come from raw points
        get(`${paths.tsTimeseriesV2}?${range(D0 + 3_600_000, D0 + 4 * 3_600_000)}&key=temperature&width=600&fn=avg`),
        get(`${paths.tsStatisticsSummary}?tangramIds=${tid}&keys=temperature&startTs=${D0}&endTs=${D0 + 3 * DAY_MS}`),
        // the newest n rows reach back into the compressed days when the hot ones are fewer than n
        get(`${paths.tsLatestN}?tangramId=${tid}&key=temperature&n=1000`),
        get(`${paths.tsLatestN}?tangramId=${tid}&key=vibration&n=3`),
        ...(['count', 'avg', 'min', 'max'] as const).map((fn) =>
          readAggregate(server.ctx.db, device.id, { key: 'vibration', slot: 1, fn, windowMs: DAY_MS }, D0 + 1.5 * DAY_MS),
        ),
      ]);
    const hot = await answers();
    expect(hot[0] as unknown[]).toHaveLength(315); // 49 h, one point in 7 min, three in four temperature
    expect(String(hot[2]).split('\n').length).toBeGreaterThan(500);
    expect(hot[3]).toMatchObject({ source: 'raw' });
    expect((hot[5] as unknown[]).length).toBeGreaterThan(315);
    expect(hot[6] as unknown[]).toHaveLength(3);

    const done = await compressColdDays(server.ctx.db, FIRST_HOT);
    expect(done.detached).toEqual(['telemetry_20260301', 'telemetry_20260302']);
    const chunks = rowsOf<{ n: number }>(
      await server.ctx.db.execute(sql`select count(*)::int as n from telemetry_chunk where device_id = ${device.id}`),
    );
    expect(chunks[0].n).toBe(4); // two keys × two days
    const cold = await answers();
    for (const [i, a] of cold.entries()) expect(JSON.stringify(a), `answer ${i}`).toEqual(JSON.stringify(hot[i]));
  });
});
