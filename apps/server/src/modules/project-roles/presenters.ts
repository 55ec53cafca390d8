/** The response shape of a role of any kind (ZProjectRole); never a database row. */
import type { TProjectRole } from '@tessera/contracts';
import type { projectRoles } from '../../db/schema.js';

/** A role row with its devices, machines and member emails, as read by role-queries.ts. */
export interface TProjectRoleView {
  role: typeof projectRoles.$inferSelect;
  devices: { id: number; tangramId: string; name: string }[];
  machines: { id: number; name: string }[];
  memberEmails: string[];
}

/** Presents a role: devices and machines by id, members by email; `in_use` when it has members. */
export function presentProjectRole(view: TProjectRoleView): TProjectRole {
  const { role } = view;
  return {
    id: role.id,
    kind: role.kind,
    project_id: role.projectId,
    name: role.name,
    permissions: role.permissions,
    devices: [...view.devices].sort((a, b) => a.id - b.id).map((d) => ({ id: d.id, tangram_id: d.tangramId, name: d.name })),
    machines: [...view.machines].sort((a, b) => a.id - b.id).map((m) => ({ id: m.id, name: m.name })),
    member_emails: [...view.memberEmails].sort(),
    in_use: view.memberEmails.length > 0,
    created_at: role.createdAt,
    updated_at: role.updatedAt,
  };
}
