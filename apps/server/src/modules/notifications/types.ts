/**
 * The hand-off from the rule engine to notification delivery: the engine decides *that*
 * people should hear of a rule firing (new alert, level-trigger repeat after the project's interval, a `notify`
 * action; flapping already held back); the notifier decides *who* (the project's email list, LINE groups, users'
 * own subscriptions) and queues the deliveries in outboxes, so nothing is lost when SMTP or LINE is down.
 */
import type { TAlertLevel } from '@tessera/contracts';

/** Why the engine notifies: an alert opened, an open alert repeats (level trigger), or a rule's `notify` action. */
export type TRuleNotificationReason = 'opened' | 'repeat' | 'notify';

/** One rule firing that people should hear of. Times epoch ms. */
export interface TRuleNotification {
  reason: TRuleNotificationReason;
  tenantId: number;
  projectId: number;
  deviceId: number;
  /** The alert this is about; null for a `notify` action of a rule that raises no alert. */
  alertId: number | null;
  /** The alert level; null for a `notify` action without an alert (users' level subscriptions then do not apply). */
  level: TAlertLevel | null;
  ruleName: string;
  /** The rule's text (alert message or notify message), as the vendor wrote it. */
  message: string;
  /** The telemetry key and value that made the condition true, when there is one. */
  trigger: { key: string; value: number } | null;
  /** The rule asks for the project's notification email list (simple rule `notify_email`, `notify` email action). */
  projectEmail: boolean;
  /** The rule asks for the project's LINE groups (simple rule `notify_line`, `notify` line action). */
  projectLine: boolean;
  /** When the rule fired (server time). */
  at: number;
  /**
   * Set for a user's app rule (`userRules`): only this account hears of it, by the channels of its own subscription
   * for the device (email when it saved none), and only while it may see the device; `projectEmail`/`projectLine`
   * are then ignored.
   */
  ownerAccountId?: number;
}

/** Queues the deliveries of a {@link TRuleNotification}; resolves once they are in the outboxes (committed). */
export interface TRuleNotifier {
  notify(notification: TRuleNotification): Promise<void>;
}
