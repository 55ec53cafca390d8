/**
 * Running the assistant's tools (docs/decisions/ai.md "Assistant: tools"). Each runs on the caller's principal through
 * the same domain functions as the console's routes, so it sees exactly what the caller sees (devices/access.ts, the one
 * permission function). None writes: `propose_device_command` checks the device and the `control_device` permission
 * and answers an action for the console to show; it sends nothing. A tool's failure (a device the caller may not see,
 * a bad range) is answered to the model as `{ error }` data, never thrown.
 */
import {
  ALERT_LEVELS,
  ASSISTANT_ACTION_COMMANDS,
  ErrorCode,
  hasFeature,
  MENU_SECTIONS,
  SENSOR_READ_ACTION,
  ZSensorAction,
  ZTelemetryKey,
  type TAssistantAction,
  type TAssistantReference,
  type TAssistantToolUse,
} from '@tessera/contracts';
import { z } from 'zod';
import type { TFlowRuntime } from '../../core/context.js';
import { AppError, badRequest, forbidden } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { listAlerts } from '../alerts/list-alerts.js';
import { deviceFor } from '../devices/access.js';
import { listDevices } from '../devices/device-queries.js';
import { listRules } from '../platform-rules/rule-service.js';
import { getLatest } from '../telemetry/latest.js';
import { statisticsSummary } from '../telemetry/statistics.js';
import { platformRuleRuns, ZPlatformRuleRunsArgs } from './platform-rule-runs.js';
import type { TAssistantToolName } from './tool-definitions.js';

/** What tools need: the database and (for the platform-rule tools) the flow runtime. */
export interface TToolDeps {
  db: Db;
  flows: TFlowRuntime;
}

/** A tool's outcome: the data for the model, the `tool` event, and the proposed action (propose_device_command). */
export interface TToolOutcome {
  data: unknown;
  use: TAssistantToolUse;
  action?: TAssistantAction;
}

/** At most this many rows of a list go to the model. */
const TOOL_ROWS_MAX = 50;
const SUMMARY_MAX = 160;

const ZTangramId = z.string().trim().min(1).max(64);
const ZEpoch = z.number().int().min(0);
const ARGS = {
  list_devices: z.object({ q: z.string().trim().max(64).optional() }),
  latest_values: z.object({ tangram_id: ZTangramId }),
  history_statistics: z.object({ tangram_id: ZTangramId, key: ZTelemetryKey, from: ZEpoch, to: ZEpoch }),
  list_alerts: z.object({
    from: ZEpoch.optional(),
    to: ZEpoch.optional(),
    tangram_id: ZTangramId.optional(),
    level: z.enum(ALERT_LEVELS).optional(),
  }),
  platform_rule_status: z.object({ q: z.string().trim().max(64).optional() }),
  platform_rule_runs: ZPlatformRuleRunsArgs,
  propose_device_command: z.object({
    tangram_id: ZTangramId,
    command: z.enum(ASSISTANT_ACTION_COMMANDS),
    key: ZTelemetryKey.optional(),
    action: ZSensorAction.optional(),
  }),
} as const;

const devicePath = (tangramId: string) => `/device/detail/${tangramId}`;
const deviceRef = (tangramId: string, name: string): TAssistantReference => ({
  kind: 'device',
  label: name || tangramId,
  path: devicePath(tangramId),
});

/** True when `principal` may open some page of menu section `key` (as core/principal.ts requireSection decides). */
function grantsSection(principal: TPrincipal, key: string): boolean {
  const section = MENU_SECTIONS.find((s) => s.key === key);
  return Boolean(section?.pages.some((p) => hasFeature(principal.fea, p.code)));
}

/** One line naming the tool and its arguments, for the console's "used …" note. */
function summarise(name: string, args: Record<string, unknown>): string {
  const parts = Object.entries(args)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? JSON.stringify(v) : String(v)}`);
  const text = `${name}(${parts.join(', ')})`;
  return text.length > SUMMARY_MAX ? `${text.slice(0, SUMMARY_MAX - 1)}…` : text;
}

type TRun = (
  deps: TToolDeps,
  principal: TPrincipal,
  args: never,
) => Promise<{ data: unknown; references: TAssistantReference[]; action?: TAssistantAction }>;

const RUNNERS: Record<TAssistantToolName, TRun> = {
  async list_devices({ db }, principal, args: z.infer<typeof ARGS.list_devices>) {
    const page = await listDevices(db, principal, { page: 1, limit: TOOL_ROWS_MAX, q: args.q });
    return {
      data: {
        total: page.total_items,
        devices: page.data.map((d) => ({
          tangram_id: d.tangram_id,
          name: d.name,
          nickname: d.nickname,
          project: d.project_name,
          online: d.online,
          last_seen_at: d.last_seen_at,
        })),
      },
      references: page.data.map((d) => deviceRef(d.tangram_id, d.name)),
    };
  },
  async latest_values({ db }, principal, args: z.infer<typeof ARGS.latest_values>) {
    const device = await deviceFor(db, principal, args.tangram_id);
    const values = await getLatest(db, principal, device.tangramId);
    return {
      data: { tangram_id: device.tangramId, name: device.name, values: values.map((v) => ({ key: v.key, ts: v.ts, values: v.vs })) },
      references: [deviceRef(device.tangramId, device.name)],
    };
  },
  async history_statistics({ db }, principal, args: z.infer<typeof ARGS.history_statistics>) {
    const device = await deviceFor(db, principal, args.tangram_id);
    const { data } = await statisticsSummary(db, principal, {
      tangramIds: [device.tangramId],
      keys: [args.key],
      startTs: args.from,
      endTs: args.to,
    });
    const path = `${devicePath(device.tangramId)}/history-chart?key=${encodeURIComponent(args.key)}&from=${args.from}&to=${args.to}`;
    return {
      data: { tangram_id: device.tangramId, name: device.name, from: args.from, to: args.to, ...data[0] },
      references: [{ kind: 'chart', label: `${device.name || device.tangramId} · ${args.key}`, path }],
    };
  },
  async list_alerts({ db }, principal, args: z.infer<typeof ARGS.list_alerts>) {
    if (!grantsSection(principal, 'alerts')) throw forbidden('the alerts section is not granted to this account');
    const device = args.tangram_id ? await deviceFor(db, principal, args.tangram_id) : null;
    const page = await listAlerts(db, principal, {
      page: 1,
      limit: TOOL_ROWS_MAX,
      from: args.from,
      to: args.to,
      level: args.level,
      device: device?.tangramId,
    });
    return {
      data: {
        total: page.total_items,
        alerts: page.data.map((a) => ({
          id: a.id,
          level: a.level,
          state: a.state,
          message: a.message,
          rule: a.rule.name,
          device: { tangram_id: a.device.tangram_id, name: a.device.name },
          trigger: a.trigger,
          first_seen_at: a.first_seen_at,
          last_seen_at: a.last_seen_at,
        })),
      },
      references: page.data.map((a) => ({
        kind: 'alert' as const,
        label: `#${a.id} ${a.device.name}`,
        path: `/alerts/history?device=${a.device.tangram_id}&from=${a.first_seen_at}&to=${a.last_seen_at}`,
      })),
    };
  },
  async platform_rule_status({ db, flows }, principal, args: z.infer<typeof ARGS.platform_rule_status>) {
    if (principal.level === 'user' && !grantsSection(principal, 'platformRule')) {
      throw forbidden('the platform-rule section is not granted to this account');
    }
    const page = await listRules(db, flows, principal.tenantId, { page: 1, limit: TOOL_ROWS_MAX, q: args.q });
    const pathOf = (id: number) => (principal.level === 'user' ? '/platform_rule/list' : `/platform_rule/detail/${id}`);
    return {
      data: {
        total: page.total_items,
        rules: page.data.map((r) => ({ id: r.id, name: r.name, status: r.status, last_run_at: r.last_run_at })),
      },
      references: page.data.map((r) => ({ kind: 'rule' as const, label: r.name, path: pathOf(r.id) })),
    };
  },
  platform_rule_runs({ db, flows }, principal, args: z.infer<typeof ARGS.platform_rule_runs>) {
    return platformRuleRuns(db, flows, principal, args);
  },
  async propose_device_command({ db }, principal, args: z.infer<typeof ARGS.propose_device_command>) {
    const device = await deviceFor(db, principal, args.tangram_id, 'control_device');
    if (args.command === 'sensorCommand' && !args.key) throw badRequest('sensorCommand needs a key');
    const action: TAssistantAction = {
      tangram_id: device.tangramId,
      device_name: device.name,
      command: args.command,
      params: args.command === 'sensorCommand' ? { key: args.key ?? '', action: args.action ?? SENSOR_READ_ACTION } : null,
    };
    return {
      data: { proposed: true, sent: false, note: 'shown to the person as a button; only they can send it' },
      references: [deviceRef(device.tangramId, device.name)],
      action,
    };
  },
};

/** True for a name of a tool the assistant offers. */
export const isAssistantTool = (name: string): name is TAssistantToolName => Object.hasOwn(RUNNERS, name);

/**
 * Runs tool `name` with the model's JSON `argsText` for `principal`. Unknown tools, arguments that are not the tool's
 * JSON object, and every AppError of the domain functions (404 for a device the caller may not see, 403 without a
 * permission, 400 for a bad range) become `{ error: { code, message } }` data for the model. Other errors are thrown.
 */
export async function runAssistantTool(deps: TToolDeps, principal: TPrincipal, name: string, argsText: string): Promise<TToolOutcome> {
  let raw: unknown;
  try {
    raw = argsText.trim() ? JSON.parse(argsText) : {};
  } catch {
    raw = undefined;
  }
  const rawArgs = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const fail = (code: string, message: string): TToolOutcome => ({
    data: { error: { code, message } },
    use: { name, summary: summarise(name, rawArgs), references: [] },
  });
  if (!isAssistantTool(name)) return fail('UNKNOWN_TOOL', `there is no tool ${name}`);
  const args = ARGS[name].safeParse(raw);
  if (!args.success) return fail(ErrorCode.Validation, args.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  try {
    const out = await RUNNERS[name](deps, principal, args.data as never);
    return { data: out.data, use: { name, summary: summarise(name, args.data), references: out.references }, action: out.action };
  } catch (err) {
    if (err instanceof AppError) return fail(err.code, err.message);
    throw err;
  }
}
