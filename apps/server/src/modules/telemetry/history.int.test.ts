import { DAY_MS, paths, type TTimeseriesResponse } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import type { TPrincipal } from '../../core/principal.js';
import { prepareDownload } from './download.js';
import { getRawValues } from './raw.js';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { type TTelemetryRowIn, writeIngestBatch } from './write.js';

const T0 = Date.UTC(2026, 0, 1); // midnight UTC: every nice bucket is aligned on it
const HOUR = 3_600_000;
const DAYS_90 = 90 * DAY_MS;
const hourly = Array.from({ length: 90 * 24 }, (_, i) => ({ ts: T0 + i * HOUR, v1: (i % 17) - 5, v2: i / 2 }));
// by hand: minute 0 holds 1, 3, 8; minute 6 holds 2, 4
const small = [
  [0, 1],
  [10_000, 3],
  [20_000, 8],
  [365_000, 2],
  [420_000, 4],
] as const;

describe(`time-series API: bucketing, functions, ranges, CSV (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let tid: string;
  const ts = async (query: string) => {
    const res = await server.api<TTimeseriesResponse & { code?: string }>('GET', `${paths.tsTimeseriesV2}?tangramId=${tid}&${query}`, {
      token: vendor.token,
    });
    return res;
  };
  const principal = (): TPrincipal => ({
    accountId: vendor.accountId,
    tenantId: vendor.tenantId,
    email: vendor.email,
    level: 'vendor',
    fea: [],
    via: 'jwt',
  });

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    const p = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
    const deviceId = p.devices[0].id;
    tid = p.devices[0].tangramId;
    const row = (key: string, t: number, v1: number, v2: number | null = null): TTelemetryRowIn => ({
      deviceId,
      key,
      ts: t,
      svcRecvTs: t + 1,
      v1,
      v2,
      v3: null,
    });
    for (let i = 0; i < hourly.length; i += 500) {
      await writeIngestBatch(server.ctx.db, {
        telemetry: hourly.slice(i, i + 500).map((h) => row('temp', h.ts, h.v1, h.v2)),
        status: [],
        rejected: [],
      });
    }
    await writeIngestBatch(server.ctx.db, { telemetry: small.map(([dt, v]) => row('small', T0 + dt, v)), status: [], rejected: [] });
  });
  afterAll(() => server.stop());

  it('answers a 90-day range at width 600 from the 1-h rollup in ≤ 1200 points, matching a hand computation', async () => {
    const res = await ts(`key=temp&startTs=${T0}&endTs=${T0 + DAYS_90}&width=600&fn=avg`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ source: 'rollup_1h', bucket_ms: 6 * HOUR, fn: 'avg' });
    expect(res.body.points.length).toBeLessThanOrEqual(1200);
    expect(res.body.points).toHaveLength(360);
    const bucket = (b: number) => hourly.slice(b * 6, b * 6 + 6);
    for (const b of [0, 1, 200, 359]) {
      const vs = bucket(b);
      expect(res.body.points[b].ts).toBe(T0 + b * 6 * HOUR);
      expect(res.body.points[b].vs[0]).toBeCloseTo(vs.reduce((s, h) => s + h.v1, 0) / 6, 9);
      expect(res.body.points[b].vs[1]).toBeCloseTo(vs.reduce((s, h) => s + h.v2, 0) / 6, 9);
      expect(res.body.points[b].vs[2]).toBeNull();
    }
  });

  it('keeps every range within ~2× width', async () => {
    for (const [range, width] of [
      [DAYS_90, 10],
      [DAYS_90, 5000],
      [7 * DAY_MS + 12345, 77],
      [2 * HOUR, 600],
    ]) {
      const res = await ts(`key=temp&startTs=${T0}&endTs=${T0 + range}&width=${width}&fn=count`);
      expect(res.status).toBe(200);
      expect(res.body.points.length).toBeLessThanOrEqual(2 * width);
    }
  });

  it('computes avg/min/max/sum/count over the 1-min rollup for a short range as by hand', async () => {
    const expected = { avg: [4, 3], min: [1, 2], max: [8, 4], sum: [12, 6], count: [3, 2] };
    for (const [fn, values] of Object.entries(expected)) {
      const res = await ts(`key=small&startTs=${T0}&endTs=${T0 + 20 * 60_000}&width=10&fn=${fn}`);
      expect(res.body).toMatchObject({ source: 'rollup_1m', bucket_ms: 300_000 });
      expect(res.body.points, fn).toEqual([
        { ts: T0, vs: [values[0], null, null] },
        { ts: T0 + 300_000, vs: [values[1], null, null] },
      ]);
    }
  });

  it('reads raw rows for a 2-hour range at width 600 and for a one-minute range', async () => {
    const twoHours = await ts(`key=small&startTs=${T0}&endTs=${T0 + 2 * HOUR}&width=600`);
    expect(twoHours.body).toMatchObject({ source: 'raw', bucket_ms: 30_000 });
    expect(twoHours.body.points.map((p) => [p.ts - T0, p.vs[0]])).toEqual([
      [0, 4],
      [360_000, 2],
      [420_000, 4],
    ]);
    const minute = await ts(`key=small&startTs=${T0}&endTs=${T0 + 60_000}&width=10&fn=max`);
    expect(minute.body).toMatchObject({ source: 'raw', bucket_ms: 10_000 });
    expect(minute.body.points.map((p) => p.vs[0])).toEqual([1, 3, 8]);
  });

  it('answers bucket-to-bucket differences with diff=true', async () => {
    const res = await ts(`key=small&startTs=${T0}&endTs=${T0 + 60_000}&width=10&fn=max&diff=true`);
    expect(res.body.points.map((p) => p.vs[0])).toEqual([null, 2, 5]);
    const rolled = await ts(`key=small&startTs=${T0}&endTs=${T0 + 20 * 60_000}&width=10&fn=avg&diff=true`);
    expect(rolled.body.points.map((p) => p.vs[0])).toEqual([null, -1]);
  });

  it('answers sums, averages and differences of values near the largest double, saturating what a double cannot hold', async () => {
    const [{ id: deviceId, tangramId }] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId })).devices;
    const ts = (query: string) =>
      server.api<TTimeseriesResponse>('GET', `${paths.tsTimeseriesV2}?tangramId=${tangramId}&${query}`, { token: vendor.token });
    const huge = 1.7e308;
    const row = (dt: number, v1: number): TTelemetryRowIn => ({
      deviceId,
      key: 'huge',
      ts: T0 + dt,
      svcRecvTs: T0,
      v1,
      v2: null,
      v3: null,
    });
    await writeIngestBatch(server.ctx.db, { telemetry: [row(0, huge), row(10_000, huge)], status: [], rejected: [] });
    await writeIngestBatch(server.ctx.db, { telemetry: [row(360_000, -huge), row(370_000, -huge)], status: [], rejected: [] });
    const max = Number.MAX_VALUE;
    const expected = { avg: [huge, -huge], sum: [max, -max], max: [huge, -huge], count: [2, 2] };
    for (const [fn, [a, b]] of Object.entries(expected)) {
      const rolled = await ts(`key=huge&startTs=${T0}&endTs=${T0 + 20 * 60_000}&width=10&fn=${fn}`);
      expect([rolled.status, rolled.body.source], fn).toEqual([200, 'rollup_1m']);
      expect(
        rolled.body.points.map((p) => p.vs[0]),
        fn,
      ).toEqual([a, b]);
      const raw = await ts(`key=huge&startTs=${T0}&endTs=${T0 + 2 * HOUR}&width=600&fn=${fn}`);
      expect([raw.status, raw.body.source], fn).toEqual([200, 'raw']);
      expect(
        raw.body.points.map((p) => p.vs[0]),
        fn,
      ).toEqual([a, b]);
    }
    const diff = await ts(`key=huge&startTs=${T0}&endTs=${T0 + 20 * 60_000}&width=10&fn=avg&diff=true`);
    expect(diff.body.points.map((p) => p.vs[0])).toEqual([null, -max]);
  });

  it('answers v1 timeseries as avg', async () => {
    const res = await server.api<TTimeseriesResponse>(
      'GET',
      `${paths.tsTimeseries}?tangramId=${tid}&key=small&startTs=${T0}&endTs=${T0 + 20 * 60_000}&width=10`,
      {
        token: vendor.token,
      },
    );
    expect(res.body).toMatchObject({ fn: 'avg', points: [{ vs: [4, null, null] }, { vs: [3, null, null] }] });
  });

  it('allows exactly the range limit and refuses one ms more with RANGE_TOO_LONG', async () => {
    const q = (path: string, days: number, extra: number, more = 'key=temp') =>
      server.api<{ code: string; message: string }>(
        'GET',
        `${path}?tangramId=${tid}&${more}&startTs=${T0}&endTs=${T0 + days * DAY_MS + extra}`,
        {
          token: vendor.token,
        },
      );
    for (const [path, days, more] of [
      [paths.tsTimeseriesV2, 90, 'key=temp'],
      [paths.tsTimeseries, 90, 'key=temp'],
      [paths.tsDownload, 90, 'keys=temp'],
      [paths.tsRawValues, 31, 'key=temp'],
    ] as const) {
      expect((await q(path, days, 0, more)).status, path).toBe(200);
      const over = await q(path, days, 1, more);
      expect([over.status, over.body.code], path).toEqual([400, 'RANGE_TOO_LONG']);
      expect(over.body.message).toContain(`${days} days`);
    }
  });

  it('refuses a raw range holding more rows than the cap, asking for a shorter range', async () => {
    const q = { tangramId: tid, key: 'temp', startTs: T0, endTs: T0 + 10 * HOUR };
    await expect(getRawValues(server.ctx.db, principal(), q, 10)).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('shorter'),
    });
    expect(await getRawValues(server.ctx.db, principal(), q, 11)).toHaveLength(11);
  });

  it('downloads a 90-day range as CSV with a header and every row, as an attachment', async () => {
    const res = await server.api<string>('GET', `${paths.tsDownload}?tangramId=${tid}&keys=temp&startTs=${T0}&endTs=${T0 + DAYS_90}`, {
      token: vendor.token,
    });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/csv');
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename=".+\.csv"$/);
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe('ts,ts_ms,svc_recv_ts,key,v1,v2,v3,value');
    expect(lines).toHaveLength(1 + hourly.length);
    expect(lines[1]).toBe(`${new Date(T0).toISOString()},${T0},${T0 + 1},temp,-5,0,,`);
  });

  it('streams the CSV in batches, in order, without losing a row at batch edges', async () => {
    const { stream } = await prepareDownload(server.ctx.db, principal(), { tangramId: tid, startTs: T0, endTs: T0 + DAYS_90 }, 100);
    let text = '';
    let chunks = 0;
    for await (const chunk of stream) {
      text += chunk;
      chunks += 1;
    }
    expect(chunks).toBeGreaterThan(10);
    // no field of this data needs quoting, so a split is a faithful parse
    const records = text
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => ({ key: l.split(',')[3], ts_ms: l.split(',')[1] }));
    expect(records).toHaveLength(hourly.length + small.length); // every key the device has reported
    const temps = records.filter((r) => r.key === 'temp').map((r) => Number(r.ts_ms));
    expect(temps).toEqual(hourly.map((h) => h.ts));
  });

  it('answers 404 NO_DATA_IN_PERIOD for a download of an empty range', async () => {
    const res = await server.api<{ code: string }>(
      'GET',
      `${paths.tsDownload}?tangramId=${tid}&keys=temp&startTs=${T0 - DAY_MS}&endTs=${T0 - 1}`,
      {
        token: vendor.token,
      },
    );
    expect([res.status, res.body.code]).toEqual([404, 'NO_DATA_IN_PERIOD']);
  });
});
