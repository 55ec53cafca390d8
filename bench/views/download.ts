/**
 * bench/views download: a raw telemetry export of 10 million rows (10 devices × 1,000,000 points) packaged by the
 * download centre — a job made through the real HTTP API and packaged by the server's worker into a CSV in the
 * blob store — beside a plain `COPY (select … the same rows …) TO STDOUT (FORMAT csv)` of the same rows read by the
 * same process, measured in the same run. Figures: rows/s of each, the RSS growth of the server process while
 * packaging (sampled every 100 ms). Targets: ≥ 200,000 rows/s, RSS growth ≤ 100 MB.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx views/download.ts
 *   env: BENCH_DEVICES (10), BENCH_POINTS (1000000 per device)
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downloadPaths, type TDownloadJob } from '@tessera/contracts';
import { downloadJobs } from '@tessera/server';
import { eq } from 'drizzle-orm';
import { to as copyTo } from 'pg-copy-streams';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { startBenchServer } from '../support/bench-server.js';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 10);
const POINTS = Number(process.env.BENCH_POINTS ?? 1_000_000);
const END = Date.UTC(2026, 3, 1);
const PERIOD_MS = 1_000;

async function main(): Promise<void> {
  const blobDir = mkdtempSync(join(tmpdir(), 'tessera-bench-blobs-'));
  const bench = await startBenchServer({ devices: DEVICES, blobDir });
  const { database, server, project, token } = bench;
  const pool = database.pool!;
  try {
    const t0 = performance.now();
    await pool.query(`insert into telemetry_keys (key) values ('current') on conflict (key) do nothing`);
    for (const d of project.devices) {
      await pool.query(
        `insert into telemetry (device_id, key_id, ts, svc_recv_ts, v1, v2)
         select $1, (select id from telemetry_keys where key = 'current'), $2::bigint - i * ${PERIOD_MS}, $2::bigint - i * ${PERIOD_MS} + 40, 20 + sin(i / 3600.0) * 5, i % 7
         from generate_series(0, $3 - 1) as i`,
        [d.id, END, POINTS],
      );
    }
    await pool.query('vacuum analyze telemetry');
    const total = DEVICES * POINTS;
    console.log(`download bench: ${total.toLocaleString('en')} rows stored in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const start = END - (POINTS - 1) * PERIOD_MS;

    // Baseline: PostgreSQL's own COPY of the same rows, in the export's order, as CSV.
    const copyStart = performance.now();
    let copyBytes = 0;
    const client = await pool.connect();
    try {
      const ids = project.devices.map((d) => d.id).join(',');
      const stream = client.query(
        copyTo(`copy (select d.tangram_id, k.key, t.ts, t.svc_recv_ts, t.v1, t.v2, t.v3 from telemetry t join devices d on d.id = t.device_id
          join telemetry_keys k on k.id = t.key_id
          where t.device_id in (${ids}) and k.key = 'current' and t.ts between ${start} and ${END} order by t.device_id, t.key_id, t.ts) to stdout (format csv)`),
      );
      const counter = new Writable({
        write(chunk: Buffer, _encoding, cb) {
          copyBytes += chunk.length;
          cb();
        },
      });
      await pipeline(stream, counter);
    } finally {
      client.release();
    }
    const copyS = (performance.now() - copyStart) / 1000;

    // The download centre: a job through the API, packaged by the server's worker.
    global.gc?.();
    const before = process.memoryUsage();
    const rssBefore = before.rss;
    let rssMax = rssBefore;
    let peak = before;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      if (m.rss > rssMax) {
        rssMax = m.rss;
        peak = m;
      }
    }, 100);
    const jobStart = performance.now();
    const made = await server.app.inject({
      method: 'POST',
      url: downloadPaths.records,
      headers: { authorization: `Bearer ${token}` },
      payload: { name: 'bench', tangram_ids: project.devices.map((d) => d.tangramId), keys: ['current'], start_ts: start, end_ts: END },
    });
    const job = made.json() as TDownloadJob;
    let row = (await database.db.select().from(downloadJobs).where(eq(downloadJobs.id, job.id)))[0];
    while (row.status === 'packaging') {
      await new Promise((r) => setTimeout(r, 100));
      row = (await database.db.select().from(downloadJobs).where(eq(downloadJobs.id, job.id)))[0];
    }
    const jobS = (performance.now() - jobStart) / 1000;
    clearInterval(sampler);
    if (row.status !== 'packaging completed') throw new Error(`the job ended ${row.status}: ${row.reason}`);
    const fileBytes = statSync(join(blobDir, row.blobKey ?? '')).size;

    const mb = (b: number) => (b / 1024 / 1024).toFixed(0);
    console.log(
      `  COPY … TO STDOUT (csv)   ${total.toLocaleString('en')} rows in ${copyS.toFixed(1)} s = ${Math.round(total / copyS).toLocaleString('en')} rows/s (${mb(copyBytes)} MB)`,
    );
    console.log(
      `  download centre job      ${row.rowsDone.toLocaleString('en')} rows in ${jobS.toFixed(1)} s = ${Math.round(row.rowsDone / jobS).toLocaleString('en')} rows/s (${mb(fileBytes)} MB file) — target ≥ 200,000 rows/s`,
    );
    console.log(`  RSS growth while packaging: ${mb(rssMax - rssBefore)} MB (from ${mb(rssBefore)} MB) — target ≤ 100 MB`);
    console.log(
      `    at the peak: V8 heap used ${mb(peak.heapUsed)} MB (from ${mb(before.heapUsed)}), heap total ${mb(peak.heapTotal)} MB (from ${mb(before.heapTotal)}), external ${mb(peak.external)} MB (from ${mb(before.external)})`,
    );
  } finally {
    await bench.stop();
    rmSync(blobDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
