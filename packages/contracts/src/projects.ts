/** Projects (spec §3 "Project", §7 `/frontstage/v1/projects`). */
import { z } from 'zod';
import { ZId } from './input.js';
import { DESCRIPTION_MAX, NAME_MAX } from './limits.js';
import { zPage } from './pagination.js';
import { ZStatusGroups } from './status-word.js';

/** How users of a project ask for its devices (spec §3; docs/decisions/authorisation.md "Proofs"). */
export const DEVICE_AUTHZ_METHODS = ['all', 'ble', 'qrcode'] as const;
/** One of {@link DEVICE_AUTHZ_METHODS}. */
export type TDeviceAuthzMethod = (typeof DEVICE_AUTHZ_METHODS)[number];
export const RULE_TYPES = ['level', 'edge'] as const;

/** POST projects: a product plus a hardware module (tangram product). */
export const ZProjectCreate = z.object({
  name: z.string().trim().min(1).max(NAME_MAX),
  description: z.string().trim().max(DESCRIPTION_MAX).optional(),
  product_id: ZId,
  tangram_product_id: ZId,
  device_authz_method: z.enum(DEVICE_AUTHZ_METHODS).default('all'),
});
export type TProjectCreate = z.infer<typeof ZProjectCreate>;

/** PUT projects/{id}. */
export const ZProjectUpdate = z.object({
  name: z.string().trim().min(1).max(NAME_MAX).optional(),
  description: z.string().trim().max(DESCRIPTION_MAX).optional(),
  device_authz_method: z.enum(DEVICE_AUTHZ_METHODS).optional(),
  status_groups: ZStatusGroups.optional(),
});
export type TProjectUpdate = z.infer<typeof ZProjectUpdate>;

/** POST projects/copy. */
export const ZProjectCopy = z.object({ id: ZId, name: z.string().trim().min(1).max(NAME_MAX) });
export type TProjectCopy = z.infer<typeof ZProjectCopy>;

/**
 * Level trigger: while a rule's condition holds, its notifications (and commands) repeat at most once per this many
 * seconds — the project's re-notify interval (docs/rules.md "Level and edge"). Default 10 min, 1 min to 1 day.
 */
export const RULE_RENOTIFY_DEFAULT_S = 600;
export const RULE_RENOTIFY_MIN_S = 60;
export const RULE_RENOTIFY_MAX_S = 86_400;

/**
 * PUT projects/{id}/ruleType (§4 "level trigger or edge trigger"); `renotify_interval_s` (optional, whole seconds,
 * {@link RULE_RENOTIFY_MIN_S}..{@link RULE_RENOTIFY_MAX_S}) sets the level-trigger re-notify interval, left as it is
 * when absent.
 */
export const ZRuleTypeUpdate = z.object({
  rule_type: z.enum(RULE_TYPES),
  renotify_interval_s: z.number().int().min(RULE_RENOTIFY_MIN_S).max(RULE_RENOTIFY_MAX_S).optional(),
});
export type TRuleTypeUpdate = z.infer<typeof ZRuleTypeUpdate>;

/** A project as presented (§3 fields). */
export const ZProject = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  device_authz_method: z.enum(DEVICE_AUTHZ_METHODS),
  product_id: z.number().int(),
  product_name: z.string(),
  tangram: z.object({ product: z.string(), CoreProductId: z.number().int() }),
  mqtt_src: z.string(),
  rule_type: z.enum(RULE_TYPES),
  /** Level trigger: notifications repeat at most once per this many seconds while a condition holds. */
  renotify_interval_s: z.number().int(),
  status_groups: ZStatusGroups,
  device_count: z.number().int(),
  created_at: z.number(),
});
export type TProject = z.infer<typeof ZProject>;

/** GET projects: a page of projects. */
export const ZProjectList = zPage(ZProject);
