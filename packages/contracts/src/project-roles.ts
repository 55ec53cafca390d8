/**
 * Project roles (spec §6 "project roles (component makers) … a role in use cannot be deleted"; §5 "At least one
 * permission and one device for a role"; §7 User API "project-role POST, PUT, DELETE {id}, GET project/{id}").
 * A role names a set of permissions over some devices of one project and the tenant's user accounts holding it.
 * Decisions (bounds, in-use rule, how members see devices): docs/decisions/project-roles.md.
 */
import { z } from 'zod';
import { ZId } from './input.js';
import { API } from './api-paths.js';
import { ZEmail } from './auth.js';
import { NAME_MAX } from './limits.js';
import { zPage } from './pagination.js';

/** Paths of the project-role endpoints (server routes, console and tests). */
export const projectRolePaths = rolePathsOf('project-role');

/** Paths of the device-role endpoints: the same shape as the project-role ones (§7 "project-role same"). */
export const deviceRolePaths = rolePathsOf('device-role');

/** Paths of the machine-role endpoints (§7 "machine … role CRUD"): the tenant's machine roles, no project. */
export const machineRolePaths = {
  roles: `${API.user}/machine-role`,
  role: (id: number) => `${API.user}/machine-role/${id}`,
} as const;

/** The paths of a project-scoped role kind: POST `roles`, PUT/DELETE `role(id)`, GET `ofProject(projectId)`. */
function rolePathsOf(segment: 'project-role' | 'device-role') {
  return {
    roles: `${API.user}/${segment}`,
    role: (id: number) => `${API.user}/${segment}/${id}`,
    ofProject: (projectId: number) => `${API.user}/${segment}/project/${projectId}`,
  } as const;
}

/**
 * What a role lets its members do with its devices (spec: "Permission details: not shown"; Tessera's fixed list, the
 * same for every kind of role). Every role makes its devices visible to its members; these say what else they may do
 * there. `manage_access` makes the members managers of those devices (spec §6 "manager versus all visibility"): they
 * see and answer the authorisation requests for them and see who holds them (docs/decisions/roles.md).
 */
export const PROJECT_ROLE_PERMISSIONS = [
  'view_telemetry',
  'view_history',
  'control_device',
  'download_data',
  'receive_alerts',
  'manage_access',
] as const;
/** One of {@link PROJECT_ROLE_PERMISSIONS}. */
export type TProjectRolePermission = (typeof PROJECT_ROLE_PERMISSIONS)[number];

/**
 * The kinds of role (spec §6 "Device roles (regular users), project roles (component makers) and machine roles"), one
 * model: `project` and `device` roles hold devices of one project (for component makers and for regular users);
 * `machine` roles hold machines, and through them every device bound to the machines' components.
 */
export const ROLE_KINDS = ['project', 'device', 'machine'] as const;
/** One of {@link ROLE_KINDS}. */
export type TRoleKind = (typeof ROLE_KINDS)[number];

/** At most this many machines in one machine role. */
export const MACHINE_ROLE_MACHINES_MAX = 500;

/** A role name is an entity name (docs/decisions/console.md): 1–32 characters after trimming. */
export const PROJECT_ROLE_NAME_MAX = NAME_MAX;
/** At most this many devices in one role (the bulk-registration batch size: a role may cover a whole batch). */
export const PROJECT_ROLE_DEVICES_MAX = 1_000;
/** At most this many members in one role. */
export const PROJECT_ROLE_MEMBERS_MAX = 200;

/** Adds an issue with `message` at the index of every repeat in `items` (compared by `key`); the first stays valid. */
function refineUnique<T>(items: T[], ctx: z.RefinementCtx, key: (item: T) => unknown, message: string): void {
  const seen = new Set<unknown>();
  items.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) ctx.addIssue({ code: 'custom', path: [i], message });
    seen.add(k);
  });
}

/** The editable part of a role: name, permissions (≥ 1, unique), devices (≥ 1, unique ids), members (emails, unique). */
export const ZProjectRoleInput = z.object({
  name: z.string().trim().min(1).max(PROJECT_ROLE_NAME_MAX),
  permissions: z
    .array(z.enum(PROJECT_ROLE_PERMISSIONS))
    .min(1)
    .superRefine((p, ctx) => refineUnique(p, ctx, (x) => x, 'duplicate permission')),
  device_ids: z
    .array(ZId)
    .min(1)
    .max(PROJECT_ROLE_DEVICES_MAX)
    .superRefine((ids, ctx) => refineUnique(ids, ctx, (x) => x, 'duplicate device')),
  member_emails: z
    .array(ZEmail)
    .max(PROJECT_ROLE_MEMBERS_MAX)
    .superRefine((emails, ctx) => refineUnique(emails, ctx, (x) => x, 'duplicate email')),
});
export type TProjectRoleInput = z.infer<typeof ZProjectRoleInput>;

/** POST project-role: a role of project `project_id`. */
export const ZProjectRoleCreate = ZProjectRoleInput.extend({ project_id: ZId });
export type TProjectRoleCreate = z.infer<typeof ZProjectRoleCreate>;

/**
 * POST machine-role and PUT machine-role/{id}: a machine role holds machines (≥ 1, unique ids) of the tenant instead of
 * devices; its members see every device bound to them.
 */
export const ZMachineRoleInput = ZProjectRoleInput.omit({ device_ids: true }).extend({
  machine_ids: z
    .array(ZId)
    .min(1)
    .max(MACHINE_ROLE_MACHINES_MAX)
    .superRefine((ids, ctx) => refineUnique(ids, ctx, (x) => x, 'duplicate machine')),
});
export type TMachineRoleInput = z.infer<typeof ZMachineRoleInput>;

/** PUT project-role/{id}: replaces name, permissions, devices and members (a role never changes project). */
export const ZProjectRoleUpdate = ZProjectRoleInput;
export type TProjectRoleUpdate = z.infer<typeof ZProjectRoleUpdate>;

/** A device of a role as presented (enough to label it in a list). */
export const ZProjectRoleDevice = z.object({ id: z.number().int(), tangram_id: z.string(), name: z.string() });

/** A machine of a machine role as presented. */
export const ZRoleMachine = z.object({ id: z.number().int(), name: z.string() });

/**
 * A role of any kind as presented. `project_id` is null and `devices` empty for a machine role, `machines` empty for
 * the others. `in_use` = it has members, so DELETE answers 409 IN_USE.
 */
export const ZProjectRole = z.object({
  id: z.number().int(),
  kind: z.enum(ROLE_KINDS),
  project_id: z.number().int().nullable(),
  name: z.string(),
  permissions: z.array(z.enum(PROJECT_ROLE_PERMISSIONS)),
  devices: z.array(ZProjectRoleDevice),
  machines: z.array(ZRoleMachine),
  member_emails: z.array(z.string()),
  in_use: z.boolean(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type TProjectRole = z.infer<typeof ZProjectRole>;

/** GET project-role/project/{id}: a page of the project's roles, by name; `q` matches the name. */
export const ZProjectRoleList = zPage(ZProjectRole);
export type TProjectRoleList = z.infer<typeof ZProjectRoleList>;
