/**
 * The audit log's settings (docs/decisions/audit-log.md "Retention"): how long entries are kept, and the switch the
 * benchmark uses to measure the log's cost. Part of the environment parsed by config.ts.
 */
import { AUDIT_RETENTION_DEFAULT_DAYS } from '@tessera/contracts';
import { z } from 'zod';

/** The longest retention accepted, in days (ten years and a bit). */
export const AUDIT_RETENTION_MAX_DAYS = 3_700;

/** The variables, merged into config.ts's environment schema. */
export const ZAuditEnv = {
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(AUDIT_RETENTION_MAX_DAYS).default(AUDIT_RETENTION_DEFAULT_DAYS),
  AUDIT_LOG: z
    .enum(['0', '1', 'true', 'false'])
    .transform((v) => v === '1' || v === 'true')
    .default(true),
};

type TAuditEnv = { [K in keyof typeof ZAuditEnv]: z.output<(typeof ZAuditEnv)[K]> };

/** The audit settings of TConfig. */
export interface TAuditConfig {
  /** AUDIT_RETENTION_DAYS (default 365): whole UTC days an entry is kept after the day it was written, every tenant alike. */
  auditRetentionDays: number;
  /** AUDIT_LOG (default on): record changes. Off only to measure what recording costs (bench/http); never in service. */
  auditLog: boolean;
}

/** The audit settings from the parsed environment. */
export function auditConfigOf(e: TAuditEnv): TAuditConfig {
  return { auditRetentionDays: e.AUDIT_RETENTION_DAYS, auditLog: e.AUDIT_LOG };
}
