/**
 * The download packaging worker (docs/downloads.md "Packaging", "Restarts"): the shared job loop
 * (modules/outbox/outbox-loop.ts) claims due jobs with `FOR UPDATE SKIP LOCKED` and a lease, so any number of
 * replicas share the work and each job is packaged by one at a time. Up to DOWNLOAD_CONCURRENCY jobs run at once per
 * replica. A job whose packager died is taken over when its lease lapses and packaged again from the start; after
 * DOWNLOAD_MAX_ATTEMPTS starts it fails as `interrupted`. A fault worth retrying (database, storage) is retried after
 * a backoff; a reason in the job itself (no data) fails it at once. Stopping the server hands running jobs back
 * (due at once, the attempt not counted). Each pass also removes jobs past their retention with their files.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { DAY_MS, DOWNLOAD_RETENTION_DAYS, type TDownloadFailure } from '@tessera/contracts';
import type { TBlobStore } from '../../core/blob-store.js';
import type { Db } from '../../db/client.js';
import { downloadJobs } from '../../db/schema.js';
import { backoffMs, claimDue, startOutboxLoop, type TOutboxWorker } from '../outbox/outbox-loop.js';
import { DOWNLOAD_LEASE_MS, deleteExpiredJobs, JobFailed, JobLost, packageJob } from './packager.js';
import type pg from 'pg';

/** Jobs packaged at once by one replica. */
export const DOWNLOAD_CONCURRENCY = 2;
/** Starts of one job (first run, takeovers after a crash, retries) before it fails. */
export const DOWNLOAD_MAX_ATTEMPTS = 3;
/** How often expired jobs are looked for, in milliseconds. */
const EXPIRY_SWEEP_MS = 60_000;

/** Starts the packaging worker over `db`, writing files to `blobs`. */
export function startDownloadWorker(opts: { db: Db; log: Logger; blobs: TBlobStore; pool?: pg.Pool }): TOutboxWorker {
  const { db, log, blobs, pool } = opts;
  const running = new Map<number, { abort: AbortController; done: Promise<void> }>();
  let sweptAt = 0;

  async function failJob(id: number, attempts: number, failure: TDownloadFailure, reason: string): Promise<void> {
    const now = Date.now();
    await db
      .update(downloadJobs)
      .set({
        status: 'failed',
        jobState: 'done',
        failure,
        reason: reason.slice(0, 500),
        finishedAt: now,
        expiresAt: now + DOWNLOAD_RETENTION_DAYS * DAY_MS,
      })
      .where(and(eq(downloadJobs.id, id), eq(downloadJobs.attempts, attempts), eq(downloadJobs.status, 'packaging')));
  }

  async function run(id: number, abort: AbortController): Promise<void> {
    // Counting the start before any work: a packager that dies mid-job has used an attempt.
    const [job] = await db
      .update(downloadJobs)
      .set({ attempts: sql`${downloadJobs.attempts} + 1`, nextAttemptAt: Date.now() + DOWNLOAD_LEASE_MS })
      .where(and(eq(downloadJobs.id, id), eq(downloadJobs.status, 'packaging'), eq(downloadJobs.jobState, 'pending')))
      .returning();
    if (!job) return;
    if (job.attempts > DOWNLOAD_MAX_ATTEMPTS) {
      await failJob(job.id, job.attempts, 'interrupted', `packaging was interrupted ${DOWNLOAD_MAX_ATTEMPTS} times`);
      return;
    }
    try {
      await packageJob({ db, blobs, pool }, job, abort.signal);
      log.info({ jobId: job.id }, 'download packaged');
    } catch (err) {
      if (err instanceof JobLost) return;
      if (abort.signal.aborted) {
        // Stopping: hand the job back, due at once, this start not counted.
        await db
          .update(downloadJobs)
          .set({ attempts: job.attempts - 1, nextAttemptAt: Date.now(), rowsDone: 0 })
          .where(and(eq(downloadJobs.id, job.id), eq(downloadJobs.attempts, job.attempts), eq(downloadJobs.status, 'packaging')))
          .catch((e) => log.warn({ err: e, jobId: job.id }, 'could not hand a download job back'));
        return;
      }
      if (err instanceof JobFailed) {
        await failJob(job.id, job.attempts, err.failure, err.message);
        return;
      }
      log.warn({ err, jobId: job.id, attempt: job.attempts }, 'download packaging failed');
      if (job.attempts >= DOWNLOAD_MAX_ATTEMPTS) {
        const storage =
          typeof (err as NodeJS.ErrnoException).code === 'string' && /^E[A-Z]+$/.test((err as NodeJS.ErrnoException).code ?? '');
        await failJob(job.id, job.attempts, storage ? 'storage' : 'internal', String((err as Error).message ?? err));
      } else {
        await db
          .update(downloadJobs)
          .set({ nextAttemptAt: Date.now() + backoffMs(job.attempts), rowsDone: 0 })
          .where(and(eq(downloadJobs.id, job.id), eq(downloadJobs.attempts, job.attempts), eq(downloadJobs.status, 'packaging')));
      }
    }
  }

  async function sweep(): Promise<void> {
    if (Date.now() - sweptAt < EXPIRY_SWEEP_MS) return;
    sweptAt = Date.now();
    for (const key of await deleteExpiredJobs(db)) await blobs.remove(key);
    await blobs.sweepTemporary(DAY_MS);
  }

  const loop = startOutboxLoop({
    log,
    name: 'downloads',
    async pass() {
      await sweep();
      const free = DOWNLOAD_CONCURRENCY - running.size;
      if (free <= 0) return;
      const claimed = await claimDue<{ id: number }>(db, 'download_jobs', 'id', {
        limit: free,
        leaseMs: DOWNLOAD_LEASE_MS,
        stateColumn: 'job_state',
      });
      for (const { id } of claimed) {
        const abort = new AbortController();
        const done = run(id, abort)
          .catch((err) => log.error({ err, jobId: id }, 'download job failed unexpectedly'))
          .finally(() => {
            running.delete(id);
            loop.nudge();
          });
        running.set(id, { abort, done });
      }
    },
  });
  return {
    nudge: () => loop.nudge(),
    async stop() {
      await loop.stop();
      for (const job of running.values()) job.abort.abort();
      await Promise.all([...running.values()].map((j) => j.done));
    },
  };
}
