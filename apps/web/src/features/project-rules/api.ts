/**
 * Rule-tab calls (spec §7 rules: simples, blocklys, compile, blockly setting; projects {id}/ruleType) as TanStack
 * Query hooks over the console's HTTP client.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  paths,
  rulePaths,
  type TBlocklyProgram,
  type TBlocklyProgramInput,
  type TBlocklyProgramList,
  type TBlocklyProgramUpdate,
  type TBlocklySetting,
  type TBlocklyWorkspace,
  type TCompileResult,
  type TProject,
  type TRuleTypeUpdate,
  type TSimpleRule,
  type TSimpleRuleInput,
  type TSimpleRuleList,
} from '@tessera/contracts';
import { http } from '../../lib/http';
import { projectKeys } from '../projects/api';

/** Query keys of the rules tab. */
export const projectRuleKeys = {
  simples: (projectId: number) => ['rules', projectId, 'simples'] as const,
  programs: (projectId: number) => ['rules', projectId, 'blocklys'] as const,
  program: (projectId: number, programId: number | null) => ['rules', projectId, 'blocklys', programId] as const,
  setting: (projectId: number) => ['rules', projectId, 'setting'] as const,
};

/** Every list here is small (≤ 50), so one page of the largest size holds it. */
const ALL = { page: 1, limit: 200 };

/** PUT projects/{id}/ruleType; the answer replaces the cached project. */
export function useSetRuleType(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TRuleTypeUpdate) => http.put<TProject>(paths.projectRuleType(projectId), body),
    onSuccess: (p) => qc.setQueryData(projectKeys.detail(projectId), p),
  });
}

/** GET simples: all of the project's simple rules. */
export function useSimpleRules(projectId: number) {
  return useQuery({
    queryKey: projectRuleKeys.simples(projectId),
    queryFn: () => http.get<TSimpleRuleList>(rulePaths.simples(projectId), ALL),
  });
}

/** POST simples (no `id`) or PUT simples/{id}. */
export function useSaveSimpleRule(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: TSimpleRuleInput }) =>
      id === null
        ? http.post<TSimpleRule>(rulePaths.simples(projectId), input)
        : http.put<TSimpleRule>(rulePaths.simple(projectId, id), input),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectRuleKeys.simples(projectId) }),
  });
}

/** PUT simples/{id} with `{ enabled }` (the table's switch). */
export function useToggleSimpleRule(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) => http.put<TSimpleRule>(rulePaths.simple(projectId, id), { enabled }),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectRuleKeys.simples(projectId) }),
  });
}

/** DELETE simples/{id}. */
export function useDeleteSimpleRule(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del(rulePaths.simple(projectId, id)),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectRuleKeys.simples(projectId) }),
  });
}

/** GET blocklys: the project's programs (without workspaces). */
export function usePrograms(projectId: number) {
  return useQuery({
    queryKey: projectRuleKeys.programs(projectId),
    queryFn: () => http.get<TBlocklyProgramList>(rulePaths.blocklys(projectId), ALL),
  });
}

/** GET blocklys/{id}; disabled for a new program (null). */
export function useProgram(projectId: number, programId: number | null) {
  return useQuery({
    queryKey: projectRuleKeys.program(projectId, programId),
    enabled: programId !== null,
    queryFn: () => http.get<TBlocklyProgram>(rulePaths.blockly(projectId, programId ?? 0)),
  });
}

/** POST blocklys (no `id`) or PUT blocklys/{id}; the server compiles and answers the saved program. */
export function useSaveProgram(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: TBlocklyProgramInput | TBlocklyProgramUpdate }) =>
      id === null
        ? http.post<TBlocklyProgram>(rulePaths.blocklys(projectId), input)
        : http.put<TBlocklyProgram>(rulePaths.blockly(projectId, id), input),
    onSuccess: (p) => {
      qc.setQueryData(projectRuleKeys.program(projectId, p.id), p);
      return qc.invalidateQueries({ queryKey: projectRuleKeys.programs(projectId), exact: true });
    },
  });
}

/** DELETE blocklys/{id}. */
export function useDeleteProgram(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del(rulePaths.blockly(projectId, id)),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectRuleKeys.programs(projectId), exact: true }),
  });
}

/** POST blocklys/compile: the program or the errors of a workspace, nothing saved. */
export function useCompile(projectId: number) {
  return useMutation({
    mutationFn: (workspace: TBlocklyWorkspace) => http.post<TCompileResult>(rulePaths.compile(projectId), { workspace }),
  });
}

/** GET blocklySetting. */
export function useBlocklySetting(projectId: number) {
  return useQuery({
    queryKey: projectRuleKeys.setting(projectId),
    queryFn: () => http.get<TBlocklySetting>(rulePaths.blocklySetting(projectId)),
  });
}

/** PUT blocklySetting (replaces the list). */
export function usePutBlocklySetting(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TBlocklySetting) => http.put<TBlocklySetting>(rulePaths.blocklySetting(projectId), body),
    onSuccess: (s) => qc.setQueryData(projectRuleKeys.setting(projectId), s),
  });
}
