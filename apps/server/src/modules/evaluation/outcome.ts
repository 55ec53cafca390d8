/**
 * What one evaluation of one rule for one device does (docs/rules.md "Level and edge", "Alerts"):
 * - unknown changes nothing;
 * - false, after true: the state flips (alert_rule_states) and the active alert resolves as `cleared` — for a rule
 *   with `clear_after_s`, only once the condition has been not-true that long (hysteresis);
 * - true: the alert is opened or counted (level: every true evaluation; edge: opened only on false → true, counted
 *   while active). The rule *fires* — notifications and commands — when this evaluation opened the alert, or (level)
 *   when the alert's repeat is due and claimed. A rule without an alert fires on false → true, and (level) again
 *   once per interval, claimed in alert_rule_states.
 * Every decision that two replicas could both take is taken by one conditional statement in the database.
 */
import { claimRepeat, markNotified, resolveCleared, touchActiveAlert, type TAlertTouch } from '../alerts/alert-store.js';
import { notifyActions, notifyAlert, runCommands, triggerOf } from './fire.js';
import { ruleNameOf } from './rule-set.js';
import { claimFire, writeTransition, type TRuleStateKey } from './rule-state-store.js';
import { FALSE, TRUE } from './truth.js';
import type { TEngineDeps, TEvaluation } from './types.js';

export type { TEngineDeps, TEvaluation } from './types.js';

/** What happened, for counters and tests: `opened` is a firing that opened a new alert. */
export type TOutcome = 'unknown' | 'false' | 'cleared' | 'true' | 'fired' | 'opened';

function keyOf(ev: TEvaluation): TRuleStateKey {
  return { kind: ev.unit.kind, ruleId: ev.unit.id, ruleIndex: ev.rule.index, deviceId: ev.device.id };
}

/** Level unless the project says edge; app rules are always level with their own interval. */
function modeOf(ev: TEvaluation): { level: boolean; intervalMs: number } {
  if (ev.unit.repeatMs !== undefined) return { level: true, intervalMs: ev.unit.repeatMs };
  return { level: ev.rules.ruleType === 'level', intervalMs: ev.rules.renotifyMs };
}

/** Acts on one evaluation's truth. */
export async function applyOutcome(deps: TEngineDeps, ev: TEvaluation): Promise<TOutcome> {
  if (ev.truth === FALSE) return onFalse(deps, ev);
  if (ev.truth === TRUE) return onTrue(deps, ev);
  return 'unknown';
}

async function onFalse(deps: TEngineDeps, ev: TEvaluation): Promise<TOutcome> {
  if (!ev.runtime.active) return 'false';
  // Hysteresis: an active rule with a clear delay stays active (alert open, edge not re-armed) until it has passed.
  if (ev.clearTruth !== null && ev.clearTruth !== TRUE) return 'false';
  const key = keyOf(ev);
  ev.runtime.active = false;
  if (!(await writeTransition(deps.db, key, false, ev.frame.t, null))) return 'false';
  if (!ev.rule.alert) return 'false';
  const id = await resolveCleared(deps.db, key, deps.now());
  if (id === null) return 'false';
  deps.publishAlert(id);
  return 'cleared';
}

async function onTrue(deps: TEngineDeps, ev: TEvaluation): Promise<TOutcome> {
  const { level, intervalMs } = modeOf(ev);
  const key = keyOf(ev);
  const now = deps.now();
  const becameTrue = !ev.runtime.active;
  let won = false;
  if (becameTrue) {
    ev.runtime.active = true;
    const firedAt = ev.rule.alert ? null : now;
    won = await writeTransition(deps.db, key, true, ev.frame.t, firedAt);
    if (won && firedAt !== null) ev.runtime.firedAt = firedAt;
  }
  if (ev.rule.alert) return alertRuleTrue(deps, ev, { level, intervalMs, becameTrue, now });
  let fire = becameTrue && won;
  if (!fire && !becameTrue && level && (ev.runtime.firedAt === null || ev.runtime.firedAt <= now - intervalMs)) {
    fire = await claimFire(deps.db, key, now, intervalMs);
    if (fire) ev.runtime.firedAt = now;
  }
  if (!fire) return 'true';
  await notifyActions(deps, ev, now);
  runCommands(deps, ev);
  return 'fired';
}

async function alertRuleTrue(
  deps: TEngineDeps,
  ev: TEvaluation,
  m: { level: boolean; intervalMs: number; becameTrue: boolean; now: number },
): Promise<TOutcome> {
  const alert = ev.rule.alert;
  if (!alert) return 'true';
  const key = keyOf(ev);
  const trigger = triggerOf(ev.rule, ev.frame);
  const target = {
    ...key,
    tenantId: ev.rules.tenantId,
    projectId: ev.rules.projectId,
    productId: ev.rules.productId,
    ruleName: ruleNameOf(ev.unit, ev.rule.index),
    level: alert.level,
    message: alert.message,
  };
  // Edge: only the false → true evaluation may open an alert; later ones count on the active one, if any.
  let touch: TAlertTouch | null;
  let opened = false;
  if (m.level || m.becameTrue) {
    const raise = await deps.alerts.raise(target, trigger, m.now);
    touch = raise.touch;
    opened = raise.opened;
  } else touch = await touchActiveAlert(deps.db, key, trigger, m.now);
  if (!touch) return 'true';
  deps.publishAlert(touch.id);
  let reason: 'opened' | 'repeat' | null = null;
  if (opened) reason = 'opened';
  else if (m.level && !touch.flapping && (touch.notifiedAt ?? touch.firstSeenAt) <= m.now - m.intervalMs) {
    if (await claimRepeat(deps.db, touch.id, m.now, m.intervalMs)) reason = touch.notifiedAt === null ? 'opened' : 'repeat';
  }
  if (!reason) return 'true';
  if (!touch.flapping) {
    if (opened) await markNotified(deps.db, touch.id, m.now);
    await notifyAlert(deps, ev, touch.id, reason, m.now);
  }
  runCommands(deps, ev);
  return opened ? 'opened' : 'fired';
}
