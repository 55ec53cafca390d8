/**
 * Database-side metrics, read at scrape time: the pg pools (main and ingest writers'), the outbox backlog and given-up
 * rows per channel, download jobs by state. The table counts are one query, bounded by {@link DB_READ_DEADLINE_MS}:
 * a scrape while the database is down answers every other metric and leaves these out.
 */
import { DOWNLOAD_STATES } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import type { Registry } from 'prom-client';
import { rowsOf, type Db } from '../../db/client.js';
import { collectedGauge, type TSample } from './collected.js';
import type { TMetricSources } from './sources.js';

/** How long a scrape waits for the outbox and download counts, in milliseconds (Prometheus' scrape timeout is 10 s). */
export const DB_READ_DEADLINE_MS = 2_000;

/** The outbox tables by channel (modules/outbox: one loop per table). */
const OUTBOX_TABLES = { mail: 'outbox_emails', line: 'line_outbox', web_push: 'web_push_outbox' } as const;

type TTableCounts = { outbox: { channel: string; pending: number; failed: number }[]; downloads: Map<string, number> };

async function readTableCounts(db: Db): Promise<TTableCounts> {
  const outboxQueries = Object.entries(OUTBOX_TABLES).map(
    ([channel, table]) =>
      sql`select ${channel} as channel, count(*) filter (where status = 'pending') as pending,
        count(*) filter (where status = 'failed') as failed from ${sql.identifier(table)}`,
  );
  const outbox = rowsOf<{ channel: string; pending: string | number; failed: string | number }>(
    await db.execute(sql.join(outboxQueries, sql` union all `)),
  ).map((r) => ({ channel: r.channel, pending: Number(r.pending), failed: Number(r.failed) }));
  const jobs = rowsOf<{ status: string; n: string | number }>(
    await db.execute(sql`select status, count(*) as n from download_jobs group by status`),
  );
  const downloads = new Map<string, number>(DOWNLOAD_STATES.map((s) => [s, 0]));
  for (const j of jobs) downloads.set(j.status, Number(j.n));
  return { outbox, downloads };
}

/** Declares the pool, outbox and download-job metrics on `registry`. */
export function registerDatabaseMetrics(registry: Registry, sources: TMetricSources): void {
  // One read serves the three table gauges of a scrape: the first asks, the others share its answer.
  let reading: Promise<TTableCounts | null> | null = null;
  const counts = (): Promise<TTableCounts | null> => {
    reading ??= withDeadline(readTableCounts(sources.db)).finally(() => {
      setImmediate(() => {
        reading = null;
      });
    });
    return reading;
  };
  const poolGauge = (name: string, help: string, value: (p: ReturnType<TMetricSources['pools']>[number]) => number) =>
    collectedGauge({
      registry,
      name,
      help,
      labelNames: ['pool'],
      read: () => sources.pools().map((p) => [{ pool: p.pool }, value(p)] as const),
    });
  poolGauge(
    'tessera_db_pool_in_use',
    'PostgreSQL connections of the pool checked out now (main: API and workers; ingest: batch writers).',
    (p) => p.total - p.idle,
  );
  poolGauge('tessera_db_pool_idle', 'PostgreSQL connections of the pool open and idle.', (p) => p.idle);
  poolGauge('tessera_db_pool_waiting', 'Queries waiting for a connection of the pool.', (p) => p.waiting);
  collectedGauge({
    registry,
    name: 'tessera_outbox_pending',
    help: 'Outbox rows waiting to be sent (or retried), by channel.',
    labelNames: ['channel'],
    read: async () => (await counts())?.outbox.map((o): TSample<'channel'> => [{ channel: o.channel }, o.pending]) ?? [],
  });
  collectedGauge({
    registry,
    name: 'tessera_outbox_failed',
    help: 'Outbox rows given up after their last attempt, by channel.',
    labelNames: ['channel'],
    read: async () => (await counts())?.outbox.map((o): TSample<'channel'> => [{ channel: o.channel }, o.failed]) ?? [],
  });
  collectedGauge({
    registry,
    name: 'tessera_download_jobs',
    help: 'Download-centre jobs, by state.',
    labelNames: ['state'],
    read: async () => [...((await counts())?.downloads ?? [])].map(([state, n]): TSample<'state'> => [{ state }, n]),
  });
}

/** `work`'s answer, or null when it fails or takes longer than DB_READ_DEADLINE_MS. */
async function withDeadline<T>(work: Promise<T>): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), DB_READ_DEADLINE_MS);
  });
  try {
    return await Promise.race([work.catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}
