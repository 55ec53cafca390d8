/**
 * The outbox workers through a database outage: the mail, LINE and Web Push workers, each on the shared outbox loop,
 * run against a database that fails every query — PostgreSQL behind a proxy of the test's own that drops every
 * connection and refuses new ones (test/pg-proxy.ts), or a PGlite that was closed — and log one error line per
 * window each instead of one per pass (every 500 ms); on PostgreSQL the database comes back and each says so once.
 */
import pino from 'pino';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { runMigrations } from '../../db/migrate.js';
import { openScratchPostgres, openTestDatabase, TEST_DB_KIND, testConfig } from '../../../test/helpers.js';
import { startPgProxy, type TPgProxy } from '../../../test/pg-proxy.js';
import { until } from '../../../test/until.js';
import { createLineRuntime } from '../line/runtime.js';
import { startLinePushWorker } from '../line/push-worker.js';
import { startOutboxWorker } from '../mail/outbox-worker.js';
import { startWebPushWorker } from '../web-push/worker.js';
import { OUTBOX, type TOutboxWorker } from './outbox-loop.js';

type TLine = { level: number; msg: string; outbox?: string; failedPasses?: number; suppressed?: number };
const ERROR_LEVEL = 50;
const NAMES = ['mail', 'line', 'web push'];

describe(`outbox workers during a database outage (${TEST_DB_KIND})`, () => {
  let proxy: TPgProxy | undefined;
  let database: Database;
  const lines: TLine[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as TLine) });
  const workers: TOutboxWorker[] = [];

  beforeAll(async () => {
    if (TEST_DB_KIND === 'postgres') {
      const admin = new URL(process.env.DATABASE_URL ?? '');
      proxy = await startPgProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
      const via = proxy;
      database = await openScratchPostgres(admin.toString(), 3, 'tessera_outbox', {
        via: (url) => via.urlFor(url),
        timeouts: { connectMs: 1_000 },
      });
      await runMigrations(database);
    } else {
      database = await openTestDatabase();
    }
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await database.close().catch(() => undefined);
    await proxy?.close();
  });

  it('logs one error line per worker per window while every pass fails, and one line when passes succeed again', async () => {
    const db = database.db;
    const config = testConfig();
    workers.push(startOutboxWorker({ db, log, smtpUrl: 'smtp://127.0.0.1:9', from: config.mailFrom }));
    workers.push(startLinePushWorker(await createLineRuntime({ db, log, config })));
    workers.push(startWebPushWorker({ db, log, vapid: { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@example.com' } }));
    await new Promise((r) => setTimeout(r, OUTBOX.pollMs * 2));
    expect(lines.filter((l) => l.level >= ERROR_LEVEL)).toEqual([]);

    if (proxy) {
      proxy.refuse(true);
      proxy.dropAll();
    } else {
      await database.pglite?.close();
    }
    // Seven polls of each worker, every one failing.
    await new Promise((r) => setTimeout(r, OUTBOX.pollMs * 7));
    const failed = lines.filter((l) => l.msg === 'outbox pass failed');
    expect(failed.map((l) => l.outbox).sort()).toEqual([...NAMES].sort());
    for (const line of failed) expect(line).toMatchObject({ level: ERROR_LEVEL, failedPasses: 1, suppressed: 0 });
    expect(lines.filter((l) => l.level >= ERROR_LEVEL)).toHaveLength(NAMES.length);

    if (!proxy) return;
    proxy.refuse(false);
    const back = await until(async () => {
      const found = lines.filter((l) => l.msg === 'outbox passes succeed again');
      return found.length === NAMES.length ? found : undefined;
    });
    for (const line of back) expect(line.failedPasses).toBeGreaterThanOrEqual(5);
  });
});
