/**
 * Alert rows as the rule engine writes them (schema-alerts.ts; docs/rules.md "Alerts"). One statement opens an
 * alert or counts another evaluation of the active one: `INSERT … ON CONFLICT (rule, device) WHERE state <>
 * 'resolved' DO UPDATE` against the partial unique index `alerts_active_uq`, so concurrent evaluations on any number
 * of replicas leave exactly one active alert; `xmax = 0` tells the one evaluation that inserted it. Flapping is
 * decided by the database in the same statement (opens of the same rule and device within the window).
 */
import { sql } from 'drizzle-orm';
import { ALERT_FLAP_OPENS, ALERT_FLAP_WINDOW_S, type TAlertLevel, type TAlertRuleKind } from '@tessera/contracts';
import { rowsOf, type Db } from '../../db/client.js';

/** Which rule of which device an alert is of: the rule's kind and id, its index in a program, the device. */
export interface TAlertRuleKey {
  kind: TAlertRuleKind;
  ruleId: number;
  ruleIndex: number;
  deviceId: number;
}

/** The flapping window in ms. */
export const FLAP_WINDOW_MS = ALERT_FLAP_WINDOW_S * 1000;

/** What an alert is raised for. */
export interface TAlertTarget extends TAlertRuleKey {
  tenantId: number;
  projectId: number;
  productId: number;
  ruleName: string;
  level: TAlertLevel;
  message: string;
}

/** The telemetry key and value that made the condition true (null: none, or its value unknown). */
export type TAlertTrigger = { key: string; value: number } | null;

/** The active alert after an evaluation touched it. Times epoch ms (server). */
export interface TAlertTouch {
  id: number;
  /** This evaluation opened it. */
  inserted: boolean;
  flapping: boolean;
  notifiedAt: number | null;
  firstSeenAt: number;
}

interface TTouchRow {
  id: number;
  inserted: boolean;
  flapping: boolean;
  notified_at: number | string | null;
  first_seen_at: number | string;
}

function touchOf(row: TTouchRow): TAlertTouch {
  return {
    id: Number(row.id),
    inserted: row.inserted === true,
    flapping: row.flapping === true,
    notifiedAt: row.notified_at === null ? null : Number(row.notified_at),
    firstSeenAt: Number(row.first_seen_at),
  };
}

const sameRule = (k: TAlertRuleKey) =>
  sql`rule_kind = ${k.kind} and rule_id = ${k.ruleId} and rule_index = ${k.ruleIndex} and device_id = ${k.deviceId}`;

/** One alert to open or refresh: its target, trigger, time (epoch ms) and how many evaluations it counts. */
export interface TAlertRaiseRow {
  target: TAlertTarget;
  trigger: TAlertTrigger;
  now: number;
  evaluations: number;
}

const keyOf = (k: TAlertRuleKey) => `${k.kind}:${k.ruleId}:${k.ruleIndex}:${k.deviceId}`;

/**
 * Opens an alert for each row's target at its `now`, or — when one is active — counts the row's evaluations on it
 * (last_seen_at, count, trigger), all in one statement. A new alert is `flapping` when the rule and device opened
 * ALERT_FLAP_OPENS − 1 others within the window; an active flapping alert stops flapping once it is the window old
 * (nothing opened since). Answers the touches in the order of `rows`, whose targets must be distinct alerts.
 *
 * Statements may run concurrently on overlapping alerts (alert-refresher.ts keeps several in flight): the trigger is
 * taken only from a row at least as new as the alert's last_seen_at, so the outcome does not depend on which
 * statement reaches a row first, and rows are written in key order, so two statements lock shared rows in the same
 * order and never deadlock.
 */
export async function upsertAlerts(db: Db, rows: readonly TAlertRaiseRow[]): Promise<TAlertTouch[]> {
  if (rows.length === 0) return [];
  const values = rows.map(({ target: a, trigger, now, evaluations }) => ({
    tenant_id: a.tenantId,
    project_id: a.projectId,
    product_id: a.productId,
    device_id: a.deviceId,
    rule_kind: a.kind,
    rule_id: a.ruleId,
    rule_index: a.ruleIndex,
    rule_name: a.ruleName,
    level: a.level,
    message: a.message,
    trigger_key: trigger?.key ?? null,
    trigger_value: trigger?.value ?? null,
    now,
    n: evaluations,
  }));
  const res = await db.execute(sql`
    insert into alerts (tenant_id, project_id, product_id, device_id, rule_kind, rule_id, rule_index, rule_name, level, message,
                        trigger_key, trigger_value, first_seen_at, last_seen_at, count, flapping)
    select v.tenant_id, v.project_id, v.product_id, v.device_id, v.rule_kind, v.rule_id, v.rule_index, v.rule_name, v.level,
           v.message, v.trigger_key, v.trigger_value, v.now, v.now, v.n,
           (select count(*) >= ${ALERT_FLAP_OPENS - 1} from alerts o
             where o.rule_kind = v.rule_kind and o.rule_id = v.rule_id and o.rule_index = v.rule_index
               and o.device_id = v.device_id and o.first_seen_at > v.now - ${FLAP_WINDOW_MS})
    from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(tenant_id int, project_id int, product_id int, device_id int,
         rule_kind text, rule_id int, rule_index int, rule_name text, level text, message text, trigger_key text,
         trigger_value float8, now bigint, n int)
    order by v.rule_kind, v.rule_id, v.rule_index, v.device_id
    on conflict (rule_kind, rule_id, rule_index, device_id) where state <> 'resolved' do update
      set last_seen_at = greatest(alerts.last_seen_at, excluded.last_seen_at),
          count = alerts.count + excluded.count,
          trigger_key = case when excluded.last_seen_at >= alerts.last_seen_at
                             then coalesce(excluded.trigger_key, alerts.trigger_key) else alerts.trigger_key end,
          trigger_value = case when excluded.last_seen_at >= alerts.last_seen_at
                               then coalesce(excluded.trigger_value, alerts.trigger_value) else alerts.trigger_value end,
          flapping = alerts.flapping and excluded.last_seen_at - alerts.first_seen_at < ${FLAP_WINDOW_MS}
    returning id, (xmax = 0) as inserted, flapping, notified_at, first_seen_at, rule_kind, rule_id, rule_index, device_id`);
  const byKey = new Map(
    rowsOf<TTouchRow & { rule_kind: TAlertRuleKind; rule_id: number; rule_index: number; device_id: number }>(res).map((r) => [
      keyOf({ kind: r.rule_kind, ruleId: Number(r.rule_id), ruleIndex: Number(r.rule_index), deviceId: Number(r.device_id) }),
      touchOf(r),
    ]),
  );
  return rows.map((r) => {
    const touch = byKey.get(keyOf(r.target));
    if (!touch) throw new Error(`alert upsert answered no row for ${keyOf(r.target)}`);
    return touch;
  });
}

/** {@link upsertAlerts} of one alert, counting one evaluation. */
export async function upsertAlert(db: Db, a: TAlertTarget, trigger: TAlertTrigger, now: number): Promise<TAlertTouch> {
  const [touch] = await upsertAlerts(db, [{ target: a, trigger, now, evaluations: 1 }]);
  return touch as TAlertTouch;
}

/** Counts an evaluation on the active alert of the rule and device, if there is one (edge trigger: never opens). */
export async function touchActiveAlert(db: Db, k: TAlertRuleKey, trigger: TAlertTrigger, now: number): Promise<TAlertTouch | null> {
  const res = await db.execute(sql`
    update alerts set last_seen_at = greatest(last_seen_at, ${now}), count = count + 1,
        trigger_key = coalesce(${trigger?.key ?? null}, trigger_key), trigger_value = coalesce(${trigger?.value ?? null}::float8, trigger_value),
        flapping = flapping and ${now} - first_seen_at < ${FLAP_WINDOW_MS}
    where ${sameRule(k)} and state <> 'resolved'
    returning id, false as inserted, flapping, notified_at, first_seen_at`);
  const row = rowsOf<TTouchRow>(res)[0];
  return row ? touchOf(row) : null;
}

/**
 * Level trigger: claims the repeat notification of an active, non-flapping alert last notified (or, never
 * notified, opened) at least `intervalMs` before `now`. One claimer wins; the others see the new notified_at.
 */
export async function claimRepeat(db: Db, alertId: number, now: number, intervalMs: number): Promise<boolean> {
  const res = await db.execute(sql`
    update alerts set notified_at = ${now}
    where id = ${alertId} and state <> 'resolved' and not flapping and coalesce(notified_at, first_seen_at) <= ${now - intervalMs}
    returning 1 as won`);
  return rowsOf(res).length > 0;
}

/** Records that people were notified of alert `alertId` at `now`. */
export async function markNotified(db: Db, alertId: number, now: number): Promise<void> {
  await db.execute(sql`update alerts set notified_at = ${now} where id = ${alertId}`);
}

/** Resolves the active alert of the rule and device because its condition became false; answers its id, or null. */
export async function resolveCleared(db: Db, k: TAlertRuleKey, now: number): Promise<number | null> {
  const res = await db.execute(sql`
    update alerts set state = 'resolved', resolved_at = ${now}, resolved_reason = 'cleared'
    where ${sameRule(k)} and state <> 'resolved'
    returning id`);
  const row = rowsOf<{ id: number }>(res)[0];
  return row ? Number(row.id) : null;
}
