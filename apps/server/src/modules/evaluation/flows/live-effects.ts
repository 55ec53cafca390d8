/**
 * The live {@link TFlowEffects} of one rule's run (docs/platform-rules.md "Effects"): every read is scoped to the
 * rule's tenant; alerts go through the alerts stage (`alerts/alert-store.ts`, kind `platform`, one open alert per
 * rule, node and device); notifications through the notifier into the outboxes; commands through the same command
 * channel and command log as remote control, with `rule: <name>` as the sender.
 */
import {
  FLOW_PARALLEL_DEVICES_MAX,
  RULE_RENOTIFY_DEFAULT_S,
  type TFlowAggregation,
  type TFlowDeviceScope,
  type TTelemetryValue,
} from '@tessera/contracts';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../../db/client.js';
import { devices, projects } from '../../../db/schema.js';
import { claimRepeat, markNotified } from '../../alerts/alert-store.js';
import { isOnline } from '../../devices/presenters.js';
import { valuePoints } from '../../telemetry-store/raw-points.js';
import type { TRuleNotifier } from '../../notifications/types.js';
import type { RuleCommands } from '../commands.js';
import type { AlertRefresher } from './alert-refresher.js';
import { storeCommandSchedule } from './command-schedules.js';
import type { RollupReader, TRollupFigures } from './rollup-reader.js';
import type { TFlowEffects } from './effects.js';

/** What the live effects need from the server. */
export interface TLiveEffectsDeps {
  db: Db;
  notifier: TRuleNotifier;
  commands: RuleCommands;
  publishAlert: (alertId: number) => void;
  /** Alert upserts, coalesced per alert (one refresher per engine). */
  alerts: AlertRefresher;
  /** Aggregation nodes' rollup reads, many runs' in one statement (one reader per engine). */
  rollups: RollupReader;
  now: () => number;
}

/** The rule a run belongs to. */
export interface TFlowRuleRef {
  id: number;
  tenantId: number;
  name: string;
}

const deviceColumns = {
  id: devices.id,
  tangramId: devices.tangramId,
  tenantId: devices.tenantId,
  projectId: devices.projectId,
  productId: projects.productId,
};

/** The SQL condition of a device scope (tenant not included). */
export function scopeCondition(scope: TFlowDeviceScope): SQL {
  if (scope.kind === 'devices')
    return inArray(
      devices.tangramId,
      scope.tangram_ids.map((t) => t.toUpperCase()),
    );
  if (scope.kind === 'projects') return inArray(devices.projectId, scope.ids);
  return inArray(projects.productId, scope.ids);
}

/** `fn` of an aggregate row: count (0 without points), else NaN without points or without the value asked. */
function aggregateOf(fn: TFlowAggregation, row: TRollupFigures | undefined): number {
  const n = Number(row?.n ?? 0);
  if (fn === 'count') return n;
  if (!row || n === 0) return Number.NaN;
  switch (fn) {
    case 'sum':
      return Number(row.s);
    case 'avg':
      return Number(row.s) / n;
    case 'min':
      return row.mn === null ? Number.NaN : Number(row.mn);
    case 'max':
      return row.mx === null ? Number.NaN : Number(row.mx);
    default:
      return row.first === null || row.last === null ? Number.NaN : Number(row.last) - Number(row.first);
  }
}

/** Buckets of minutes serve ranges up to a day; longer ranges read hour buckets. */
function bucketFor(rangeMs: number): number {
  return rangeMs <= 86_400_000 ? 60_000 : 3_600_000;
}

/** Builds the live effects of runs of `rule`. */
export function liveEffects(deps: TLiveEffectsDeps, rule: TFlowRuleRef): TFlowEffects {
  const { db } = deps;
  const inTenant = eq(devices.tenantId, rule.tenantId);
  return {
    async device(tangramId) {
      const [row] = await db
        .select(deviceColumns)
        .from(devices)
        .innerJoin(projects, eq(projects.id, devices.projectId))
        .where(and(inTenant, eq(devices.tangramId, tangramId.toUpperCase())));
      return row ?? null;
    },
    async devicesIn(scope) {
      return db
        .select(deviceColumns)
        .from(devices)
        .innerJoin(projects, eq(projects.id, devices.projectId))
        .where(and(inTenant, scopeCondition(scope)))
        .orderBy(devices.id)
        .limit(FLOW_PARALLEL_DEVICES_MAX);
    },
    async aggregate(device, key, slot, fn, fromMs, toMs) {
      const bucket = bucketFor(toMs - fromMs);
      const from = Math.floor(fromMs / bucket) * bucket;
      const figures = await deps.rollups.read({ deviceId: device.id, key, slot: slot as 1 | 2 | 3, bucketMs: bucket, fromMs: from, toMs });
      return aggregateOf(fn, figures);
    },
    async aggregatePlatform(id, fn, fromMs, toMs) {
      const res = await db.execute(sql`
        select t.id, count(p.value) as n, min(p.value) as mn, max(p.value) as mx, sum(p.value::numeric) as s,
               (array_agg(p.value order by p.ts asc))[1] as first, (array_agg(p.value order by p.ts desc))[1] as last
        from platform_telemetries t
        left join platform_telemetry_points p on p.platform_telemetry_id = t.id and p.ts > ${fromMs} and p.ts <= ${toMs}
        where t.id = ${id} and t.tenant_id = ${rule.tenantId}
        group by t.id`);
      const row = rowsOf<TRollupFigures & { id: number }>(res)[0];
      return row ? aggregateOf(fn, row) : null;
    },
    async previousValue(device, key, beforeTs) {
      if (device.tenantId !== rule.tenantId) return null;
      const res = await db.execute(sql`
        select value from ${valuePoints(device.id, key, 0, beforeTs - 1)} as v order by ts desc limit 1`);
      return rowsOf<{ value: TTelemetryValue }>(res)[0]?.value ?? null;
    },
    async health(device) {
      const [row] = await db
        .select({ lastSeenAt: devices.lastSeenAt, leftAt: devices.gatewayLeftAt, status: devices.statusValue })
        .from(devices)
        .where(and(inTenant, eq(devices.id, device.id)));
      const lastSeen = row?.lastSeenAt ?? 0;
      return { online: isOnline(row?.lastSeenAt ?? null, deps.now(), row?.leftAt ?? null), lastSeen, status: row?.status ?? -1 };
    },
    async raiseAlert(a) {
      const now = deps.now();
      const { touch, opened } = await deps.alerts.raise(
        {
          kind: 'platform',
          ruleId: rule.id,
          ruleIndex: a.nodeIndex,
          deviceId: a.device.id,
          tenantId: rule.tenantId,
          projectId: a.device.projectId,
          productId: a.device.productId,
          ruleName: rule.name,
          level: a.level,
          message: a.message,
        },
        a.trigger,
        now,
      );
      deps.publishAlert(touch.id);
      if (opened && !touch.flapping) {
        await markNotified(db, touch.id, now);
        await deps.notifier.notify({
          reason: 'opened',
          tenantId: rule.tenantId,
          projectId: a.device.projectId,
          deviceId: a.device.id,
          alertId: touch.id,
          level: a.level,
          ruleName: rule.name,
          message: a.message,
          trigger: a.trigger,
          projectEmail: false,
          projectLine: false,
          at: now,
        });
      }
      return { alertId: touch.id, opened };
    },
    async notify(n) {
      const now = deps.now();
      if (n.alertId !== null && !n.alertOpened) {
        const [project] = await db.select({ s: projects.ruleRenotifyS }).from(projects).where(eq(projects.id, n.device.projectId));
        if (!(await claimRepeat(db, n.alertId, now, (project?.s ?? RULE_RENOTIFY_DEFAULT_S) * 1000))) return 'held';
      }
      await deps.notifier.notify({
        reason: 'notify',
        tenantId: rule.tenantId,
        projectId: n.device.projectId,
        deviceId: n.device.id,
        alertId: n.alertId,
        level: null,
        ruleName: rule.name,
        message: n.message,
        trigger: null,
        projectEmail: n.email,
        projectLine: n.line,
        at: now,
      });
      return 'queued';
    },
    async command(_nodeId, device, command, timeoutMs) {
      const params = command.name === 'sensorCommand' ? { key: command.key, action: command.action } : {};
      try {
        const x = await deps.commands.exchange(device, rule.name, { name: command.name, params }, timeoutMs);
        if (x.outcome === 'ok') return { tangramId: device.tangramId, outcome: 'ok', result: x.result, error: null };
        if (x.outcome === 'device_error') return { tangramId: device.tangramId, outcome: 'device_error', result: null, error: x.error };
        return { tangramId: device.tangramId, outcome: x.outcome, result: null, error: null };
      } catch (err) {
        return { tangramId: device.tangramId, outcome: 'offline', result: null, error: (err as Error).message };
      }
    },
    async scheduleCommands(s) {
      const nextAt = await storeCommandSchedule(db, rule, { ...s, tangramIds: s.devices.map((d) => d.tangramId) }, deps.now());
      return { nextAt };
    },
  };
}
