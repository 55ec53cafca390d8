import { paths, type TDeviceTwin, type TLatestValue, type TTelemetryMetadata, type TTelemetryRow, type TTsTypes } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { authorise, buildDeviceProject } from '../../../test/device-factory.js';
import { writeIngestBatch } from './write.js';

const T0 = Date.UTC(2026, 1, 1);
const groups = [{ name: 'mode', index: 0, bytesLength: 2, values: [{ value: 1, label: 'run' }] }];

describe(`time-series API: access, latest, twins, raw (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let other: TBuiltAccount;
  let user: TBuiltAccount;
  let mine: string; // authorised to the user
  let hidden: string; // vendor's, not authorised to the user
  const device = (tid: string) => [
    `${paths.tsMetadata}?tangramId=${tid}`,
    `${paths.tsLatest}?tangramId=${tid}`,
    `${paths.tsLatestN}?tangramId=${tid}&key=temperature&n=2`,
    `${paths.tsTimeseriesV2}?tangramId=${tid}&key=temperature&startTs=${T0}&endTs=${T0 + 60_000}`,
    `${paths.tsTimeseries}?tangramId=${tid}&key=temperature&startTs=${T0}&endTs=${T0 + 60_000}`,
    `${paths.tsDownload}?tangramId=${tid}&startTs=${T0}&endTs=${T0 + 60_000}`,
    `${paths.tsRawValues}?tangramId=${tid}&key=temperature&startTs=${T0}&endTs=${T0 + 60_000}`,
  ];

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    other = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    const p = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2, statusGroups: groups });
    [mine, hidden] = p.devices.map((d) => d.tangramId);
    await authorise(server.ctx.db, p.devices[0].id, user.accountId);
    const pts = [0, 10_000, 20_000].map((dt, i) => ({
      key: 'temperature',
      ts: T0 + dt,
      svcRecvTs: T0 + dt + 5,
      v1: 20 + i,
      v2: null,
      v3: null,
    }));
    await writeIngestBatch(server.ctx.db, {
      telemetry: p.devices.flatMap((d) => [
        ...pts.map((x) => ({ ...x, deviceId: d.id })),
        { deviceId: d.id, key: 'vibration', ts: T0, svcRecvTs: T0 + 5, v1: 1, v2: 2, v3: 3 },
      ]),
      status: [{ deviceId: p.devices[0].id, ts: T0, svcRecvTs: T0 + 5, value: 5 }],
      rejected: [],
    });
  });
  afterAll(() => server.stop());

  it('answers 401 without a token on every route', async () => {
    for (const url of [...device(mine), `${paths.tsDeviceTwins}?tangramIds=${mine}`, paths.tsTypes]) {
      expect((await server.api('GET', url)).status, url).toBe(401);
    }
  });

  it('answers 200 to the vendor and to an authorised user on every device route', async () => {
    for (const token of [vendor.token, user.token]) {
      for (const url of device(mine)) expect((await server.api('GET', url, { token })).status, url).toBe(200);
    }
  });

  it('answers 404 to another vendor and to a user not authorised for the device, on every device route', async () => {
    for (const url of device(mine)) expect((await server.api('GET', url, { token: other.token })).status, url).toBe(404);
    for (const url of device(hidden)) expect((await server.api('GET', url, { token: user.token })).status, url).toBe(404);
  });

  it('lists the project sensors as metadata', async () => {
    const res = await server.api<TTelemetryMetadata>('GET', `${paths.tsMetadata}?tangramId=${mine}`, { token: vendor.token });
    expect(res.body).toEqual([
      { key: 'temperature', name: 'temperature', unit: '°C', value_count: 1, enabled: true, value_type: 'number' },
      { key: 'humidity', name: 'humidity', unit: '%', value_count: 1, enabled: true, value_type: 'number' },
      { key: 'vibration', name: 'vibration', unit: 'mm/s', value_count: 3, enabled: true, value_type: 'number' },
      { key: 'current', name: 'current', unit: 'A', value_count: 1, enabled: true, value_type: 'number' },
    ]);
  });

  it('answers the latest value per key and the newest n rows', async () => {
    const latest = await server.api<TLatestValue[]>('GET', `${paths.tsLatest}?tangramId=${mine}`, { token: user.token });
    expect(latest.body).toEqual([
      { key: 'temperature', ts: T0 + 20_000, svc_recv_ts: T0 + 20_005, vs: [22] },
      { key: 'vibration', ts: T0, svc_recv_ts: T0 + 5, vs: [1, 2, 3] },
    ]);
    const n = await server.api<TTelemetryRow[]>('GET', `${paths.tsLatestN}?tangramId=${mine}&key=temperature&n=2`, { token: user.token });
    expect(n.body.map((r) => [r.ts, r.v1])).toEqual([
      [T0 + 20_000, 22],
      [T0 + 10_000, 21],
    ]);
    expect((await server.api('GET', `${paths.tsLatestN}?tangramId=${mine}&key=temperature&n=1001`, { token: user.token })).status).toBe(
      400,
    );
  });

  it('answers twins with decoded status, leaving out devices the caller may not see', async () => {
    const url = `${paths.tsDeviceTwins}?tangramIds=${mine},${hidden},NOT-AN-ID`;
    const asUser = await server.api<TDeviceTwin[]>('GET', url, { token: user.token });
    expect(asUser.status).toBe(200);
    expect(asUser.body.map((t) => t.tangramId)).toEqual([mine]);
    expect(asUser.body[0].status).toMatchObject({ value: 5, ts: T0, binary: `${'0'.repeat(37)}101` });
    expect(asUser.body[0].status?.decoded).toEqual([{ name: 'mode', index: 0, bytesLength: 2, raw: 1, binary: '01', label: 'run' }]);
    expect(asUser.body[0].telemetry).toHaveLength(2);
    const asVendor = await server.api<TDeviceTwin[]>('GET', url, { token: vendor.token });
    expect(asVendor.body.map((t) => [t.tangramId, t.status === null])).toEqual([
      [mine, false],
      [hidden, true],
    ]);
    expect((await server.api<TDeviceTwin[]>('GET', url, { token: other.token })).body).toEqual([]);
  });

  it('lists the aggregation functions and value slots', async () => {
    const res = await server.api<TTsTypes>('GET', paths.tsTypes, { token: user.token });
    expect(res.body).toEqual({ fns: ['avg', 'min', 'max', 'sum', 'count'], values: ['v1', 'v2', 'v3'], diff: true });
  });

  it('answers raw rows in the third-party form to an API key', async () => {
    const created = await server.api<{ key: string }>('POST', paths.apiKeys, {
      token: vendor.token,
      body: { name: 'script', expires_at: null },
    });
    expect(created.status).toBe(201);
    const res = await server.api<TTelemetryRow[]>(
      'GET',
      `${paths.tsRawValues}?tangramId=${mine}&key=temperature&startTs=${T0}&endTs=${T0 + 10_000}`,
      {
        token: created.body.key,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { ts: T0, svc_recv_ts: T0 + 5, key: 'temperature', v1: 20, v2: null, v3: null },
      { ts: T0 + 10_000, svc_recv_ts: T0 + 10_005, key: 'temperature', v1: 21, v2: null, v3: null },
    ]);
  });

  it('refuses bad input with 400 and a code', async () => {
    for (const url of [
      `${paths.tsLatest}?tangramId=nope`,
      `${paths.tsTimeseriesV2}?tangramId=${mine}&key=temperature&startTs=${T0}&endTs=${T0}`,
      `${paths.tsTimeseriesV2}?tangramId=${mine}&key=bad%20key&startTs=${T0}&endTs=${T0 + 1}`,
      `${paths.tsTimeseriesV2}?tangramId=${mine}&key=temperature&startTs=${T0}&endTs=${T0 + 1}&fn=median`,
      `${paths.tsDownload}?tangramId=${mine}&keys=a%20b&startTs=${T0}&endTs=${T0 + 1}`,
      `${paths.tsRawValues}?tangramId=${mine}&key=temperature&startTs=x&endTs=${T0 + 1}`,
    ]) {
      const res = await server.api<{ code: string }>('GET', url, { token: vendor.token });
      expect(res.status, url).toBe(400);
      expect(res.body.code, url).toBe('VALIDATION_FAILED');
    }
  });
});
