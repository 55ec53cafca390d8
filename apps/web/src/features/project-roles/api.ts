/** Project-role calls (spec §7 User API `project-role`) as TanStack Query hooks. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { projectRolePaths, type TListQuery, type TProjectRole, type TProjectRoleInput, type TProjectRoleList } from '@tessera/contracts';
import { http } from '../../lib/http';

const rolesKey = (projectId: number) => ['projects', projectId, 'roles'];

/** GET project-role/project/{id}: a page of the project's roles. */
export function useProjectRoles(projectId: number, query: TListQuery) {
  return useQuery({
    queryKey: [...rolesKey(projectId), query],
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
    onSuccess: () => qc.invalidateQueries({ queryKey: rolesKey(projectId) }),
  });
}

/** DELETE project-role/{id} (409 IN_USE while the role has members). */
export function useDeleteProjectRole(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del<void>(projectRolePaths.role(id)),
    onSuccess: () => qc.invalidateQueries({ queryKey: rolesKey(projectId) }),
  });
}
