/** Platform-rule calls (spec §7 `/rule-engine/v1`) as TanStack Query hooks over the console's HTTP client. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  platformRulePaths,
  type TFlowDraft,
  type TFlowFireList,
  type TFlowRun,
  type TFlowRunList,
  type TListQuery,
  type TPlatformRule,
  type TPlatformRuleList,
  type TAlertDashboard,
  type TPlatformAlertSummary,
  type TRuleMetrics,
} from '@tessera/contracts';
import { http } from '../../lib/http';

/** Query keys of the platform-rule pages; `all` covers every one (a rule's action refreshes the list too). */
export const platformRuleKeys = {
  all: ['platform-rules'] as const,
  list: (q: TListQuery) => ['platform-rules', 'list', q] as const,
  detail: (id: number) => ['platform-rules', 'detail', id] as const,
  runs: (id: number) => ['platform-rules', 'runs', id] as const,
  run: (id: number, runId: number | null) => ['platform-rules', 'run', id, runId] as const,
  fires: (id: number) => ['platform-rules', 'fires', id] as const,
  metrics: ['platform-rules', 'metrics'] as const,
  alertSummary: (days: number) => ['platform-rules', 'alert-summary', days] as const,
  latestAlerts: ['platform-rules', 'latest-alerts'] as const,
};

/** GET alerts/summary over the last `days` days, days starting at the browser's midnight. */
export function usePlatformAlertSummary(days: number) {
  return useQuery({
    queryKey: platformRuleKeys.alertSummary(days),
    queryFn: () => {
      const to = Date.now();
      return http.get<TPlatformAlertSummary>(platformRulePaths.alertsSummary, {
        from: to - days * 86_400_000,
        to,
        utc_offset_min: -new Date().getTimezoneOffset(),
      });
    },
    refetchInterval: 30_000,
  });
}

/** GET alerts/dashboard: the latest platform-rule alerts. */
export function useLatestPlatformAlerts() {
  return useQuery({
    queryKey: platformRuleKeys.latestAlerts,
    queryFn: () => http.get<TAlertDashboard>(platformRulePaths.alertsDashboard),
    refetchInterval: 30_000,
  });
}

/** GET rules/{id}. */
function getPlatformRule(id: number): Promise<TPlatformRule> {
  return http.get<TPlatformRule>(platformRulePaths.rule(id));
}

/** GET rules: a page of the tenant's platform rules. */
export function usePlatformRules(q: TListQuery) {
  return useQuery({
    queryKey: platformRuleKeys.list(q),
    queryFn: () => http.get<TPlatformRuleList>(platformRulePaths.rules, q),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.data.some((r) => r.status === 'stopping') ? 1_000 : 10_000),
  });
}

/** GET rule-metrics: runs per minute and errors per rule (the list's sparkline). */
export function useRuleMetrics(enabled = true) {
  return useQuery({
    queryKey: platformRuleKeys.metrics,
    queryFn: () => http.get<TRuleMetrics>(platformRulePaths.metrics),
    refetchInterval: 30_000,
    enabled,
  });
}

/** GET rules/{id}. */
export function usePlatformRule(id: number) {
  return useQuery({
    queryKey: platformRuleKeys.detail(id),
    queryFn: () => getPlatformRule(id),
    enabled: id > 0,
    // A stop settles by itself once in-flight runs finish: follow it until then.
    refetchInterval: (query) => (query.state.data?.status === 'stopping' ? 1_000 : false),
  });
}

/** GET rules/{id}/logs: the newest runs (first page). */
export function useRuleRuns(id: number) {
  return useQuery({
    queryKey: platformRuleKeys.runs(id),
    queryFn: () => http.get<TFlowRunList>(platformRulePaths.logs(id), { page: 1, limit: 20 }),
    refetchInterval: 5_000,
  });
}

/** GET rules/{id}/logs/{runId}: one run with its trace (null: none chosen). */
export function useRuleRun(id: number, runId: number | null) {
  return useQuery({
    queryKey: platformRuleKeys.run(id, runId),
    queryFn: () => http.get<TFlowRun>(platformRulePaths.log(id, runId ?? 0)),
    enabled: runId !== null,
  });
}

/** GET rules/{id}/fires: the schedule's fire history (first page). */
export function useRuleFires(id: number, enabled: boolean) {
  return useQuery({
    queryKey: platformRuleKeys.fires(id),
    queryFn: () => http.get<TFlowFireList>(platformRulePaths.fires(id), { page: 1, limit: 20 }),
    enabled,
    refetchInterval: 15_000,
  });
}

/** POST rules: a new pending rule. */
export function useCreatePlatformRule() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; description?: string }) => http.post<TPlatformRule>(platformRulePaths.rules, body, { quiet: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: platformRuleKeys.all }),
  });
}

/** PUT rules/{id}: name, description, draft. */
export function useSavePlatformRule(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; description: string; draft: TFlowDraft }) =>
      http.put<TPlatformRule>(platformRulePaths.rule(id), body, { quiet: true }),
    onSuccess: (rule) => {
      qc.setQueryData(platformRuleKeys.detail(id), rule);
      void qc.invalidateQueries({ queryKey: platformRuleKeys.all });
    },
  });
}

/** The rule actions of spec §4 (apply, start, stop, copy) and the manual run; quiet: the page shows each refusal. */
export function useRuleAction(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (action: 'apply' | 'start' | 'stop' | 'copy' | 'run') =>
      http.post<TPlatformRule | { run_id: number }>(platformRulePaths.action(id, action), undefined, { quiet: true }),
    onSettled: () => qc.invalidateQueries({ queryKey: platformRuleKeys.all }),
  });
}

/** DELETE rules/{id}. */
export function useDeletePlatformRule() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del<void>(platformRulePaths.rule(id), { quiet: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: platformRuleKeys.all }),
  });
}

/** POST rules/{id}/replay: re-runs a recorded run against the saved draft, without side effects. */
export function useReplayRun(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (runId: number) =>
      http.post<{ run_id: number }>(platformRulePaths.action(id, 'replay'), { run_id: runId }, { quiet: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: platformRuleKeys.runs(id) }),
  });
}
