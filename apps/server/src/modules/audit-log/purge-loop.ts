/**
 * Runs the audit purge (purge.ts) at start and then hourly, one run at a time; a failed run is logged and the next one
 * tries again. Every replica runs the loop; the purge itself makes sure one of them deletes, once a day.
 */
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import { purgeAuditLog } from './purge.js';

/** How often a replica checks whether a day's entries are due for deletion. */
export const AUDIT_PURGE_INTERVAL_MS = 3_600_000;

/**
 * Starts the loop.
 * @returns stop(), which resolves once the run under way (if any) has ended.
 */
export function startAuditPurge(db: Db, retentionDays: number, log: Logger, intervalMs = AUDIT_PURGE_INTERVAL_MS): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = purgeAuditLog(db, retentionDays)
      .then((run) => {
        if (!run.skipped && run.deleted > 0) log.info({ run }, 'audit log purged');
      })
      .catch((err: unknown) => log.warn({ err }, 'audit purge failed; the next run tries again'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  tick();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
