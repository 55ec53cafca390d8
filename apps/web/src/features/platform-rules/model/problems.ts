/**
 * Apply problems in the reader's language: a problem with a code (contracts' flow-problems.ts) is said by
 * `platformRules.problems.<code>` with its parameters (a node type or field named by its label); one without (stored
 * before codes existed) by its English message. A schema problem (`invalid_field`) says what is wrong with the field
 * from the zod issue code the server stored with it (model/fieldIssue.ts), never zod's or the schema's English.
 */
import type { TFlowProblem } from '@tessera/contracts';
import type { TFunction } from 'i18next';
import { fieldIssueText } from './fieldIssue';

/** The i18n key of a problem code. */
export const problemKey = (code: string) => `platformRules.problems.${code}`;

/** The problem as text for the editor. */
export function problemText(t: TFunction, p: Pick<TFlowProblem, 'code' | 'params' | 'message'>): string {
  if (!p.code) return p.message;
  const params: Record<string, string | number> = { ...p.params };
  if (typeof params.node === 'string') params.node = t(`platformRules.nodes.${params.node}`);
  if (typeof params.field === 'string') params.field = t(`platformRules.fields.${params.field}`, { defaultValue: params.field });
  if (p.code === 'invalid_field') params.detail = invalidFieldDetail(t, p.params ?? {});
  if (typeof params.branch === 'string') params.branch = t(`platformRules.problems.branches.${params.branch}`);
  return t(problemKey(p.code), { ...params, interpolation: { escapeValue: false } });
}

/** What is wrong with a field, from an `invalid_field` problem's parameters. */
function invalidFieldDetail(t: TFunction, params: Record<string, string | number>): string {
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return fieldIssueText(t, {
    issue: str(params.issue),
    message: str(params.detail),
    minimum: num(params.minimum),
    maximum: num(params.maximum),
    origin: str(params.origin),
    format: str(params.format),
  });
}
