/** Rows → API shapes of the notification routes (never a database row on the wire). */
import type { TSubscription } from '@tessera/contracts';
import type { alertSubscriptions } from '../../db/schema.js';
import type { TScopeTarget } from './scope.js';

/** An `alert_subscriptions` row. */
export type TSubscriptionRow = typeof alertSubscriptions.$inferSelect;

/** ZSubscription of `target` with its saved row, or the empty unsaved one when `row` is null. */
export function presentSubscription(target: TScopeTarget, row: TSubscriptionRow | null): TSubscription {
  return {
    scope: target.device ? 'device' : 'project',
    project: target.project,
    device: target.device ? { tangram_id: target.device.tangramId, name: target.device.name } : null,
    levels: row?.levels ?? [],
    channels: row?.channels ?? [],
    saved: row !== null,
    updated_at: row?.updatedAt ?? null,
  };
}
