/**
 * Which connections a platform rule's graph allows (docs/platform-rules.md "Graph"): the one rule the flow editor
 * checks while a person draws an edge (React Flow's `isValidConnection`) and the server's apply checks on the whole
 * graph (platform-rules.ts `flowProblems`), so the editor refuses exactly what apply would refuse.
 */
import type { TFlowProblemCode, TFlowProblemParams } from './flow-problems.js';

/** What the rule needs to know of a node: its id, type and (for a condition result) which branch it is. */
export interface TConnectionNode {
  id: string;
  type: string;
  data?: unknown;
}

/** Why a connection is refused: a problem code and its parameters (contracts' FLOW_PROBLEM_MESSAGES). */
export interface TConnectionRefusal {
  code: TFlowProblemCode;
  params?: TFlowProblemParams;
}

/**
 * Why a node of type `childType` may not follow one of type `parentType`, by their types alone, or null: nothing
 * leads into start; a condition leads only to condition results; a condition result follows only a condition.
 */
export function edgeTypeProblem(
  parentType: string,
  childType: string,
): Extract<TFlowProblemCode, 'start_has_parent' | 'condition_children' | 'result_parent'> | null {
  if (childType === 'start') return 'start_has_parent';
  if (parentType === 'condition' && childType !== 'conditionResult') return 'condition_children';
  if (childType === 'conditionResult' && parentType !== 'condition') return 'result_parent';
  return null;
}

/** The branch (true/false) of a condition-result node's data, or null. */
function branchOf(node: TConnectionNode | undefined): boolean | null {
  const result = (node?.data as { result?: unknown } | undefined)?.result;
  return typeof result === 'boolean' ? result : null;
}

/** Whether `to` can be reached from `from` along `edges`. */
function reaches(edges: readonly { source: string; target: string }[], from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const e of edges) if (e.source === id) stack.push(e.target);
  }
  return false;
}

/**
 * Why the edge `source → target` may not be added to the graph, or null when apply would accept it (as far as
 * edges go). Checks, in order: self loop, the node types (edgeTypeProblem), a condition result that already follows
 * a condition, a second result of the same branch under one condition, and a loop back to `source`.
 */
export function connectionRefusal(
  graph: { nodes: readonly TConnectionNode[]; edges: readonly { source: string; target: string }[] },
  connection: { source: string; target: string },
): TConnectionRefusal | null {
  const { source, target } = connection;
  if (source === target) return { code: 'self_loop' };
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const from = byId.get(source);
  const to = byId.get(target);
  if (!from || !to) return { code: 'edge_missing_node' };
  const typeProblem = edgeTypeProblem(from.type, to.type);
  if (typeProblem) return { code: typeProblem };
  const others = graph.edges.filter((e) => !(e.source === source && e.target === target));
  if (to.type === 'conditionResult' && others.some((e) => e.target === target)) return { code: 'result_parent' };
  const branch = branchOf(to);
  if (from.type === 'condition' && branch !== null) {
    const twin = others.some(
      (e) => e.source === source && byId.get(e.target)?.type === 'conditionResult' && branchOf(byId.get(e.target)) === branch,
    );
    if (twin) return { code: 'branch_twice', params: { branch: String(branch) } };
  }
  if (reaches(others, target, source)) return { code: 'loop' };
  return null;
}
