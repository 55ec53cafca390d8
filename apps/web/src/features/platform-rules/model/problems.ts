/**
 * Apply problems in the reader's language: a problem with a code (contracts' flow-problems.ts) is said by
 * `platformRules.problems.<code>` with its parameters (a node type or field named by its label); one without (stored
 * before codes existed) by its English message.
 */
import type { TFlowProblem } from '@tessera/contracts';
import type { TFunction } from 'i18next';

/** The i18n key of a problem code. */
export const problemKey = (code: string) => `platformRules.problems.${code}`;

/** The problem as text for the editor. */
export function problemText(t: TFunction, p: Pick<TFlowProblem, 'code' | 'params' | 'message'>): string {
  if (!p.code) return p.message;
  const params: Record<string, string | number> = { ...p.params };
  if (typeof params.node === 'string') params.node = t(`platformRules.nodes.${params.node}`);
  if (typeof params.field === 'string') params.field = t(`platformRules.fields.${params.field}`, { defaultValue: params.field });
  if (typeof params.branch === 'string') params.branch = t(`platformRules.problems.branches.${params.branch}`);
  return t(problemKey(p.code), { ...params, interpolation: { escapeValue: false } });
}
