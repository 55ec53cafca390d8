/**
 * The editor's model of the 12 node types (spec §3; contracts platform-rules.ts): the data a new node starts with,
 * the fields its side-panel form shows, and a one-line summary drawn on the node. The contract's zod schema
 * (ZFlowNodeData) validates what the form produces; the server checks the whole graph at apply.
 */
import {
  ALERT_LEVELS,
  FLOW_AGGREGATION_SOURCES,
  FLOW_AGGREGATIONS,
  FLOW_NODE_TYPES,
  FLOW_RANGE_UNITS,
  FLOW_VARIABLE_TYPES,
  type TFlowNodeType,
} from '@tessera/contracts';

/** A field of a node form: where it lives in the node's data and how it is edited. */
export type TNodeField =
  | { path: string[]; kind: 'text' | 'expression' | 'template' | 'cron' | 'timezone' }
  | { path: string[]; kind: 'number'; min?: number; max?: number }
  | { path: string[]; kind: 'switch' }
  | { path: string[]; kind: 'select'; options: readonly string[]; i18n?: string }
  | { path: string[]; kind: 'tags' }
  | { path: string[]; kind: 'ids' }
  | { path: string[]; kind: 'datetime' }
  | { path: string[]; kind: 'platformTelemetry' };

const scopeFields = (at: string[]): TNodeField[] => [
  { path: [...at, 'kind'], kind: 'select', options: ['projects', 'products', 'devices'], i18n: 'platformRules.scope' },
  { path: [...at, 'ids'], kind: 'ids' },
  { path: [...at, 'tangram_ids'], kind: 'tags' },
];

const commandFields: TNodeField[] = [
  { path: ['command', 'name'], kind: 'select', options: ['getDeviceInfo', 'sensorCommand'] },
  { path: ['command', 'key'], kind: 'text' },
  { path: ['command', 'action'], kind: 'text' },
];

/** The form fields of each node type, in order. */
export const NODE_FIELDS: Record<TFlowNodeType, TNodeField[]> = {
  start: [
    { path: ['trigger', 'kind'], kind: 'select', options: ['telemetry', 'status', 'schedule', 'manual'], i18n: 'platformRules.trigger' },
    ...scopeFields(['trigger', 'scope']),
    { path: ['trigger', 'keys'], kind: 'tags' },
    { path: ['trigger', 'cron'], kind: 'cron' },
    { path: ['trigger', 'time_zone'], kind: 'timezone' },
  ],
  variable: [
    { path: ['name'], kind: 'text' },
    { path: ['var_type'], kind: 'select', options: FLOW_VARIABLE_TYPES },
    { path: ['expression'], kind: 'expression' },
  ],
  aggregation: [
    { path: ['name'], kind: 'text' },
    { path: ['fn'], kind: 'select', options: FLOW_AGGREGATIONS },
    { path: ['source'], kind: 'select', options: FLOW_AGGREGATION_SOURCES, i18n: 'platformRules.source' },
    { path: ['key'], kind: 'text' },
    { path: ['platform_telemetry_id'], kind: 'platformTelemetry' },
    { path: ['amount'], kind: 'number', min: 1, max: 1000 },
    { path: ['unit'], kind: 'select', options: FLOW_RANGE_UNITS, i18n: 'platformRules.unit' },
  ],
  condition: [{ path: ['expression'], kind: 'expression' }],
  conditionResult: [{ path: ['result'], kind: 'switch' }],
  alert: [
    { path: ['level'], kind: 'select', options: ALERT_LEVELS, i18n: 'platformRules.level' },
    { path: ['message'], kind: 'template' },
  ],
  notification: [
    { path: ['email'], kind: 'switch' },
    { path: ['line'], kind: 'switch' },
    { path: ['message'], kind: 'template' },
  ],
  iotRemoteControl: [{ path: ['device'], kind: 'text' }, ...commandFields, { path: ['timeout_ms'], kind: 'number', min: 500, max: 60_000 }],
  deviceHealth: [
    { path: ['device'], kind: 'text' },
    { path: ['prefix'], kind: 'text' },
  ],
  deviceParallelSetting: [
    ...scopeFields(['scope']),
    { path: ['key'], kind: 'text' },
    { path: ['action'], kind: 'text' },
    { path: ['concurrency'], kind: 'number', min: 1, max: 50 },
  ],
  deviceParallelControl: [...scopeFields(['scope']), ...commandFields, { path: ['concurrency'], kind: 'number', min: 1, max: 50 }],
  deviceSchedulerParallelControl: [
    ...scopeFields(['scope']),
    ...commandFields,
    { path: ['start_at'], kind: 'datetime' },
    { path: ['end_at'], kind: 'datetime' },
  ],
};

/** The data a node gets when dropped from the palette. `now` (epoch ms) seeds the scheduled command's range. */
export function defaultNodeData(type: TFlowNodeType, now: number): Record<string, unknown> {
  const scope = { kind: 'projects', ids: [] as number[] };
  switch (type) {
    case 'start':
      return { trigger: { kind: 'telemetry', scope, keys: [] } };
    case 'variable':
      return { name: '', var_type: 'float', expression: '' };
    case 'aggregation':
      return {
        name: '',
        fn: 'avg',
        source: 'device',
        device: 'trigger',
        key: '',
        slot: 1,
        platform_telemetry_id: null,
        amount: 10,
        unit: 'minute',
      };
    case 'condition':
      return { expression: '' };
    case 'conditionResult':
      return { result: true };
    case 'alert':
      return { level: 'alert', message: '' };
    case 'notification':
      return { email: true, line: false, message: '' };
    case 'iotRemoteControl':
      return { device: 'trigger', command: { name: 'getDeviceInfo' }, timeout_ms: 10_000, result_variable: null };
    case 'deviceHealth':
      return { device: 'trigger', prefix: '' };
    case 'deviceParallelSetting':
      return { scope, key: '', action: 'read', concurrency: 10, timeout_ms: 10_000 };
    case 'deviceParallelControl':
      return { scope, command: { name: 'getDeviceInfo' }, concurrency: 10, timeout_ms: 10_000, result_variable: null };
    default:
      return {
        scope,
        command: { name: 'getDeviceInfo' },
        start_at: now,
        end_at: now + 3_600_000,
        repeat_cron: null,
        time_zone: 'Asia/Taipei',
      };
  }
}

/** The palette, in the spec's order. */
export const PALETTE: readonly TFlowNodeType[] = FLOW_NODE_TYPES;

/** Reads `path` of `data`. */
export function getAt(data: unknown, path: readonly string[]): unknown {
  let v = data;
  for (const p of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return v;
}

/** A copy of `data` with `path` set to `value`. */
export function setAt(data: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined) return data;
  const child = (data[head] ?? {}) as Record<string, unknown>;
  return { ...data, [head]: rest.length === 0 ? value : setAt(child, rest, value) };
}

/** Whether a field applies to the node's current data (scope fields by scope kind, trigger fields by trigger kind). */
export function fieldApplies(type: TFlowNodeType, field: TNodeField, data: unknown): boolean {
  const last = field.path.at(-1);
  const scopeAt = field.path.slice(0, -1);
  if (last === 'ids' || last === 'tangram_ids') {
    const kind = getAt(data, [...scopeAt, 'kind']);
    return last === 'tangram_ids' ? kind === 'devices' : kind !== 'devices';
  }
  if (type === 'start') {
    const kind = getAt(data, ['trigger', 'kind']);
    if (field.path[1] === 'scope') return kind === 'telemetry' || kind === 'status';
    if (last === 'keys') return kind === 'telemetry';
    if (last === 'cron' || last === 'time_zone') return kind === 'schedule';
  }
  if (field.path[0] === 'command' && (last === 'key' || last === 'action')) return getAt(data, ['command', 'name']) === 'sensorCommand';
  if (type === 'aggregation' && (last === 'key' || last === 'platform_telemetry_id')) {
    const platform = getAt(data, ['source']) === 'platform';
    return last === 'key' ? !platform : platform;
  }
  return true;
}

/** The next free node id (`n` and the lowest number above every other). */
export function nextNodeId(ids: readonly string[]): string {
  const max = ids.reduce((m, id) => Math.max(m, Number(id.slice(1)) || 0), 0);
  return `n${max + 1}`;
}

/** A short text of what the node does, drawn under its title. */
export function nodeSummary(type: TFlowNodeType, data: Record<string, unknown>): string {
  switch (type) {
    case 'start':
      return String(getAt(data, ['trigger', 'kind']) ?? '');
    case 'variable':
    case 'aggregation':
      return `${String(data.name ?? '')}${type === 'variable' ? ` = ${String(data.expression ?? '')}` : ` = ${String(data.fn)}(${data.source === 'platform' ? `ƒ${String(data.platform_telemetry_id ?? '')}` : String(data.key ?? '')})`}`;
    case 'condition':
      return String(data.expression ?? '');
    case 'conditionResult':
      return data.result ? 'true' : 'false';
    case 'alert':
    case 'notification':
      return String(data.message ?? '');
    default:
      return String(getAt(data, ['command', 'name']) ?? data.prefix ?? '');
  }
}
