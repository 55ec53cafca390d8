/**
 * The download centre (spec §2 `download`, §4 "Download file states: packaging, packaging completed, failed", §7
 * `/frontstage-dc/v1` timeseries-records list, POST, download, DELETE; docs/downloads.md): a telemetry export is a
 * job packaged in the background into a CSV file (or a zip of one CSV per device), listed with its progress, kept
 * for {@link DOWNLOAD_RETENTION_DAYS} days, downloaded through a short-lived link, cancelled or deleted.
 */
import { z } from 'zod';
import { ZEpochMs } from './input.js';
import { HISTORY_RANGE_MAX_DAYS } from './limits.js';
import { zPage } from './pagination.js';
import { ZTangramId } from './tangram-id.js';
import { AGG_FNS, NICE_BUCKETS_MS, ZTelemetryKey } from './telemetry.js';

/** Prefix of the download-centre calls (spec §7 "Data records"). */
export const DC_API = '/frontstage-dc/v1';

/** Paths of the download centre, relative to the host. */
export const downloadPaths = {
  records: `${DC_API}/timeseries-records`,
  record: (id: number) => `${DC_API}/timeseries-records/${id}`,
  cancel: (id: number) => `${DC_API}/timeseries-records/${id}/cancel`,
  link: (id: number) => `${DC_API}/timeseries-records/${id}/link`,
  download: (id: number) => `${DC_API}/timeseries-records/${id}/download`,
} as const;

/** §4 states. A cancelled job is `failed` with reason code `cancelled` (docs/downloads.md). */
export const DOWNLOAD_STATES = ['packaging', 'packaging completed', 'failed'] as const;
export type TDownloadState = (typeof DOWNLOAD_STATES)[number];

/** Why a job failed: a stable code the console says in its language, beside the server's English detail. */
export const DOWNLOAD_FAILURES = ['no_data', 'cancelled', 'interrupted', 'device_gone', 'storage', 'internal'] as const;
export type TDownloadFailure = (typeof DOWNLOAD_FAILURES)[number];

/** At most this many devices in one export (the analytics comparison allows 5; an export is a bulk tool). */
export const DOWNLOAD_MAX_DEVICES = 20;
/** At most this many keys in one export. */
export const DOWNLOAD_MAX_KEYS = 32;
/** A packaged file is kept this many days after it was completed, then removed with its record. */
export const DOWNLOAD_RETENTION_DAYS = 7;
/** A download link is valid this many seconds. */
export const DOWNLOAD_LINK_TTL_S = 60;
/** Bucket sizes an aggregated export may use: the history chart's sizes from one minute up (rollup-backed). */
export const DOWNLOAD_BUCKETS_MS = NICE_BUCKETS_MS.filter((b) => b >= 60_000);

/** The CSV columns of a raw export, in order (a device column first: one file may hold several devices). */
export const EXPORT_RAW_COLUMNS = ['tangram_id', 'key', 'ts', 'ts_ms', 'svc_recv_ts', 'v1', 'v2', 'v3', 'value'] as const;
/** The CSV columns of an aggregated export, in order: bucket start (ISO, epoch ms), its width, the function, and the aggregate of each value slot. */
export const EXPORT_BUCKET_COLUMNS = ['tangram_id', 'key', 'bucket', 'bucket_ts', 'bucket_ms', 'fn', 'v1', 'v2', 'v3'] as const;

/** POST timeseries-records: what to export. `keys` empty or absent: every key each device has reported. */
export const ZDownloadJobCreate = z
  .object({
    name: z.string().trim().max(64).optional(),
    tangram_ids: z.array(ZTangramId).min(1).max(DOWNLOAD_MAX_DEVICES),
    keys: z.array(ZTelemetryKey).max(DOWNLOAD_MAX_KEYS).default([]),
    start_ts: ZEpochMs,
    end_ts: ZEpochMs,
    /** `raw`: every stored point; `bucketed`: one row per bucket of `bucket_ms` with `fn` of each value slot. */
    mode: z.enum(['raw', 'bucketed']).default('raw'),
    fn: z.enum(AGG_FNS).default('avg'),
    bucket_ms: z
      .number()
      .int()
      .refine((b) => (DOWNLOAD_BUCKETS_MS as readonly number[]).includes(b), 'not one of the bucket sizes')
      .default(3_600_000),
    /** `csv`: one file; `zip`: one CSV per device in a zip. */
    format: z.enum(['csv', 'zip']).default('csv'),
  })
  .refine((j) => j.start_ts < j.end_ts, { message: 'start_ts must be before end_ts', path: ['end_ts'] })
  .refine((j) => j.end_ts - j.start_ts <= HISTORY_RANGE_MAX_DAYS * 86_400_000, {
    message: `the range is longer than ${HISTORY_RANGE_MAX_DAYS} days`,
    path: ['end_ts'],
  });
export type TDownloadJobCreate = z.input<typeof ZDownloadJobCreate>;
export type TDownloadJobSpec = z.output<typeof ZDownloadJobCreate>;

/** A download job as the console lists it. */
export const ZDownloadJob = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(DOWNLOAD_STATES),
  tangram_ids: z.array(z.string()),
  keys: z.array(z.string()),
  start_ts: z.number().int(),
  end_ts: z.number().int(),
  mode: z.enum(['raw', 'bucketed']),
  fn: z.enum(AGG_FNS),
  bucket_ms: z.number().int(),
  format: z.enum(['csv', 'zip']),
  /** Rows to write (known once packaging has counted them) and rows written so far. */
  rows_total: z.number().int().nullable(),
  rows_done: z.number().int(),
  /** Size of the packaged file in bytes (when completed). */
  file_bytes: z.number().int().nullable(),
  file_name: z.string().nullable(),
  failure: z.enum(DOWNLOAD_FAILURES).nullable(),
  reason: z.string().nullable(),
  created_at: z.number().int(),
  finished_at: z.number().int().nullable(),
  /** When the file and the record are removed (completed and failed jobs). */
  expires_at: z.number().int().nullable(),
});
export type TDownloadJob = z.infer<typeof ZDownloadJob>;

export const ZDownloadJobPage = zPage(ZDownloadJob);
export type TDownloadJobPage = z.infer<typeof ZDownloadJobPage>;

/** POST timeseries-records/{id}/link: a URL that downloads the file without the bearer header, for a minute. */
export const ZDownloadLink = z.object({ url: z.string(), expires_at: z.number().int() });
export type TDownloadLink = z.infer<typeof ZDownloadLink>;

/** ?token= of the link download. */
export const ZDownloadLinkQuery = z.object({ token: z.string().max(2048).optional() });
