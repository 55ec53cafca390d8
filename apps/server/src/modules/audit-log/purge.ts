/**
 * The audit log's retention purge (docs/decisions/audit-log.md "Retention"): entries are kept AUDIT_RETENTION_DAYS
 * whole UTC days after the day they were written, then deleted a whole day at a time. Once across replicas: the purge
 * runs in one transaction holding an advisory lock, and remembers in `settings` the cutoff it reached, so a replica
 * that comes later the same day finds nothing to do. The transaction names its cutoff in `tessera.audit_purge_before`,
 * the one thing the append-only trigger lets a DELETE through for, and only for rows older than it.
 */
import { DAY_MS } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';

/** The advisory lock id of the purge. */
export const AUDIT_PURGE_LOCK_ID = 727_031;

/** The `settings` key holding the cutoff (epoch ms) the last purge reached. */
export const AUDIT_PURGED_BEFORE_KEY = 'audit_purged_before';

/** What one purge did: `skipped` when another replica held the lock or this day's purge was already done. */
export type TAuditPurge = { skipped: true } | { skipped: false; cutoffMs: number; deleted: number };

/** The first instant kept at `nowMs`: midnight UTC `retentionDays` days before today's. */
export function auditCutoff(nowMs: number, retentionDays: number): number {
  return Math.floor(nowMs / DAY_MS) * DAY_MS - retentionDays * DAY_MS;
}

/**
 * Deletes the entries written before auditCutoff(nowMs, retentionDays), every tenant alike.
 * @throws the database error when the purge fails (nothing is deleted; the next run tries again).
 */
export async function purgeAuditLog(db: Db, retentionDays: number, nowMs = Date.now()): Promise<TAuditPurge> {
  const cutoffMs = auditCutoff(nowMs, retentionDays);
  return db.transaction(async (tx) => {
    const [lock] = rowsOf<{ ok: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${AUDIT_PURGE_LOCK_ID}) as ok`));
    if (!lock.ok) return { skipped: true } as const;
    const [done] = rowsOf<{ value: string }>(await tx.execute(sql`select value from settings where key = ${AUDIT_PURGED_BEFORE_KEY}`));
    if (done && Number(done.value) >= cutoffMs) return { skipped: true } as const;
    await tx.execute(sql`select set_config('tessera.audit_purge_before', ${String(cutoffMs)}, true)`);
    const [gone] = rowsOf<{ n: number }>(
      await tx.execute(sql`with gone as (delete from audit_log where at < ${cutoffMs} returning 1) select count(*)::int as n from gone`),
    );
    await tx.execute(sql`insert into settings (key, value) values (${AUDIT_PURGED_BEFORE_KEY}, ${String(cutoffMs)})
      on conflict (key) do update set value = excluded.value`);
    return { skipped: false, cutoffMs, deleted: gone.n };
  });
}
