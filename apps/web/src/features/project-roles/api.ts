/**
 * Role calls (spec §7 User API `project-role`, `device-role`, machine role) as TanStack Query hooks: one set of hooks
 * for the three kinds, the paths chosen by kind.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  deviceRolePaths,
  machineRolePaths,
  projectRolePaths,
  type TListQuery,
  type TMachineRoleInput,
  type TProjectRole,
  type TProjectRoleInput,
  type TProjectRoleList,
  type TRoleKind,
} from '@tessera/contracts';
import { http } from '../../lib/http';
import { projectKeys } from '../projects/api';

/** The body a role form sends: devices for project and device roles, machines for machine roles. */
export type TRoleBody = TProjectRoleInput | TMachineRoleInput;

/**
 * Query keys of role lists. Project and device roles live under the project's key so the project's invalidation
 * reaches them; machine roles under their own.
 */
export const roleKeys = {
  of: (kind: TRoleKind, projectId: number | null) =>
    projectId === null ? (['roles', kind] as const) : ([...projectKeys.detail(projectId), 'roles', kind] as const),
  page: (kind: TRoleKind, projectId: number | null, q: TListQuery) => [...roleKeys.of(kind, projectId), q] as const,
  /** The machines offered by the machine-role picker, by search text. */
  machineOptions: (q: string | undefined) => ['roles', 'machine-options', q ?? ''] as const,
};

const pathsOf = (kind: TRoleKind) => (kind === 'machine' ? machineRolePaths : kind === 'device' ? deviceRolePaths : projectRolePaths);

/** A page of roles of `kind`: of project `projectId` (project and device roles) or of the tenant (machine roles, null). */
export function useRoles(kind: TRoleKind, projectId: number | null, query: TListQuery) {
  return useQuery({
    queryKey: roleKeys.page(kind, projectId, query),
    queryFn: () =>
      http.get<TProjectRoleList>(
        projectId === null ? machineRolePaths.roles : (pathsOf(kind) as typeof projectRolePaths).ofProject(projectId),
        query,
      ),
    placeholderData: keepPreviousData,
  });
}

/** POST (no `id`) or PUT {id} a role of `kind`: answers the saved role. */
export function useSaveRole(kind: TRoleKind, projectId: number | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: TRoleBody }) =>
      id === undefined
        ? http.post<TProjectRole>(pathsOf(kind).roles, projectId === null ? body : { ...body, project_id: projectId })
        : http.put<TProjectRole>(pathsOf(kind).role(id), body),
    onSuccess: () => qc.invalidateQueries({ queryKey: roleKeys.of(kind, projectId) }),
  });
}

/** DELETE a role of `kind` (409 IN_USE while the role has members). */
export function useDeleteRole(kind: TRoleKind, projectId: number | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del<void>(pathsOf(kind).role(id)),
    onSuccess: () => qc.invalidateQueries({ queryKey: roleKeys.of(kind, projectId) }),
  });
}
