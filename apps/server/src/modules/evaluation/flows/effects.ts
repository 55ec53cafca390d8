/**
 * What a platform-rule run may do outside itself (docs/platform-rules.md "Effects"): read a device's aggregates and
 * health, raise alerts, notify, command devices. The engine hands a run the live effects; a replay hands it
 * {@link recordingEffects}, which reads for real but records every write and send instead of doing it.
 */
import type { TAlertLevel, TFlowAggregation, TFlowCommand, TFlowDeviceScope, TTelemetryValue } from '@tessera/contracts';
import { firstSendAt, type TCommandTiming } from './command-timing.js';

/** A device as a run sees it. */
export interface TFlowDevice {
  id: number;
  tangramId: string;
  tenantId: number;
  projectId: number;
  productId: number;
}

/** A device command's outcome: `ok` with the device's result, or the failure. */
export interface TFlowCommandOutcome {
  tangramId: string;
  outcome: 'ok' | 'device_error' | 'timeout' | 'offline' | 'recorded';
  result: unknown;
  error: string | null;
}

/** One side effect as recorded in a run (the trace's `effects`). */
export interface TFlowEffectRecord {
  node_id: string;
  kind: 'alert' | 'notification' | 'command' | 'schedule';
  detail: unknown;
}

/** The outside world of a run. Every call is scoped to the rule's tenant by the implementation. */
export interface TFlowEffects {
  /** Devices of the tenant by Tangram ID (null: none of the tenant's). */
  device(tangramId: string): Promise<TFlowDevice | null>;
  /** The tenant's devices in `scope`, at most FLOW_PARALLEL_DEVICES_MAX. */
  devicesIn(scope: TFlowDeviceScope): Promise<TFlowDevice[]>;
  /** fn of `key`'s value `slot` over (fromMs, toMs] from the rollups; NaN when there is no point (count: 0). */
  aggregate(device: TFlowDevice, key: string, slot: number, fn: TFlowAggregation, fromMs: number, toMs: number): Promise<number>;
  /**
   * fn of platform telemetry `id`'s stored series (a point a minute) over (fromMs, toMs]; NaN when it has no point
   * there (count: 0); null when `id` is not one of the tenant's platform telemetries.
   */
  aggregatePlatform(id: number, fn: TFlowAggregation, fromMs: number, toMs: number): Promise<number | null>;
  /**
   * The value of `device`'s newest point of non-numeric `key` before `beforeTs` (epoch ms), null when there is none
   * (what `changed()` compares the trigger's value with).
   */
  previousValue(device: TFlowDevice, key: string, beforeTs: number): Promise<TTelemetryValue | null>;
  /** Online state, last seen (epoch ms, 0: never) and the latest status word (−1: none). */
  health(device: TFlowDevice): Promise<{ online: boolean; lastSeen: number; status: number }>;
  /** Opens or refreshes the one open alert of (rule, node, device); answers its id and whether it was opened now. */
  raiseAlert(a: {
    nodeId: string;
    nodeIndex: number;
    device: TFlowDevice;
    level: TAlertLevel;
    message: string;
    /** The telemetry point of a telemetry-triggered run (the alert's `trigger`), else null. */
    trigger: { key: string; value: number } | null;
  }): Promise<{
    alertId: number;
    opened: boolean;
  }>;
  /**
   * Queues an email and/or LINE notification about `device` (the project's recipients). One about an alert this run
   * did not open is held (`held`) unless the project's re-notify interval has passed since people last heard of it.
   */
  notify(n: {
    nodeId: string;
    device: TFlowDevice;
    email: boolean;
    line: boolean;
    message: string;
    alertId: number | null;
    alertOpened: boolean;
  }): Promise<'queued' | 'held'>;
  /** Sends one command and waits for the reply at most `timeoutMs`. */
  command(nodeId: string, device: TFlowDevice, command: TFlowCommand, timeoutMs: number): Promise<TFlowCommandOutcome>;
  /**
   * Stores the command schedule of node `nodeId` (replacing its previous one): `command` to `devices` inside
   * [`startAt`, `endAt`] (epoch ms), once or on `repeatCron` in `timeZone` (evaluation/flows/command-schedules.ts).
   * Answers the first send time, null when the window has passed.
   */
  scheduleCommands(s: TFlowScheduleRequest): Promise<{ nextAt: number | null }>;
}

/** What a `deviceSchedulerParallelControl` node asks to schedule. */
export interface TFlowScheduleRequest extends TCommandTiming {
  nodeId: string;
  devices: TFlowDevice[];
  command: TFlowCommand;
}

/**
 * Effects for a replay: reads (`device`, `devicesIn`, `aggregate`, `previousValue`, `health`) go to `live`; alerts, notifications,
 * commands and schedules are only pushed onto `records` (a command answers `recorded`).
 */
export function recordingEffects(live: TFlowEffects, records: TFlowEffectRecord[]): TFlowEffects {
  return {
    device: (t) => live.device(t),
    devicesIn: (s) => live.devicesIn(s),
    aggregate: (...args) => live.aggregate(...args),
    aggregatePlatform: (...args) => live.aggregatePlatform(...args),
    previousValue: (...args) => live.previousValue(...args),
    health: (d) => live.health(d),
    async raiseAlert(a) {
      records.push({ node_id: a.nodeId, kind: 'alert', detail: { tangram_id: a.device.tangramId, level: a.level, message: a.message } });
      return { alertId: 0, opened: false };
    },
    async notify(n) {
      records.push({
        node_id: n.nodeId,
        kind: 'notification',
        detail: { tangram_id: n.device.tangramId, email: n.email, line: n.line, message: n.message },
      });
      return 'queued';
    },
    async command(nodeId, device, command) {
      records.push({ node_id: nodeId, kind: 'command', detail: { tangram_id: device.tangramId, command } });
      return { tangramId: device.tangramId, outcome: 'recorded', result: null, error: null };
    },
    async scheduleCommands(s) {
      const nextAt = firstSendAt(s, Date.now());
      records.push({
        node_id: s.nodeId,
        kind: 'schedule',
        detail: {
          tangram_ids: s.devices.map((d) => d.tangramId),
          command: s.command,
          start_at: s.startAt,
          end_at: s.endAt,
          repeat_cron: s.repeatCron,
          next_at: nextAt,
        },
      });
      return { nextAt };
    },
  };
}
