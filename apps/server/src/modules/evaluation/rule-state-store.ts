/**
 * `alert_rule_states` (schema-alerts.ts): what must survive restarts and be shared by replicas, per (rule, device),
 * written only when it changes — the condition's last definite truth, the device ts of that change, and when the
 * rule last fired. `held` timers are rows of the same table with a negative rule index ({@link heldRowIndex}):
 * active = its inner condition is true, changed_at = since when. Every write is conditional on not being older than
 * what is stored (`last_point_ts`), so two replicas cannot move a state backwards.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { TAlertRuleKind } from '@tessera/contracts';
import { rowsOf, type Db } from '../../db/client.js';
import { alertRuleStates } from '../../db/schema.js';
import type { TAlertRuleKey } from '../alerts/alert-store.js';

/** One rule of one unit (simple rule, program, app rule) for one device. */
export type TRuleStateKey = TAlertRuleKey;

/** A stored row. Times epoch ms (`changedAt`, `lastPointTs` device ts; `firedAt` server time). */
export interface TStoredRuleState {
  kind: TAlertRuleKind;
  ruleId: number;
  ruleIndex: number;
  active: boolean;
  changedAt: number;
  lastPointTs: number;
  firedAt: number | null;
}

/** Held nodes per rule that the row index can address (a program has at most 200 blocks). */
const HELD_PER_RULE = 256;

/** The row index of held node `slot` of rule `ruleIndex`: negative, so it never meets an alert's rule index. */
export function heldRowIndex(ruleIndex: number, slot: number): number {
  return -1 - (ruleIndex * HELD_PER_RULE + slot);
}

/** The (rule index, slot) of a negative row index. */
export function heldSlotOf(rowIndex: number): { ruleIndex: number; slot: number } {
  const n = -1 - rowIndex;
  return { ruleIndex: Math.floor(n / HELD_PER_RULE), slot: n % HELD_PER_RULE };
}

/** Key of a state in the engine's maps. */
export function stateId(kind: TAlertRuleKind, ruleId: number, ruleIndex: number): string {
  return `${kind}:${ruleId}:${ruleIndex}`;
}

/** Every stored state (rule states and held timers) of `deviceId` for the given rules, by {@link stateId}. */
export async function loadRuleStates(
  db: Db,
  deviceId: number,
  rules: readonly { kind: TAlertRuleKind; ruleId: number }[],
): Promise<Map<string, TStoredRuleState>> {
  const out = new Map<string, TStoredRuleState>();
  if (rules.length === 0) return out;
  const wanted = new Set(rules.map((r) => `${r.kind}:${r.ruleId}`));
  const rows = await db
    .select()
    .from(alertRuleStates)
    .where(
      and(
        inArray(alertRuleStates.ruleKind, [...new Set(rules.map((r) => r.kind))]),
        inArray(alertRuleStates.ruleId, [...new Set(rules.map((r) => r.ruleId))]),
        eq(alertRuleStates.deviceId, deviceId),
      ),
    );
  for (const r of rows) {
    if (!wanted.has(`${r.ruleKind}:${r.ruleId}`)) continue;
    out.set(stateId(r.ruleKind, r.ruleId, r.ruleIndex), {
      kind: r.ruleKind,
      ruleId: r.ruleId,
      ruleIndex: r.ruleIndex,
      active: r.active,
      changedAt: Number(r.changedAt),
      lastPointTs: Number(r.lastPointTs),
      firedAt: r.firedAt === null ? null : Number(r.firedAt),
    });
  }
  return out;
}

/**
 * Records that the condition became `active` at device ts `t` (and, with `firedAt`, that the rule fired now).
 * Answers false when the stored state already says so or is newer — another replica got there first.
 */
export async function writeTransition(db: Db, key: TRuleStateKey, active: boolean, t: number, firedAt: number | null): Promise<boolean> {
  const res = await db.execute(sql`
    insert into alert_rule_states (rule_kind, rule_id, rule_index, device_id, active, changed_at, last_point_ts, fired_at)
    values (${key.kind}, ${key.ruleId}, ${key.ruleIndex}, ${key.deviceId}, ${active}, ${t}, ${t}, ${firedAt})
    on conflict (rule_kind, rule_id, rule_index, device_id) do update
      set active = excluded.active, changed_at = excluded.changed_at, last_point_ts = excluded.last_point_ts,
          fired_at = coalesce(excluded.fired_at, alert_rule_states.fired_at)
      where alert_rule_states.active <> excluded.active and alert_rule_states.last_point_ts <= excluded.last_point_ts
    returning 1 as won`);
  return rowsOf(res).length > 0;
}

/**
 * Level trigger: claims the right to fire again at `now` when the rule last fired at least `intervalMs` ago (or
 * never). Exactly one of concurrent claimers wins (the row lock serialises them; the loser sees the new fired_at).
 */
export async function claimFire(db: Db, key: TRuleStateKey, now: number, intervalMs: number): Promise<boolean> {
  const res = await db.execute(sql`
    update alert_rule_states set fired_at = ${now}
    where rule_kind = ${key.kind} and rule_id = ${key.ruleId} and rule_index = ${key.ruleIndex} and device_id = ${key.deviceId}
      and active and (fired_at is null or fired_at <= ${now - intervalMs})
    returning 1 as won`);
  return rowsOf(res).length > 0;
}

/** Stores a held timer: `since` (device ts) or NaN when its condition is not true; `t` orders the writes. */
export async function writeHeld(db: Db, key: TRuleStateKey, since: number, t: number): Promise<void> {
  const active = !Number.isNaN(since);
  await db.execute(sql`
    insert into alert_rule_states (rule_kind, rule_id, rule_index, device_id, active, changed_at, last_point_ts)
    values (${key.kind}, ${key.ruleId}, ${key.ruleIndex}, ${key.deviceId}, ${active}, ${active ? since : t}, ${t})
    on conflict (rule_kind, rule_id, rule_index, device_id) do update
      set active = excluded.active, changed_at = excluded.changed_at, last_point_ts = excluded.last_point_ts
      where alert_rule_states.last_point_ts <= excluded.last_point_ts`);
}
