/**
 * What a rule does when it fires (docs/rules.md "Actions"): the notifications handed to the notifier
 * (modules/notifications: it decides who, and queues in outboxes) and the device commands. A rule that raises an
 * alert sends one notification per firing — to the channels its `notify` actions name, with the alert's message;
 * a rule without an alert sends one per `notify` action. An app rule notifies its owner only.
 */
import type { TRuleNotification } from '../notifications/types.js';
import type { TCompiledRule } from './compile-program.js';
import type { TEvalFrame } from './frame.js';
import type { TEngineDeps, TEvaluation } from './types.js';
import { ruleNameOf } from './rule-set.js';

/** The trigger shown with an alert: the condition's first telemetry value, when known. */
export function triggerOf(rule: TCompiledRule, frame: TEvalFrame): { key: string; value: number } | null {
  if (!rule.trigger) return null;
  const value = frame.values[rule.trigger.ref];
  return Number.isNaN(value) ? null : { key: rule.trigger.key, value };
}

function baseNotification(ev: TEvaluation, at: number): Omit<TRuleNotification, 'reason' | 'alertId' | 'level' | 'message'> {
  const n: Omit<TRuleNotification, 'reason' | 'alertId' | 'level' | 'message'> = {
    tenantId: ev.rules.tenantId,
    projectId: ev.rules.projectId,
    deviceId: ev.device.id,
    ruleName: ruleNameOf(ev.unit, ev.rule.index),
    trigger: triggerOf(ev.rule, ev.frame),
    projectEmail: false,
    projectLine: false,
    at,
  };
  if (ev.unit.ownerAccountId !== undefined) n.ownerAccountId = ev.unit.ownerAccountId;
  return n;
}

/** Hands a notification to the notifier; a failure is logged, never thrown into the evaluation. */
async function hand(deps: TEngineDeps, n: TRuleNotification): Promise<void> {
  try {
    await deps.notifier.notify(n);
  } catch (err) {
    deps.log.error({ err, deviceId: n.deviceId, alertId: n.alertId }, 'rule engine: notification not queued');
  }
}

/** Notifies of alert `alertId` (opened, or a level-trigger repeat). */
export async function notifyAlert(
  deps: TEngineDeps,
  ev: TEvaluation,
  alertId: number,
  reason: 'opened' | 'repeat',
  at: number,
): Promise<void> {
  const alert = ev.rule.alert;
  if (!alert) return;
  const isApp = ev.unit.ownerAccountId !== undefined;
  await hand(deps, {
    ...baseNotification(ev, at),
    reason,
    alertId,
    level: alert.level,
    message: alert.message,
    projectEmail: !isApp && ev.rule.notify.some((a) => a.channel === 'email'),
    projectLine: !isApp && ev.rule.notify.some((a) => a.channel === 'line'),
  });
}

/** Runs the `notify` actions of a rule without an alert, one notification each. */
export async function notifyActions(deps: TEngineDeps, ev: TEvaluation, at: number): Promise<void> {
  for (const a of ev.rule.notify) {
    await hand(deps, {
      ...baseNotification(ev, at),
      reason: 'notify',
      alertId: null,
      level: null,
      message: a.message,
      projectEmail: a.channel === 'email',
      projectLine: a.channel === 'line',
    });
  }
}

/** Sends the rule's commands (fire and forget); a value that is unknown when firing skips its command. */
export function runCommands(deps: TEngineDeps, ev: TEvaluation): void {
  for (const c of ev.rule.commands) {
    let params: Record<string, unknown> = {};
    if (c.value) {
      const value = c.value(ev.frame);
      if (Number.isNaN(value)) {
        deps.log.warn({ deviceId: ev.device.id, command: c.name }, 'rule engine: command value unknown; command not sent');
        continue;
      }
      params = { value };
    }
    deps.sendCommand(ev.device, ruleNameOf(ev.unit, ev.rule.index), { name: c.name, params });
  }
}
