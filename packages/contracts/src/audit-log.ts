/**
 * The audit log (docs/decisions/audit-log.md): who changed what, when and from where. Entries are written by the
 * server for every change a person or an API key makes, every login (success and failure) and every admin act-as;
 * vendors read their tenant's log, the platform admin every tenant's (`GET /frontstage/v1/audit-log`, its CSV).
 */
import { z } from 'zod';
import { ZEpochMsText, ZIdText } from './input.js';
import { ZListQuery, zPage } from './pagination.js';

/** What a secret's value is replaced by in an entry (password hashes, device secrets, tokens, API keys). */
export const AUDIT_MASK = '[masked]';

/** Days an entry is kept when AUDIT_RETENTION_DAYS is not set. */
export const AUDIT_RETENTION_DEFAULT_DAYS = 365;

/** The entity types entries name (the console labels each; others may appear and are shown as they are). */
export const AUDIT_ENTITY_TYPES = [
  'account',
  'session',
  'api_key',
  'product',
  'product_class',
  'project',
  'project_sensors',
  'sensor',
  'sensor_display',
  'simple_rule',
  'blockly_program',
  'blockly_setting',
  'notification_emails',
  'notification_subscription',
  'custom_page',
  'device',
  'device_user_rule',
  'role',
  'authz_request',
  'machine_configure',
  'machine',
  'platform_rule',
  'platform_engine_config',
  'platform_telemetry',
  'line_official_account',
  'line_group',
  'ai_model',
  'model_rollout',
  'download',
  'alert',
] as const;
export type TAuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];

/** The actions entries record. */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'login',
  'login_failed',
  'act_as',
  'password_change',
  'password_reset',
  'rotate_secret',
  'copy',
  'apply',
  'start',
  'stop',
  'run',
  'sync',
  'command',
  'clean_data',
  'revoke',
  'decide',
  'acknowledge',
  'resolve',
] as const;
export type TAuditAction = (typeof AUDIT_ACTIONS)[number];

/** One changed field: its value before and after (null when absent; AUDIT_MASK for a secret). */
export const ZAuditChange = z.object({ before: z.unknown(), after: z.unknown() });
export type TAuditChange = z.infer<typeof ZAuditChange>;

/** The changed fields of an entry by field name (database column names, or request field names). */
export const ZAuditChanges = z.record(z.string(), ZAuditChange);
export type TAuditChanges = z.infer<typeof ZAuditChanges>;

/** An account named in an entry, with its e-mail at the time. */
export const ZAuditAccount = z.object({ account_id: z.number().int().nullable(), email: z.string().nullable() });

/** One audit entry as the API answers it. `at` is epoch ms. */
export const ZAuditEntry = z.object({
  id: z.number().int(),
  at: z.number().int(),
  tenant_id: z.number().int().nullable(),
  actor: ZAuditAccount.extend({ via: z.enum(['jwt', 'api_key']).nullable() }),
  /** The platform admin behind an act-as session; null otherwise. */
  acting_admin: ZAuditAccount.nullable(),
  ip: z.string().nullable(),
  entity_type: z.string(),
  entity_id: z.string().nullable(),
  action: z.string(),
  changes: ZAuditChanges,
  route: z.string().nullable(),
  request_id: z.string().nullable(),
});
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

/**
 * `GET audit-log` and its CSV: `from`/`to` epoch ms (inclusive), `actor` a substring of the actor's or acting admin's
 * e-mail, `entity_type`, `action`, `q` a substring of the entity id, actor, route or changed values; `tenant_id` only
 * for the platform admin (a vendor naming another tenant is refused).
 */
export const ZAuditQuery = ZListQuery.extend({
  from: ZEpochMsText.optional(),
  to: ZEpochMsText.optional(),
  actor: z.string().trim().max(254).optional(),
  entity_type: z.string().trim().max(64).optional(),
  action: z.string().trim().max(64).optional(),
  tenant_id: ZIdText.optional(),
});
export type TAuditQuery = z.infer<typeof ZAuditQuery>;

/** A page of entries, newest first. */
export const ZAuditPage = zPage(ZAuditEntry);
export type TAuditPage = z.infer<typeof ZAuditPage>;

/** The CSV's columns, in order (`changes` is the entry's JSON). */
export const AUDIT_CSV_COLUMNS = [
  'id',
  'time',
  'at_ms',
  'tenant_id',
  'actor_account_id',
  'actor_email',
  'actor_via',
  'acting_admin_id',
  'acting_admin_email',
  'ip',
  'entity_type',
  'entity_id',
  'action',
  'changes',
  'route',
  'request_id',
] as const;
