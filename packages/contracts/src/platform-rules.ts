/**
 * Platform rules (spec §2 `platform_rule`, §3 node types, §4 statuses and actions, §5 variable and schedule rules,
 * §7 `/rule-engine/v1`; docs/platform-rules.md). A platform rule is a directed graph of the spec's 12 node types,
 * stored as JSON and validated here once for the editor, the API and the engine.
 */
import { z } from 'zod';
import { edgeTypeProblem } from './flow-connection.js';
import { flowProblem, type TFlowProblem } from './flow-problems.js';
import { ZId } from './input.js';
import { ALERT_LEVELS } from './rules-program.js';
import { ZSensorAction } from './device-commands.js';
import { ZTangramId } from './tangram-id.js';
import { ZTelemetryKey } from './telemetry.js';

/** The node types of spec §3, in the editor palette's order. */
export const FLOW_NODE_TYPES = [
  'start',
  'variable',
  'aggregation',
  'condition',
  'conditionResult',
  'alert',
  'notification',
  'iotRemoteControl',
  'deviceHealth',
  'deviceParallelSetting',
  'deviceParallelControl',
  'deviceSchedulerParallelControl',
] as const;
export type TFlowNodeType = (typeof FLOW_NODE_TYPES)[number];

/** Variable types of spec §3. `int` is a signed 32-bit integer, `uint` unsigned 32-bit, `time` epoch ms. */
export const FLOW_VARIABLE_TYPES = ['string', 'int', 'uint', 'float', 'time', 'boolean'] as const;
export type TFlowVariableType = (typeof FLOW_VARIABLE_TYPES)[number];

/** Aggregations of spec §3, over the past range of a device key (served from the rollups). */
export const FLOW_AGGREGATIONS = ['sum', 'avg', 'max', 'min', 'diff', 'count'] as const;
export type TFlowAggregation = (typeof FLOW_AGGREGATIONS)[number];
/** What an aggregation node reads: a device's key, or a platform telemetry's stored series. */
export const FLOW_AGGREGATION_SOURCES = ['device', 'platform'] as const;

/** Range units of an aggregation (spec §3). */
export const FLOW_RANGE_UNITS = ['minute', 'hour', 'day', 'month'] as const;
export type TFlowRangeUnit = (typeof FLOW_RANGE_UNITS)[number];

/** Statuses of spec §4; the state machine is in docs/platform-rules.md ("Statuses"). */
export const PLATFORM_RULE_STATUSES = ['pending', 'good', 'error', 'running', 'queuing', 'stopping', 'stopped'] as const;
export type TPlatformRuleStatus = (typeof PLATFORM_RULE_STATUSES)[number];

/** Actions of spec §4 besides create, edit and delete. */
export const PLATFORM_RULE_ACTIONS = ['apply', 'start', 'stop', 'copy', 'delete'] as const;
export type TPlatformRuleAction = (typeof PLATFORM_RULE_ACTIONS)[number];

/** Limits of one rule's graph (engineConfig may lower the node count, never raise it past the maximum). */
export const FLOW_NODES_MAX = 200;
export const FLOW_EDGES_MAX = 400;
/** Characters of one expression or message template. */
export const FLOW_EXPRESSION_MAX = 500;
export const FLOW_TEMPLATE_MAX = 1000;
/** Nesting depth of one expression (parenthesis, operators, calls). */
export const FLOW_EXPRESSION_DEPTH_MAX = 32;
/** Longest string a `string` variable holds. */
export const FLOW_STRING_MAX = 1000;
/** Devices one parallel node addresses. */
export const FLOW_PARALLEL_DEVICES_MAX = 500;
/** Concurrency of a parallel node's commands. */
export const FLOW_PARALLEL_CONCURRENCY_MAX = 50;
/** Concurrency of a parallel node's commands when the node does not set it (and of scheduled sends). */
export const FLOW_PARALLEL_CONCURRENCY_DEFAULT = 10;
/** Platform-rule name length (spec §5 names). */
export const PLATFORM_RULE_NAME_MAX = 64;
/** The time zone a schedule uses when none is given. */
export const FLOW_DEFAULT_TIME_ZONE = 'Asia/Taipei';

/**
 * Names the trigger's values have in expressions: the point's first, second and third value, its key, its device
 * time (epoch ms) and, for a status trigger, the status word. They cannot be declared as variables.
 */
export const FLOW_TRIGGER_NAMES = ['value', 'value2', 'value3', 'key', 'ts', 'status', 'tangramId'] as const;

/**
 * Functions an expression may call; anything else is refused at apply. `json(text)` makes a JSON value of a text,
 * `changed()` tells whether the trigger's value differs from the device's previous value of its key
 * (docs/platform-rules.md "Values that are not numbers").
 */
export const FLOW_FUNCTIONS = ['abs', 'min', 'max', 'round', 'floor', 'ceil', 'sqrt', 'pow', 'now', 'contains', 'json', 'changed'] as const;

/** Node ids: `n` and 1–6 digits; the number is the node's index in its alerts (one open alert per rule, node, device). */
export const ZFlowNodeId = z.string().regex(/^n[0-9]{1,6}$/, 'node id n1 … n999999');

/** A variable name: a letter or `_`, then letters, digits, `_`; at most 32; not a trigger name nor a JS-reserved word. */
export const ZFlowVariableName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,31}$/, 'letters, digits and _, a letter first')
  .refine((n) => !(FLOW_TRIGGER_NAMES as readonly string[]).includes(n), 'reserved for the trigger')
  .refine((n) => !RESERVED_NAMES.has(n), 'reserved word');

const RESERVED_NAMES = new Set([
  'constructor',
  '__proto__',
  'prototype',
  'this',
  'true',
  'false',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  ...FLOW_FUNCTIONS,
]);

/** An expression, parsed and checked at apply (docs/platform-rules.md "Expressions"). */
export const ZFlowExpression = z.string().trim().min(1).max(FLOW_EXPRESSION_MAX);
/** A message with `{{name}}` placeholders for variables and trigger names. */
export const ZFlowTemplate = z.string().trim().min(1).max(FLOW_TEMPLATE_MAX);

/** Which devices a trigger or a parallel node addresses: listed devices, every device of projects or of products. */
export const ZFlowDeviceScope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('devices'), tangram_ids: z.array(ZTangramId).min(1).max(FLOW_PARALLEL_DEVICES_MAX) }),
  z.object({ kind: z.literal('projects'), ids: z.array(ZId).min(1).max(50) }),
  z.object({ kind: z.literal('products'), ids: z.array(ZId).min(1).max(50) }),
]);
export type TFlowDeviceScope = z.infer<typeof ZFlowDeviceScope>;

/** The device a single-device node addresses: the trigger's device, or a named one. */
export const ZFlowDeviceRef = z.union([z.literal('trigger'), ZTangramId]);
export type TFlowDeviceRef = z.infer<typeof ZFlowDeviceRef>;

/** A five-field cron expression (minute hour day month weekday), checked by the scheduler's parser at apply. */
export const ZCron = z.string().trim().min(9).max(100);

/** An IANA time zone this runtime knows. */
export const ZTimeZone = z
  .string()
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'unknown time zone');

const ZEpochMsField = z.number().int().min(0).max(8_640_000_000_000);

/** The start node's trigger (spec §3 start). */
export const ZFlowTrigger = z.discriminatedUnion('kind', [
  /** Committed telemetry of the scope's devices; `keys` empty: any key. */
  z.object({ kind: z.literal('telemetry'), scope: ZFlowDeviceScope, keys: z.array(ZTelemetryKey).max(20).default([]) }),
  /** A committed status word of the scope's devices. */
  z.object({ kind: z.literal('status'), scope: ZFlowDeviceScope }),
  /** A cron schedule in a time zone, fired only inside the active range (epoch ms; spec §5). */
  z
    .object({
      kind: z.literal('schedule'),
      cron: ZCron,
      time_zone: ZTimeZone.default(FLOW_DEFAULT_TIME_ZONE),
      active_from: ZEpochMsField.nullable().default(null),
      active_until: ZEpochMsField.nullable().default(null),
    })
    .refine((t) => t.active_from === null || t.active_until === null || t.active_from < t.active_until, {
      message: 'the active range must start before it ends',
      path: ['active_until'],
    }),
  /** Runs only when someone presses "run" (or a replay). */
  z.object({ kind: z.literal('manual') }),
]);
export type TFlowTrigger = z.infer<typeof ZFlowTrigger>;

/** A device command of a node: `sensorCommand` with a key and an action, or `getDeviceInfo`. */
export const ZFlowCommand = z.discriminatedUnion('name', [
  z.object({ name: z.literal('sensorCommand'), key: ZTelemetryKey, action: ZSensorAction }),
  z.object({ name: z.literal('getDeviceInfo') }),
]);
export type TFlowCommand = z.infer<typeof ZFlowCommand>;

const timeoutMs = z.number().int().min(500).max(60_000).default(10_000);

/** The data of each node type (spec §3). */
export const ZFlowNodeData = {
  start: z.object({ trigger: ZFlowTrigger }),
  variable: z.object({ name: ZFlowVariableName, var_type: z.enum(FLOW_VARIABLE_TYPES), expression: ZFlowExpression }),
  aggregation: z
    .object({
      name: ZFlowVariableName,
      fn: z.enum(FLOW_AGGREGATIONS),
      /** What is aggregated: a device's key, or one of the tenant's platform telemetries (its stored series). */
      source: z.enum(FLOW_AGGREGATION_SOURCES).default('device'),
      device: ZFlowDeviceRef.default('trigger'),
      key: ZTelemetryKey.or(z.literal('')).default(''),
      slot: z.number().int().min(1).max(3).default(1),
      platform_telemetry_id: ZId.nullable().default(null),
      amount: z.number().int().min(1).max(1000),
      unit: z.enum(FLOW_RANGE_UNITS),
    })
    .refine((a) => a.source !== 'device' || a.key !== '', { message: 'choose the key', path: ['key'] })
    .refine((a) => a.source !== 'platform' || a.platform_telemetry_id !== null, {
      message: 'choose the platform telemetry',
      path: ['platform_telemetry_id'],
    }),
  condition: z.object({ expression: ZFlowExpression }),
  conditionResult: z.object({ result: z.boolean() }),
  alert: z.object({ level: z.enum(ALERT_LEVELS), message: ZFlowTemplate }),
  notification: z
    .object({ email: z.boolean().default(true), line: z.boolean().default(false), message: ZFlowTemplate })
    .refine((n) => n.email || n.line, { message: 'choose email, LINE or both', path: ['email'] }),
  iotRemoteControl: z.object({
    device: ZFlowDeviceRef.default('trigger'),
    command: ZFlowCommand,
    timeout_ms: timeoutMs,
    result_variable: ZFlowVariableName.nullable().default(null),
  }),
  deviceHealth: z.object({ device: ZFlowDeviceRef.default('trigger'), prefix: ZFlowVariableName }),
  deviceParallelSetting: z.object({
    scope: ZFlowDeviceScope,
    key: ZTelemetryKey,
    action: ZSensorAction,
    concurrency: z.number().int().min(1).max(FLOW_PARALLEL_CONCURRENCY_MAX).default(FLOW_PARALLEL_CONCURRENCY_DEFAULT),
    timeout_ms: timeoutMs,
  }),
  deviceParallelControl: z.object({
    scope: ZFlowDeviceScope,
    command: ZFlowCommand,
    concurrency: z.number().int().min(1).max(FLOW_PARALLEL_CONCURRENCY_MAX).default(FLOW_PARALLEL_CONCURRENCY_DEFAULT),
    timeout_ms: timeoutMs,
    result_variable: ZFlowVariableName.nullable().default(null),
  }),
  deviceSchedulerParallelControl: z
    .object({
      scope: ZFlowDeviceScope,
      command: ZFlowCommand,
      start_at: ZEpochMsField,
      end_at: ZEpochMsField,
      repeat_cron: ZCron.nullable().default(null),
      time_zone: ZTimeZone.default(FLOW_DEFAULT_TIME_ZONE),
    })
    .refine((n) => n.start_at < n.end_at, { message: 'the schedule must start before it ends', path: ['end_at'] }),
} satisfies Record<TFlowNodeType, z.ZodType>;

const position = z.object({ x: z.number().finite(), y: z.number().finite() });
const nodeOf = <T extends TFlowNodeType>(type: T) =>
  z.object({ id: ZFlowNodeId, type: z.literal(type), position, data: ZFlowNodeData[type] as (typeof ZFlowNodeData)[T] });

/** One node of a flow: its id, type, place on the canvas and its type's data. */
export const ZFlowNode = z.discriminatedUnion('type', [
  nodeOf('start'),
  nodeOf('variable'),
  nodeOf('aggregation'),
  nodeOf('condition'),
  nodeOf('conditionResult'),
  nodeOf('alert'),
  nodeOf('notification'),
  nodeOf('iotRemoteControl'),
  nodeOf('deviceHealth'),
  nodeOf('deviceParallelSetting'),
  nodeOf('deviceParallelControl'),
  nodeOf('deviceSchedulerParallelControl'),
]);
export type TFlowNode = z.infer<typeof ZFlowNode>;
export type TFlowNodeInput = z.input<typeof ZFlowNode>;

/** An edge from `source` to `target` (node ids). */
export const ZFlowEdge = z.object({ id: z.string().min(1).max(64), source: ZFlowNodeId, target: ZFlowNodeId });
export type TFlowEdge = z.infer<typeof ZFlowEdge>;

/**
 * The structural rules of a graph (spec §5 and docs/platform-rules.md "Graph"): exactly one start node; node ids
 * unique; edges between existing nodes, no self loop, no duplicate, no cycle; every node reachable from start; a
 * condition's children are conditionResult nodes (at most one true, one false) and a conditionResult's parent is a
 * condition; variable names unique in the rule. Expressions are checked by the server's compiler at apply.
 */
export function flowProblems(graph: { nodes: TFlowNode[]; edges: TFlowEdge[] }): TFlowProblem[] {
  const problems: TFlowProblem[] = [];
  const byId = new Map<string, TFlowNode>();
  for (const n of graph.nodes) {
    if (byId.has(n.id)) problems.push(flowProblem(n.id, 'duplicate_id'));
    byId.set(n.id, n);
  }
  const starts = graph.nodes.filter((n) => n.type === 'start');
  if (starts.length !== 1) problems.push(flowProblem(starts[1]?.id ?? null, 'start_count'));
  const children = new Map<string, string[]>();
  const parents = new Map<string, string[]>();
  const seenEdges = new Set<string>();
  for (const e of graph.edges) {
    if (!byId.has(e.source) || !byId.has(e.target)) {
      problems.push(flowProblem(byId.has(e.source) ? e.source : null, 'edge_missing_node'));
      continue;
    }
    if (e.source === e.target) problems.push(flowProblem(e.source, 'self_loop'));
    const pair = `${e.source}>${e.target}`;
    if (seenEdges.has(pair)) continue;
    seenEdges.add(pair);
    children.set(e.source, [...(children.get(e.source) ?? []), e.target]);
    parents.set(e.target, [...(parents.get(e.target) ?? []), e.source]);
  }
  for (const n of graph.nodes) {
    const from = parents.get(n.id) ?? [];
    const typeProblems = from.map((p) => edgeTypeProblem(byId.get(p)?.type ?? '', n.type));
    if (typeProblems.includes('start_has_parent')) problems.push(flowProblem(n.id, 'start_has_parent'));
    if (n.type === 'condition') {
      const results = (children.get(n.id) ?? []).map((id) => byId.get(id));
      if (results.some((c) => edgeTypeProblem(n.type, c?.type ?? '') === 'condition_children'))
        problems.push(flowProblem(n.id, 'condition_children'));
      for (const r of [true, false]) {
        if (results.filter((c) => c?.type === 'conditionResult' && c.data.result === r).length > 1)
          problems.push(flowProblem(n.id, 'branch_twice', { branch: String(r) }));
      }
    }
    if (n.type === 'conditionResult' && (from.length !== 1 || typeProblems.includes('result_parent')))
      problems.push(flowProblem(n.id, 'result_parent'));
  }
  const startNode = starts[0];
  if (startNode?.type === 'start' && startNode.data.trigger.kind === 'schedule') {
    const { active_from: from, active_until: until } = startNode.data.trigger;
    for (const n of graph.nodes) {
      if (n.type !== 'deviceSchedulerParallelControl') continue;
      if ((from !== null && n.data.start_at < from) || (until !== null && n.data.end_at > until))
        problems.push(flowProblem(n.id, 'outside_active_range'));
    }
  }
  const names = new Map<string, string>();
  for (const n of graph.nodes) {
    const declared = declaredVariables(n);
    for (const name of declared) {
      const other = names.get(name);
      if (other !== undefined && other !== n.id) problems.push(flowProblem(n.id, 'variable_twice', { name }));
      names.set(name, n.id);
    }
  }
  const start = starts[0];
  if (start) {
    const reached = new Set<string>();
    const visiting = new Set<string>();
    let cyclic: string | null = null;
    const walk = (id: string) => {
      if (visiting.has(id)) {
        cyclic ??= id;
        return;
      }
      if (reached.has(id)) return;
      visiting.add(id);
      for (const c of children.get(id) ?? []) walk(c);
      visiting.delete(id);
      reached.add(id);
    };
    walk(start.id);
    if (cyclic !== null) problems.push(flowProblem(cyclic, 'loop'));
    for (const n of graph.nodes) if (!reached.has(n.id)) problems.push(flowProblem(n.id, 'unreachable'));
  }
  return problems;
}

/** The variable names a node declares (variable and aggregation names, result variables, health prefix names). */
export function declaredVariables(n: TFlowNode): string[] {
  switch (n.type) {
    case 'variable':
    case 'aggregation':
      return [n.data.name];
    case 'iotRemoteControl':
    case 'deviceParallelControl':
      return n.data.result_variable ? [n.data.result_variable] : [];
    case 'deviceHealth':
      return FLOW_HEALTH_FIELDS.map((f) => `${n.data.prefix}_${f}`);
    default:
      return [];
  }
}

/** The variables a deviceHealth node sets, after its prefix: `<prefix>_online` (boolean) and so on. */
export const FLOW_HEALTH_FIELDS = ['online', 'last_seen', 'status'] as const;

/** A flow graph as stored and applied. */
export const ZFlowGraph = z
  .object({ nodes: z.array(ZFlowNode).min(1).max(FLOW_NODES_MAX), edges: z.array(ZFlowEdge).max(FLOW_EDGES_MAX) })
  .superRefine((g, ctx) => {
    for (const p of flowProblems(g)) ctx.addIssue({ code: 'custom', message: p.message, path: p.node_id ? ['nodes', p.node_id] : [] });
  });
export type TFlowGraph = z.infer<typeof ZFlowGraph>;
export type TFlowGraphInput = z.input<typeof ZFlowGraph>;
