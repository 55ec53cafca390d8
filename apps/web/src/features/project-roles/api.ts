/** Project-role calls (spec §7 User API `project-role`) as TanStack Query hooks. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { projectRolePaths, type TListQuery, type TProjectRole, type TProjectRoleInput, type TProjectRoleList } from '@tessera/contracts';
import { http } from '../../lib/http';
import { projectKeys } from '../projects/api';

/** Query keys of the roles tab, under the project's key so the project's invalidation reaches them. */
export const projectRoleKeys = {
  ofProject: (projectId: number) => [...projectKeys.detail(projectId), 'roles'] as const,
  page: (projectId: number, q: TListQuery) => [...projectKeys.detail(projectId), 'roles', q] as const,
};

/** GET project-role/project/{id}: a page of the project's roles. */
export function useProjectRoles(projectId: number, query: TListQuery) {
  return useQuery({
    queryKey: projectRoleKeys.page(projectId, query),
    queryFn: () => http.get<TProjectRoleList>(projectRolePaths.ofProject(projectId), query),
    placeholderData: keepPreviousData,
  });
}

/** POST project-role (no `id`) or PUT project-role/{id}: answers the saved role. */
export function useSaveProjectRole(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: TProjectRoleInput }) =>
      id === undefined
        ? http.post<TProjectRole>(projectRolePaths.roles, { ...body, project_id: projectId })
        : http.put<TProjectRole>(projectRolePaths.role(id), body),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectRoleKeys.ofProject(projectId) }),
  });
}

/** DELETE project-role/{id} (409 IN_USE while the role has members). */
export function useDeleteProjectRole(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del<void>(projectRolePaths.role(id)),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectRoleKeys.ofProject(projectId) }),
  });
}
