import { describe, expect, it } from 'vitest';
import { connectionRefusal, edgeTypeProblem } from './flow-connection.js';
import { flowProblems, type TFlowEdge, type TFlowNode, ZFlowNode } from './platform-rules.js';

const node = (id: string, type: string, data: Record<string, unknown> = {}) => ({ id, type, data });
const nodes = [
  node('n1', 'start'),
  node('n2', 'condition'),
  node('n3', 'conditionResult', { result: true }),
  node('n4', 'conditionResult', { result: true }),
  node('n5', 'alert'),
  node('n6', 'alert'),
];
const edges = [
  { source: 'n1', target: 'n2' },
  { source: 'n2', target: 'n3' },
  { source: 'n3', target: 'n5' },
];
const graph = { nodes, edges };

describe('edgeTypeProblem', () => {
  it('refuses what the node types forbid and allows the rest', () => {
    expect(edgeTypeProblem('alert', 'start')).toBe('start_has_parent');
    expect(edgeTypeProblem('condition', 'alert')).toBe('condition_children');
    expect(edgeTypeProblem('alert', 'conditionResult')).toBe('result_parent');
    expect(edgeTypeProblem('condition', 'conditionResult')).toBeNull();
    expect(edgeTypeProblem('start', 'condition')).toBeNull();
  });
});

describe('connectionRefusal', () => {
  it('allows a connection apply accepts', () => {
    expect(connectionRefusal(graph, { source: 'n5', target: 'n6' })).toBeNull();
    expect(connectionRefusal(graph, { source: 'n3', target: 'n6' })).toBeNull();
  });
  it('refuses a node following itself', () => {
    expect(connectionRefusal(graph, { source: 'n5', target: 'n5' })).toEqual({ code: 'self_loop' });
  });
  it('refuses anything leading into start', () => {
    expect(connectionRefusal(graph, { source: 'n5', target: 'n1' })?.code).toBe('start_has_parent');
  });
  it('refuses a condition leading straight to an action', () => {
    expect(connectionRefusal(graph, { source: 'n2', target: 'n6' })?.code).toBe('condition_children');
  });
  it('refuses a condition result after anything but a condition, or after a second node', () => {
    expect(connectionRefusal(graph, { source: 'n5', target: 'n4' })?.code).toBe('result_parent');
    const twoConditions = { nodes: [...nodes, node('n7', 'condition')], edges };
    expect(connectionRefusal(twoConditions, { source: 'n7', target: 'n3' })?.code).toBe('result_parent');
  });
  it('refuses a second result of the same branch under one condition', () => {
    expect(connectionRefusal(graph, { source: 'n2', target: 'n4' })).toEqual({ code: 'branch_twice', params: { branch: 'true' } });
  });
  it('refuses a loop back to the source', () => {
    expect(connectionRefusal(graph, { source: 'n5', target: 'n2' })?.code).toBe('loop');
  });
  it('refuses an edge to a node that does not exist', () => {
    expect(connectionRefusal(graph, { source: 'n5', target: 'n9' })?.code).toBe('edge_missing_node');
  });
  it('refuses only what flowProblems reports once the edge is added', () => {
    const full = [
      ZFlowNode.parse({ id: 'n1', type: 'start', position: { x: 0, y: 0 }, data: { trigger: { kind: 'manual' } } }),
      ZFlowNode.parse({ id: 'n2', type: 'condition', position: { x: 0, y: 0 }, data: { expression: 'true' } }),
      ZFlowNode.parse({ id: 'n3', type: 'conditionResult', position: { x: 0, y: 0 }, data: { result: true } }),
      ZFlowNode.parse({ id: 'n5', type: 'alert', position: { x: 0, y: 0 }, data: { level: 'alert', message: 'hot' } }),
    ] as TFlowNode[];
    const base: TFlowEdge[] = [
      { id: 'a', source: 'n1', target: 'n2' },
      { id: 'b', source: 'n2', target: 'n3' },
      { id: 'c', source: 'n3', target: 'n5' },
    ];
    expect(flowProblems({ nodes: full, edges: base })).toEqual([]);
    for (const [source, target] of [
      ['n2', 'n5'],
      ['n5', 'n1'],
      ['n5', 'n2'],
    ] as const) {
      const refusal = connectionRefusal({ nodes: full, edges: base }, { source, target });
      const codes = flowProblems({ nodes: full, edges: [...base, { id: 'x', source, target }] }).map((p) => p.code);
      expect(codes).toContain(refusal?.code);
    }
  });
});
