/**
 * Runs a compiled platform rule once (docs/platform-rules.md "Runs"): from the start node, depth first in edge
 * order, each node once; a condition follows only its true or false branch. Every node visited leaves a step in
 * the trace: its input, output, the variables it set (ZFlowStep), its duration and its error. The first error stops the run
 * (later nodes are not visited) and is the run's error.
 */
import type { TIngestDevice } from '../../ingest/directory.js';
import type { TFlowStep, TFlowRunOutcome, TTelemetryValue } from '@tessera/contracts';
import type { TFlowDevice, TFlowEffects } from './effects.js';
import type { TCompiledFlow, TNodeContext } from './compile-flow.js';
import { FlowRunError, type TFlowScope, type TFlowValue } from './expression.js';
import { valuesEqual } from '../value-tests.js';

/** The run's variables, remembering which were set since the last {@link TrackedVariables.takeChanges}. */
class TrackedVariables extends Map<string, TFlowValue> {
  private changed: Record<string, TFlowValue> = {};

  override set(name: string, value: TFlowValue): this {
    if (this.changed) this.changed[name] = value;
    return super.set(name, value);
  }

  /** The variables set since the last call, as a plain object. */
  takeChanges(): Record<string, TFlowValue> {
    const out = this.changed;
    this.changed = {};
    return out;
  }
}

/** The values of what started a run: a point or status word of a device, or nothing (schedule, manual). */
export interface TFlowTriggerValues {
  device: TFlowDevice | null;
  key?: string;
  ts?: number;
  values?: readonly number[];
  /** The value of a point of a non-numeric key (string, boolean or json); `values` is then absent. */
  value?: TTelemetryValue;
  status?: number;
  /** Set for a scheduled fire: its due time (epoch ms). */
  fireAt?: number;
}

/** A finished run: outcome, error, steps in order. */
export interface TFlowRunResult {
  outcome: Exclude<TFlowRunOutcome, 'refused'>;
  error: string | null;
  steps: TFlowStep[];
  durationMs: number;
}

/**
 * The trigger values as variables (`value`, `value2`, `value3`, `key`, `ts`, `status`, `tangramId`); `value` of a
 * non-numeric key is its text, boolean or JSON value.
 */
export function triggerVariables(t: TFlowTriggerValues): Map<string, TFlowValue> {
  const vars = new TrackedVariables();
  const [v1, v2, v3] = t.values ?? [];
  if (t.value !== undefined) vars.set('value', t.value);
  else if (v1 !== undefined && Number.isFinite(v1)) vars.set('value', v1);
  if (v2 !== undefined && Number.isFinite(v2)) vars.set('value2', v2);
  if (v3 !== undefined && Number.isFinite(v3)) vars.set('value3', v3);
  if (t.key !== undefined) vars.set('key', t.key);
  if (t.ts !== undefined) vars.set('ts', t.ts);
  else if (t.fireAt !== undefined) vars.set('ts', t.fireAt);
  if (t.status !== undefined) vars.set('status', t.status);
  if (t.device) vars.set('tangramId', t.device.tangramId);
  return vars;
}

/**
 * `changed()` of a run: whether the trigger's non-numeric value differs from the device's previous value of the key
 * (the newest point before the trigger's ts); null when there is none; undefined when the trigger has no such value.
 */
async function changedOf(t: TFlowTriggerValues, effects: TFlowEffects): Promise<boolean | null | undefined> {
  if (t.value === undefined || !t.device || t.key === undefined || t.ts === undefined) return undefined;
  const previous = await effects.previousValue(t.device, t.key, t.ts);
  return previous === null ? null : !valuesEqual(t.value, previous);
}

function errorText(err: unknown): string {
  if (err instanceof FlowRunError) return err.message;
  return `internal: ${err instanceof Error ? err.message : String(err)}`;
}

/** Runs `flow` on `trigger` with `effects`; `now` is the server clock (epoch ms). Never throws. */
export async function runFlow(
  flow: TCompiledFlow,
  trigger: TFlowTriggerValues,
  effects: TFlowEffects,
  now: () => number,
): Promise<TFlowRunResult> {
  const vars = triggerVariables(trigger) as TrackedVariables;
  const scope: TFlowScope = { get: (name) => vars.get(name), now };
  if (flow.usesChanged) {
    const changed = await changedOf(trigger, effects);
    if (changed !== undefined) scope.changed = () => changed;
  }
  const ctx: TNodeContext = {
    vars,
    scope,
    device: trigger.device,
    effects,
    now,
    alertId: null,
    alertOpened: false,
  };
  const steps: TFlowStep[] = [];
  const started = performance.now();
  const visited = new Set<string>();
  const stack = [flow.startId];
  let error: string | null = null;
  while (stack.length > 0 && error === null) {
    const id = stack.pop() as string;
    if (visited.has(id)) continue;
    visited.add(id);
    const node = flow.nodes.get(id);
    if (!node) continue;
    const t0 = performance.now();
    try {
      const r = await node.run(ctx);
      steps.push({
        node_id: id,
        node_type: node.type,
        input: r.input,
        output: r.output,
        variables: vars.takeChanges(),
        duration_ms: performance.now() - t0,
        error: null,
      });
      const next = r.follow ?? node.children;
      for (let i = next.length - 1; i >= 0; i--) stack.push(next[i] as string);
    } catch (err) {
      error = errorText(err);
      steps.push({
        node_id: id,
        node_type: node.type,
        input: null,
        output: null,
        variables: vars.takeChanges(),
        duration_ms: performance.now() - t0,
        error,
      });
    }
  }
  return { outcome: error === null ? 'ok' : 'error', error, steps, durationMs: performance.now() - started };
}

/** The device fields a run needs of an ingest device (its product added by the engine). */
export function deviceFields(d: TIngestDevice) {
  return { id: d.id, tangramId: d.tangramId, tenantId: d.tenantId, projectId: d.projectId };
}

/** The trigger as stored with a run (and replayed from). */
export function triggerRecord(t: TFlowTriggerValues): Record<string, unknown> {
  return {
    tangram_id: t.device?.tangramId ?? null,
    key: t.key ?? null,
    ts: t.ts ?? null,
    values: t.values ? t.values.map((v) => (Number.isFinite(v) ? v : null)) : null,
    value: t.value ?? null,
    status: t.status ?? null,
    fire_at: t.fireAt ?? null,
  };
}
