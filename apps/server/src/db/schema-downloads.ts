/**
 * The download centre's jobs (docs/downloads.md): one row per telemetry export, claimed by the job loop of
 * modules/outbox/outbox-loop.ts like an outbox row (`FOR UPDATE SKIP LOCKED`, a lease on `next_attempt_at`).
 * Part of the one Drizzle schema (schema.ts re-exports every schema file); times are epoch ms in `bigint` columns.
 */
import { index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { DOWNLOAD_STATES, type TDownloadFailure, type TDownloadJobSpec } from '@tessera/contracts';
import { createdAt, epochMs } from './columns.js';
import { accounts, tenants } from './schema-accounts.js';

/**
 * An export job. `status` is §4's state; `job_state` is the loop's: `pending` while it waits for (or holds) a
 * packager, `done` after. The file is the blob `blob_key` while the row lives; `expires_at` removes both.
 */
export const downloadJobs = pgTable(
  'download_jobs',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    spec: jsonb('spec').$type<TDownloadJobSpec>().notNull(),
    /** The devices' ids in the order of `spec.tangram_ids`, resolved (and access-checked) when the job was made. */
    deviceIds: jsonb('device_ids').$type<number[]>().notNull(),
    status: text('status', { enum: DOWNLOAD_STATES }).notNull().default('packaging'),
    /** The job loop's state: `pending` (claimable when `next_attempt_at` is due) or `done`. */
    jobState: text('job_state', { enum: ['pending', 'done'] })
      .notNull()
      .default('pending'),
    nextAttemptAt: epochMs('next_attempt_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    rowsTotal: epochMs('rows_total'),
    rowsDone: epochMs('rows_done').notNull().default(0),
    blobKey: text('blob_key'),
    fileName: text('file_name'),
    fileBytes: epochMs('file_bytes'),
    failure: text('failure').$type<TDownloadFailure>(),
    reason: text('reason'),
    createdAt: createdAt(),
    finishedAt: epochMs('finished_at'),
    expiresAt: epochMs('expires_at'),
  },
  (t) => [
    index('download_jobs_account_idx').on(t.accountId, t.id),
    index('download_jobs_due_idx').on(t.jobState, t.nextAttemptAt),
    index('download_jobs_expiry_idx').on(t.expiresAt),
  ],
);
