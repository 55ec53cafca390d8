/**
 * Compiles a platform rule's graph (ZFlowGraph, already structurally valid) into executable nodes, once at apply
 * (docs/platform-rules.md "Apply"). Every expression and template is compiled against the names that can have a
 * value where it stands (the trigger's names and every declared variable); cron expressions are parsed by croner.
 * Problems come back per node, so the editor shows each on its node and nothing is deployed.
 */
import pMap from 'p-map';
import {
  declaredVariables,
  FLOW_HEALTH_FIELDS,
  FLOW_PARALLEL_DEVICES_MAX,
  FLOW_TRIGGER_NAMES,
  flowProblem,
  type TFlowGraph,
  type TFlowNode,
  type TFlowNodeType,
  type TFlowProblem,
  type TFlowTrigger,
  PlatformRuleErrorCode,
} from '@tessera/contracts';
import { AppError } from '../../../core/errors.js';
import { Cron } from 'croner';
import type { TFlowDevice, TFlowEffects } from './effects.js';
import { compileExpression, compileTemplate, FlowCompileError, FlowRunError, type TFlowScope, type TFlowValue } from './expression.js';
import { castTo } from './variables.js';

/** Milliseconds of each aggregation range unit; a month counts 30 days. */
export const RANGE_UNIT_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000, month: 30 * 86_400_000 } as const;

/** What a node's run sees: the run's variables (trigger values included), its scope, device and effects. */
export interface TNodeContext {
  vars: Map<string, TFlowValue>;
  scope: TFlowScope;
  /** The device of the trigger (null for a schedule or manual run). */
  device: TFlowDevice | null;
  effects: TFlowEffects;
  now(): number;
  /** The alert this run raised last (a notification after an alert names it), and whether this run opened it. */
  alertId: number | null;
  alertOpened: boolean;
}

/** What a node did: its input and output for the trace, and which children to follow (undefined: all). */
export interface TNodeResult {
  input: unknown;
  output: unknown;
  follow?: readonly string[];
}

/** A compiled node. */
export interface TCompiledNode {
  id: string;
  type: TFlowNode['type'];
  /** The number in the node id: the node's index in its alerts. */
  index: number;
  children: string[];
  run(ctx: TNodeContext): Promise<TNodeResult>;
}

/** A compiled graph ready to run. */
export interface TCompiledFlow {
  trigger: TFlowTrigger;
  startId: string;
  nodes: Map<string, TCompiledNode>;
  /** Some expression calls `changed()`: a run reads the device's previous value of the trigger's key first. */
  usesChanged: boolean;
}

/** The outcome of compiling: the flow, or the problems (per node) that keep it from being applied. */
export type TCompileFlowResult = { ok: true; flow: TCompiledFlow } | { ok: false; problems: TFlowProblem[] };

/**
 * 422 RULE_APPLY_FAILED with each problem as a detail whose path is its node id (the editor marks that node), with its
 * code and parameters when it has them (the console translates them).
 */
export function applyFailed(
  problems: readonly TFlowProblem[],
  message = `the flow has ${problems.length} problem(s): ${problems[0]?.message ?? ''}`,
): AppError {
  return new AppError(
    422,
    PlatformRuleErrorCode.ApplyFailed,
    message,
    problems.map((p) => ({
      path: p.node_id ?? '',
      message: p.message,
      ...(p.code ? { code: p.code } : {}),
      ...(p.params ? { params: p.params } : {}),
    })),
  );
}

/** Checks a cron expression with the scheduler's parser. @throws FlowCompileError when croner refuses it. */
export function checkCron(cron: string, timeZone: string): void {
  try {
    new Cron(cron, { timezone: timeZone, paused: true }).stop();
  } catch (err) {
    throw new FlowCompileError('schedule', { detail: (err as Error).message });
  }
}

/** Compiles `graph`; `now` is the server clock (epoch ms). */
export function compileFlow(graph: TFlowGraph): TCompileFlowResult {
  const problems: TFlowProblem[] = [];
  const start = graph.nodes.find((n) => n.type === 'start');
  if (start?.type !== 'start') return { ok: false, problems: [flowProblem(null, 'start_count')] };
  const trigger = start.data.trigger;
  const hasDevice = trigger.kind === 'telemetry' || trigger.kind === 'status';
  const known = new Set<string>(FLOW_TRIGGER_NAMES);
  for (const n of graph.nodes) for (const v of declaredVariables(n)) known.add(v);
  const children = new Map<string, string[]>();
  for (const e of graph.edges) {
    const list = children.get(e.source) ?? [];
    if (!list.includes(e.target)) list.push(e.target);
    children.set(e.source, list);
  }
  const nodes = new Map<string, TCompiledNode>();
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const called = new Set<string>();
  for (const node of graph.nodes) {
    try {
      const run = compileNode(node, known, hasDevice, children.get(node.id) ?? [], byId, called);
      nodes.set(node.id, { id: node.id, type: node.type, index: Number(node.id.slice(1)), children: children.get(node.id) ?? [], run });
    } catch (err) {
      if (!(err instanceof FlowCompileError)) throw err;
      problems.push(flowProblem(node.id, err.code, err.params));
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, flow: { trigger, startId: start.id, nodes, usesChanged: called.has('changed') } };
}

function needsDevice(hasDevice: boolean, node: TFlowNodeType): void {
  if (!hasDevice) throw new FlowCompileError('needs_device', { node });
}

async function resolveDevice(ctx: TNodeContext, ref: string): Promise<TFlowDevice> {
  if (ref === 'trigger') {
    if (!ctx.device) throw new FlowRunError('this run has no trigger device');
    return ctx.device;
  }
  const d = await ctx.effects.device(ref);
  if (!d) throw new FlowRunError(`device ${ref} is not one of this tenant's`);
  return d;
}

function compileNode(
  node: TFlowNode,
  known: ReadonlySet<string>,
  hasDevice: boolean,
  kids: string[],
  byId: Map<string, TFlowNode>,
  called: Set<string>,
): TCompiledNode['run'] {
  switch (node.type) {
    case 'start': {
      const t = node.data.trigger;
      if (t.kind === 'schedule') checkCron(t.cron, t.time_zone);
      return async () => ({ input: null, output: null });
    }
    case 'variable': {
      const { name, var_type, expression } = node.data;
      const expr = compileExpression(expression, known, { called });
      return async (ctx) => {
        const raw = expr(ctx.scope);
        const value = castTo(var_type, raw);
        ctx.vars.set(name, value);
        return { input: raw, output: value };
      };
    }
    case 'aggregation': {
      const { name, fn, source, device, key, slot, amount, unit, platform_telemetry_id } = node.data;
      const rangeMs = amount * RANGE_UNIT_MS[unit];
      if (source === 'platform') {
        const id = platform_telemetry_id as number;
        return async (ctx) => {
          const to = ctx.now();
          const value = await ctx.effects.aggregatePlatform(id, fn, to - rangeMs, to);
          if (value === null) throw new FlowRunError(`platform telemetry ${id} is not one of this tenant's`);
          const input = { platform_telemetry_id: id, fn, from: to - rangeMs, to };
          if (!Number.isFinite(value)) throw new FlowRunError(`no point of platform telemetry ${id} in the last ${amount} ${unit}(s)`);
          ctx.vars.set(name, value);
          return { input, output: value };
        };
      }
      if (device === 'trigger') needsDevice(hasDevice, node.type);
      if (fn === 'diff' && slot !== 1) throw new FlowCompileError('diff_first_value');
      return async (ctx) => {
        const d = await resolveDevice(ctx, device);
        const to = ctx.now();
        const value = await ctx.effects.aggregate(d, key, slot, fn, to - rangeMs, to);
        const input = { tangram_id: d.tangramId, key, fn, from: to - rangeMs, to };
        if (!Number.isFinite(value)) throw new FlowRunError(`no ${key} point in the last ${amount} ${unit}(s)`);
        ctx.vars.set(name, value);
        return { input, output: value };
      };
    }
    case 'condition': {
      const expr = compileExpression(node.data.expression, known, { called });
      const branch = (r: boolean) =>
        kids.filter((k) => {
          const child = byId.get(k);
          return child?.type === 'conditionResult' && child.data.result === r;
        });
      const onTrue = branch(true);
      const onFalse = branch(false);
      return async (ctx) => {
        const v = expr(ctx.scope);
        if (typeof v !== 'boolean')
          throw new FlowRunError(`the condition gives ${typeof v === 'object' ? 'a JSON value' : typeof v}, not true or false`);
        return { input: null, output: v, follow: v ? onTrue : onFalse };
      };
    }
    case 'conditionResult':
      return async () => ({ input: null, output: node.data.result });
    case 'alert': {
      needsDevice(hasDevice, node.type);
      const message = compileTemplate(node.data.message, known);
      const index = Number(node.id.slice(1));
      return async (ctx) => {
        const device = await resolveDevice(ctx, 'trigger');
        const text = message(ctx.scope);
        const key = ctx.vars.get('key');
        const value = ctx.vars.get('value');
        const trigger = typeof key === 'string' && typeof value === 'number' && Number.isFinite(value) ? { key, value } : null;
        const r = await ctx.effects.raiseAlert({
          nodeId: node.id,
          nodeIndex: index,
          device,
          level: node.data.level,
          message: text,
          trigger,
        });
        ctx.alertId = r.alertId;
        ctx.alertOpened = r.opened;
        return { input: { level: node.data.level, message: text }, output: { alert_id: r.alertId, opened: r.opened } };
      };
    }
    case 'notification': {
      needsDevice(hasDevice, node.type);
      const message = compileTemplate(node.data.message, known);
      return async (ctx) => {
        const device = await resolveDevice(ctx, 'trigger');
        const text = message(ctx.scope);
        const sent = await ctx.effects.notify({
          nodeId: node.id,
          device,
          email: node.data.email,
          line: node.data.line,
          message: text,
          alertId: ctx.alertId,
          alertOpened: ctx.alertOpened,
        });
        return { input: { email: node.data.email, line: node.data.line, message: text }, output: sent };
      };
    }
    case 'iotRemoteControl': {
      const { device, command, timeout_ms, result_variable } = node.data;
      if (device === 'trigger') needsDevice(hasDevice, node.type);
      return async (ctx) => {
        const d = await resolveDevice(ctx, device);
        const r = await ctx.effects.command(node.id, d, command, timeout_ms);
        if (result_variable) ctx.vars.set(result_variable, r.outcome === 'ok' || r.outcome === 'recorded');
        return { input: { tangram_id: d.tangramId, command }, output: r };
      };
    }
    case 'deviceHealth': {
      const { device, prefix } = node.data;
      if (device === 'trigger') needsDevice(hasDevice, node.type);
      const [online, lastSeen, status] = FLOW_HEALTH_FIELDS.map((f) => `${prefix}_${f}`) as [string, string, string];
      return async (ctx) => {
        const d = await resolveDevice(ctx, device);
        const h = await ctx.effects.health(d);
        ctx.vars.set(online, h.online);
        ctx.vars.set(lastSeen, h.lastSeen);
        ctx.vars.set(status, h.status);
        return { input: { tangram_id: d.tangramId }, output: h };
      };
    }
    case 'deviceParallelSetting': {
      const { scope, key, action, concurrency, timeout_ms } = node.data;
      return async (ctx) => {
        const devices = await ctx.effects.devicesIn(scope);
        const command = { name: 'sensorCommand' as const, key, action };
        const results = await pMap(devices, (d) => ctx.effects.command(node.id, d, command, timeout_ms), { concurrency });
        return { input: { devices: devices.length, command }, output: summarise(results) };
      };
    }
    case 'deviceParallelControl': {
      const { scope, command, concurrency, timeout_ms, result_variable } = node.data;
      return async (ctx) => {
        const devices = await ctx.effects.devicesIn(scope);
        const results = await pMap(devices, (d) => ctx.effects.command(node.id, d, command, timeout_ms), { concurrency });
        const summary = summarise(results);
        if (result_variable) ctx.vars.set(result_variable, summary.ok);
        return { input: { devices: devices.length, command }, output: summary };
      };
    }
    case 'deviceSchedulerParallelControl': {
      const { scope, command, start_at, end_at, repeat_cron, time_zone } = node.data;
      if (repeat_cron) checkCron(repeat_cron, time_zone);
      return async (ctx) => {
        const devices = (await ctx.effects.devicesIn(scope)).slice(0, FLOW_PARALLEL_DEVICES_MAX);
        const { nextAt } = await ctx.effects.scheduleCommands({
          nodeId: node.id,
          devices,
          command,
          startAt: start_at,
          endAt: end_at,
          repeatCron: repeat_cron,
          timeZone: time_zone,
        });
        return {
          input: { devices: devices.length, command, start_at, end_at, repeat_cron },
          output: { scheduled: devices.length, next_at: nextAt },
        };
      };
    }
  }
}

/** The output of a parallel command node: sent, failed, and each device's outcome. */
export function summarise(results: Awaited<ReturnType<TFlowEffects['command']>>[]) {
  const failed = results.filter((r) => r.outcome !== 'ok' && r.outcome !== 'recorded');
  return {
    ok: failed.length === 0,
    sent: results.length,
    failed: failed.length,
    results: results.map((r) => ({ tangram_id: r.tangramId, outcome: r.outcome, error: r.error })),
  };
}
