/**
 * Why a platform-rule draft does not apply (docs/platform-rules.md "Graph"): each problem has a code and its
 * parameters, so the console says it in the reader's language (`platformRules.problems.<code>`), and an English
 * message for API clients, made here from the same code. Graph rules (platform-rules.ts `flowProblems`), the
 * schema (`invalid_field`) and the server's compiler all speak in these codes.
 */

/** The English text of each problem code; `{name}` is a parameter. */
export const FLOW_PROBLEM_MESSAGES = {
  duplicate_id: 'duplicate node id',
  start_count: 'a rule has exactly one start node',
  edge_missing_node: 'edge to a node that does not exist',
  self_loop: 'a node cannot follow itself',
  start_has_parent: 'nothing may lead into start',
  condition_children: 'a condition leads only to true/false result nodes',
  branch_twice: 'more than one {branch} branch',
  result_parent: 'a result node follows exactly one condition',
  outside_active_range: "the schedule must lie inside the rule's active range",
  variable_twice: 'variable {name} is declared twice',
  loop: 'the flow loops back on itself',
  unreachable: 'not reachable from start',
  too_many_nodes: 'a rule has at most {max} nodes',
  invalid_field: '{field}: {detail}',
  needs_device: "{node} needs the trigger's device: start on telemetry or status",
  diff_first_value: 'diff is kept for the first value only',
  schedule: 'schedule: {detail}',
  syntax: 'syntax: {detail}',
  too_deep: 'nested deeper than {max}',
  text_too_long: 'text too long',
  unsupported_literal: 'unsupported literal {literal}',
  unknown_name: 'unknown name {name}',
  operator: 'operator {operator} is not supported',
  call_only_functions: 'only the listed functions can be called',
  unknown_function: 'unknown function {name}',
  arity: '{name} takes {count} arguments',
  unsupported_syntax: '{what} is not supported',
  unknown_template_name: 'unknown name {name} in the message',
} as const;

/** A problem code. */
export type TFlowProblemCode = keyof typeof FLOW_PROBLEM_MESSAGES;
/** Every problem code (the console's catalogue has a text for each). */
export const FLOW_PROBLEM_CODES = Object.keys(FLOW_PROBLEM_MESSAGES) as TFlowProblemCode[];
/** A problem's parameters (names, numbers, a parser's detail). */
export type TFlowProblemParams = Record<string, string | number>;

/** A problem of a graph, on a node when it has one (shown on that node in the editor). */
export interface TFlowProblem {
  node_id: string | null;
  code?: TFlowProblemCode;
  params?: TFlowProblemParams;
  /** The problem in English (what API clients read). */
  message: string;
}

/** The English message of `code` with `params` filled in. */
export function flowProblemMessage(code: TFlowProblemCode, params: TFlowProblemParams = {}): string {
  return FLOW_PROBLEM_MESSAGES[code].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}

/** A problem of `code` on `nodeId` (null: the graph as a whole). */
export function flowProblem(nodeId: string | null, code: TFlowProblemCode, params?: TFlowProblemParams): TFlowProblem {
  return { node_id: nodeId, code, ...(params ? { params } : {}), message: flowProblemMessage(code, params) };
}
