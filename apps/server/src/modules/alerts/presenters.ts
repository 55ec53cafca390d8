/** The response shape of an alert (contracts' ZAlert), for the API and the live channel. Never a database row. */
import type { TAlert } from '@tessera/contracts';
import type { alerts } from '../../db/schema.js';

/** An alert row with the names and emails the presenter needs (read by alert-view.ts). */
export interface TAlertView {
  alert: typeof alerts.$inferSelect;
  deviceTangramId: string;
  deviceName: string;
  projectName: string;
  productName: string;
  acknowledgedByEmail: string | null;
  resolvedByEmail: string | null;
}

/** Presents an alert: names of its device, project and product; people by email; times epoch ms. */
export function presentAlert(view: TAlertView): TAlert {
  const a = view.alert;
  return {
    id: a.id,
    level: a.level,
    state: a.state,
    message: a.message,
    rule: { kind: a.ruleKind, id: a.ruleId, index: a.ruleIndex, name: a.ruleName },
    device: { id: a.deviceId, tangram_id: view.deviceTangramId, name: view.deviceName },
    project: { id: a.projectId, name: view.projectName },
    product: { id: a.productId, name: view.productName },
    trigger: a.triggerKey !== null && a.triggerValue !== null ? { key: a.triggerKey, value: a.triggerValue } : null,
    first_seen_at: a.firstSeenAt,
    last_seen_at: a.lastSeenAt,
    count: a.count,
    flapping: a.flapping,
    acknowledged_at: a.acknowledgedAt,
    acknowledged_by: view.acknowledgedByEmail,
    resolved_at: a.resolvedAt,
    resolved_by: view.resolvedByEmail,
    resolved_reason: a.resolvedReason,
  };
}
