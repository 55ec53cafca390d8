import { parse } from 'csv-parse/sync';
import { parse as parseContentDisposition } from 'content-disposition';
import { downloadPaths, type TDownloadJob, type TDownloadJobPage, type TDownloadLink } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { buildAccount } from '../../../test/factories.js';
import { TEST_DB_KIND } from '../../../test/helpers.js';
import { startTwoTenants, type TTwoTenants } from '../../../test/tenants.js';
import { until } from '../../../test/until.js';
import { deviceAuthz, downloadJobs } from '../../db/schema.js';
import { writeIngestBatch } from '../telemetry/write.js';
import { exportChunks } from './export-rows.js';

const T0 = Date.UTC(2026, 5, 1);
const MINUTE = 60_000;

/** Entry names and texts of a zip. */
function unzip(bytes: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const files = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe(`download centre: export jobs packaged in the background (${TEST_DB_KIND})`, () => {
  let t: TTwoTenants;
  let project: TBuiltProject;
  let foreign: TBuiltProject;
  const [a, b] = [0, 1];
  const create = (token: string, body: unknown) =>
    t.server.api<TDownloadJob & { code?: string }>('POST', downloadPaths.records, { token, body });
  const finished = (token: string, id: number) =>
    until(async () => {
      const res = await t.server.api<TDownloadJob>('GET', downloadPaths.record(id), { token });
      return res.body.status === 'packaging' ? undefined : res.body;
    }, 20_000);

  beforeAll(async () => {
    t = await startTwoTenants();
    project = await buildDeviceProject(t.server.ctx.db, { tenantId: t.vendor.tenantId, count: 3 });
    foreign = await buildDeviceProject(t.server.ctx.db, { tenantId: t.other.tenantId, count: 1 });
    // Device a: 120 minutes of temperature (v1 = minute index) and humidity; device b: 30 minutes of temperature.
    const rows = [
      ...Array.from({ length: 120 }, (_, i) => ({ deviceId: project.devices[a].id, key: 'temperature', ts: T0 + i * MINUTE, v1: i })),
      ...Array.from({ length: 120 }, (_, i) => ({ deviceId: project.devices[a].id, key: 'humidity', ts: T0 + i * MINUTE, v1: 50 })),
      ...Array.from({ length: 30 }, (_, i) => ({ deviceId: project.devices[b].id, key: 'temperature', ts: T0 + i * MINUTE, v1: -i })),
    ].map((r) => ({ ...r, svcRecvTs: r.ts + 5, v2: null, v3: null }));
    await writeIngestBatch(t.server.ctx.db, { telemetry: rows, status: [], rejected: [] });
  });
  afterAll(() => t.server.stop());

  it('packages a raw CSV of two devices: every stored point, in order, and the progress reaches the total', async () => {
    const res = await create(t.vendor.token, {
      tangram_ids: [project.devices[a].tangramId, project.devices[b].tangramId],
      keys: ['temperature'],
      start_ts: T0,
      end_ts: T0 + 59 * MINUTE,
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('packaging');
    const job = await finished(t.vendor.token, res.body.id);
    expect(job).toMatchObject({ status: 'packaging completed', rows_total: 90, rows_done: 90, failure: null });
    expect(job.expires_at).toBe((job.finished_at ?? 0) + 7 * 86_400_000);

    const file = await t.server.api<string>('GET', downloadPaths.download(job.id), { token: t.vendor.token });
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toContain('text/csv');
    expect(parseContentDisposition(String(file.headers['content-disposition']))).toMatchObject({
      type: 'attachment',
      parameters: { filename: expect.stringMatching(/\.csv$/) },
    });
    const records = parse(file.body, { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(90);
    expect(Object.keys(records[0])).toEqual(['tangram_id', 'key', 'ts', 'ts_ms', 'svc_recv_ts', 'v1', 'v2', 'v3', 'value']);
    expect(records[0]).toMatchObject({
      tangram_id: project.devices[a].tangramId,
      key: 'temperature',
      ts: new Date(T0).toISOString(),
      ts_ms: String(T0),
      svc_recv_ts: String(T0 + 5),
      v1: '0',
      v2: '',
    });
    expect(records[59]).toMatchObject({ tangram_id: project.devices[a].tangramId, v1: '59' });
    expect(records[60]).toMatchObject({ tangram_id: project.devices[b].tangramId, v1: '0' });
    expect(records[89]).toMatchObject({ v1: '-29' });
  });

  it('packages a zip of one CSV per device, and a bucketed export of every reported key with the average per bucket', async () => {
    const res = await create(t.vendor.token, {
      name: '溫度 每十五分',
      tangram_ids: [project.devices[a].tangramId, project.devices[b].tangramId],
      start_ts: T0,
      end_ts: T0 + 120 * MINUTE - 1,
      mode: 'bucketed',
      fn: 'avg',
      bucket_ms: 15 * MINUTE,
      format: 'zip',
    });
    expect(res.status).toBe(201);
    const job = await finished(t.vendor.token, res.body.id);
    // a: 8 buckets × 2 keys; b: 2 buckets of temperature.
    expect(job).toMatchObject({ status: 'packaging completed', rows_total: 18, rows_done: 18, file_name: '溫度_每十五分.zip' });
    const link = await t.server.api<TDownloadLink>('POST', downloadPaths.link(job.id), { token: t.vendor.token });
    expect(link.status).toBe(200);
    // The link opens the file without the bearer header.
    const raw = await fetch(`${t.server.httpUrl}${link.body.url}`);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('application/zip');
    // The name the browser saves the file under: the UTF-8 one (RFC 8187), beside an ASCII fallback.
    expect(raw.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('溫度_每十五分.zip')}`);
    expect(parseContentDisposition(raw.headers.get('content-disposition') ?? '').parameters.filename).toBe('溫度_每十五分.zip');
    const files = await unzip(Buffer.from(await raw.arrayBuffer()));
    expect([...files.keys()]).toEqual([`${project.devices[a].tangramId}.csv`, `${project.devices[b].tangramId}.csv`]);
    const aRows = parse(files.get(`${project.devices[a].tangramId}.csv`) ?? '', { columns: true }) as Record<string, string>[];
    expect(aRows.map((r) => r.key)).toEqual([...Array(8).fill('humidity'), ...Array(8).fill('temperature')]);
    // Temperature bucket 0 holds minutes 0..14: avg 7.
    expect(aRows[8]).toMatchObject({
      bucket: new Date(T0).toISOString(),
      bucket_ts: String(T0),
      bucket_ms: String(15 * MINUTE),
      fn: 'avg',
      v1: '7',
    });
    const bRows = parse(files.get(`${project.devices[b].tangramId}.csv`) ?? '', { columns: true }) as Record<string, string>[];
    expect(bRows.map((r) => Number(r.v1))).toEqual([-7, -22]);
  });

  it.runIf(TEST_DB_KIND === 'postgres')('streams raw points through COPY in keyset batches, line for line as the text path', async () => {
    const spec = {
      tangram_ids: [project.devices[a].tangramId],
      keys: ['temperature'],
      start_ts: T0 + 3 * MINUTE,
      end_ts: T0 + 100 * MINUTE,
      mode: 'raw' as const,
      fn: 'avg' as const,
      bucket_ms: 3_600_000,
      format: 'csv' as const,
    };
    const device = { id: project.devices[a].id, tangramId: project.devices[a].tangramId };
    const read = async (opts: Parameters<typeof exportChunks>[4]) => {
      let text = '';
      let rows = 0;
      for await (const chunk of exportChunks(t.server.ctx.db, spec, device, ['temperature'], opts)) {
        text += chunk.text.toString();
        rows += chunk.rows;
      }
      return { text, rows };
    };
    const copied = await read({ pool: t.server.ctx.database.pool, batchRows: 7 });
    const formatted = await read({ batchRows: 7 });
    expect(copied.rows).toBe(98);
    expect(copied).toEqual(formatted);
    expect(copied.text.split('\n')[0]).toBe(
      `${device.tangramId},temperature,${new Date(T0 + 3 * MINUTE).toISOString()},${T0 + 3 * MINUTE},${T0 + 3 * MINUTE + 5},3,,,`,
    );
  });

  it('fails a job without data in its range with the reason, and refuses bad requests before making a job', async () => {
    const empty = await create(t.vendor.token, { tangram_ids: [project.devices[2].tangramId], start_ts: T0, end_ts: T0 + MINUTE });
    const job = await finished(t.vendor.token, empty.body.id);
    expect(job).toMatchObject({ status: 'failed', failure: 'no_data', reason: 'no data in the selected period' });
    expect((await t.server.api('GET', downloadPaths.download(job.id), { token: t.vendor.token })).status).toBe(409);

    const id = project.devices[a].tangramId;
    for (const body of [
      { tangram_ids: [], start_ts: T0, end_ts: T0 + 1 },
      { tangram_ids: Array(21).fill(id), start_ts: T0, end_ts: T0 + 1 },
      { tangram_ids: [id], start_ts: T0 + 1, end_ts: T0 },
      { tangram_ids: [id], start_ts: T0, end_ts: T0 + 91 * 86_400_000 },
      { tangram_ids: [id], start_ts: T0, end_ts: T0 + 1, mode: 'bucketed', bucket_ms: 12_345 },
      { tangram_ids: [id], start_ts: T0, end_ts: T0 + 1, keys: ['bad key!'] },
    ]) {
      const res = await create(t.vendor.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('cancels a packaging job (failed, reason cancelled) and deletes jobs with their files', async () => {
    // Made while no packager runs: it stays packaging until cancelled.
    const [row] = await t.server.ctx.db
      .insert(downloadJobs)
      .values({
        tenantId: t.vendor.tenantId,
        accountId: t.vendor.accountId,
        name: 'slow',
        spec: {
          tangram_ids: [project.devices[a].tangramId],
          keys: [],
          start_ts: T0,
          end_ts: T0 + 1,
          mode: 'raw',
          fn: 'avg',
          bucket_ms: 3_600_000,
          format: 'csv',
        },
        deviceIds: [project.devices[a].id],
        nextAttemptAt: Date.now() + 3_600_000,
      })
      .returning();
    const cancelled = await t.server.api<TDownloadJob>('POST', downloadPaths.cancel(row.id), { token: t.vendor.token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'failed', failure: 'cancelled' });
    expect((await t.server.api('POST', downloadPaths.cancel(row.id), { token: t.vendor.token })).status).toBe(409);

    const list = await t.server.api<TDownloadJobPage>('GET', `${downloadPaths.records}?q=slow`, { token: t.vendor.token });
    expect(list.body.data.map((j) => j.id)).toEqual([row.id]);
    expect((await t.server.api('DELETE', downloadPaths.record(row.id), { token: t.vendor.token })).status).toBe(204);
    expect((await t.server.api('GET', downloadPaths.record(row.id), { token: t.vendor.token })).status).toBe(404);
  });

  it('keeps each account to its own jobs and devices: another tenant, another account of the tenant, a user without the section', async () => {
    const made = await create(t.vendor.token, { tangram_ids: [project.devices[a].tangramId], start_ts: T0, end_ts: T0 + MINUTE });
    const job = await finished(t.vendor.token, made.body.id);
    const colleague = await buildAccount(t.server, { level: 'vendor', tenantId: t.vendor.tenantId });
    for (const token of [t.other.token, colleague.token]) {
      expect((await t.server.api('GET', downloadPaths.record(job.id), { token })).status).toBe(404);
      expect((await t.server.api('GET', downloadPaths.download(job.id), { token })).status).toBe(404);
      expect((await t.server.api('POST', downloadPaths.link(job.id), { token })).status).toBe(404);
      expect((await t.server.api('POST', downloadPaths.cancel(job.id), { token })).status).toBe(404);
      expect((await t.server.api('DELETE', downloadPaths.record(job.id), { token })).status).toBe(404);
      const list = await t.server.api<TDownloadJobPage>('GET', downloadPaths.records, { token });
      expect(list.body.data.map((j) => j.id)).not.toContain(job.id);
    }
    // A device of another tenant cannot be exported (and looks missing).
    expect((await create(t.vendor.token, { tangram_ids: [foreign.devices[0].tangramId], start_ts: T0, end_ts: T0 + 1 })).status).toBe(404);
    // A user exports only the devices authorised to them.
    expect((await create(t.user.token, { tangram_ids: [project.devices[a].tangramId], start_ts: T0, end_ts: T0 + 1 })).status).toBe(404);
    await t.server.ctx.db.insert(deviceAuthz).values({ deviceId: project.devices[a].id, accountId: t.user.accountId });
    expect((await create(t.user.token, { tangram_ids: [project.devices[a].tangramId], start_ts: T0, end_ts: T0 + MINUTE })).status).toBe(
      201,
    );
    // Without the download section: 403 everywhere.
    const ungranted = await buildAccount(t.server, { level: 'user', tenantId: t.vendor.tenantId, fea: ['4'] });
    for (const [method, url] of [
      ['GET', downloadPaths.records],
      ['POST', downloadPaths.records],
      ['GET', downloadPaths.record(job.id)],
      ['GET', downloadPaths.download(job.id)],
      ['POST', downloadPaths.link(job.id)],
      ['POST', downloadPaths.cancel(job.id)],
      ['DELETE', downloadPaths.record(job.id)],
    ] as const) {
      const body =
        url === downloadPaths.records && method === 'POST'
          ? { tangram_ids: [project.devices[a].tangramId], start_ts: T0, end_ts: T0 + 1 }
          : undefined;
      expect((await t.server.api(method, url, { token: ungranted.token, body })).status, url).toBe(403);
      expect((await t.server.api(method, url, { body })).status, url).toBe(401);
    }
    // A link of one job does not open another, and a forged one opens nothing.
    const link = await t.server.api<TDownloadLink>('POST', downloadPaths.link(job.id), { token: t.vendor.token });
    const token = new URL(link.body.url, 'http://x').searchParams.get('token') ?? '';
    expect((await t.server.api('GET', `${downloadPaths.download(job.id + 1)}?token=${token}`)).body).toMatchObject({
      code: 'LINK_INVALID',
    });
    expect((await t.server.api('GET', `${downloadPaths.download(job.id)}?token=${token}x`)).status).toBe(401);
  });

  it('takes over a job whose packager died once its lease lapsed, and fails one interrupted three times', async () => {
    const spec = {
      tangram_ids: [project.devices[a].tangramId],
      keys: ['temperature'],
      start_ts: T0,
      end_ts: T0 + 9 * MINUTE,
      mode: 'raw' as const,
      fn: 'avg' as const,
      bucket_ms: 3_600_000,
      format: 'csv' as const,
    };
    const orphan = (attempts: number) => ({
      tenantId: t.vendor.tenantId,
      accountId: t.vendor.accountId,
      name: `orphan ${attempts}`,
      spec,
      deviceIds: [project.devices[a].id],
      attempts,
      rowsDone: 4,
      nextAttemptAt: Date.now() - 1,
    });
    const [once, thrice] = await t.server.ctx.db
      .insert(downloadJobs)
      .values([orphan(1), orphan(3)])
      .returning();
    t.server.ctx.outbox.nudge('downloads');
    expect(await finished(t.vendor.token, once.id)).toMatchObject({ status: 'packaging completed', rows_total: 10, rows_done: 10 });
    expect(await finished(t.vendor.token, thrice.id)).toMatchObject({ status: 'failed', failure: 'interrupted' });
    const file = await t.server.api<string>('GET', downloadPaths.download(once.id), { token: t.vendor.token });
    expect(parse(file.body, { columns: true })).toHaveLength(10);
  });
});
