/**
 * Who hears of a rule firing through their own subscriptions (docs/decisions/notifications.md "Subscriptions"): per
 * account, its device subscription overrides its project subscription; it matches when the notification's level is
 * among its levels. An app rule (`ownerAccountId`) reaches only its owner. Nobody hears of a device it may no longer
 * see (devices/access.ts), whatever it saved.
 */
import { and, eq, or } from 'drizzle-orm';
import type { TLanguage, TNotifyChannel } from '@tessera/contracts';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { accounts, alertSubscriptions, devices } from '../../db/schema.js';
import { visibleDevicesCondition } from '../devices/access.js';
import type { TRuleNotification } from './types.js';

/** An account that should hear of a notification, and by which channels (never empty). */
export interface TSubscriber {
  accountId: number;
  email: string;
  language: TLanguage;
  channels: TNotifyChannel[];
}

type TAccountRow = typeof accounts.$inferSelect;
type TSubscriptionRow = typeof alertSubscriptions.$inferSelect;

/** The subscribers of `n`, each once. */
export async function subscribersFor(db: Db, n: TRuleNotification): Promise<TSubscriber[]> {
  if (n.ownerAccountId === undefined && n.level === null) return [];
  const rows = await db
    .select({ account: accounts, subscription: alertSubscriptions })
    .from(alertSubscriptions)
    .innerJoin(accounts, eq(accounts.id, alertSubscriptions.accountId))
    .where(
      and(
        eq(accounts.tenantId, n.tenantId),
        or(eq(alertSubscriptions.deviceId, n.deviceId), eq(alertSubscriptions.projectId, n.projectId)),
        n.ownerAccountId === undefined ? undefined : eq(accounts.id, n.ownerAccountId),
      ),
    );
  const effective = new Map<number, { account: TAccountRow; subscription: TSubscriptionRow }>();
  for (const row of rows) {
    const seen = effective.get(row.account.id);
    if (!seen || row.subscription.scope === 'device') effective.set(row.account.id, row);
  }
  const chosen: { account: TAccountRow; channels: TNotifyChannel[] }[] = [];
  if (n.ownerAccountId !== undefined) {
    const saved = effective.get(n.ownerAccountId);
    const owner = saved?.account ?? (await accountById(db, n.ownerAccountId));
    const channels = saved?.subscription.channels ?? ['email'];
    if (owner && owner.tenantId === n.tenantId && channels.length > 0) chosen.push({ account: owner, channels });
  } else {
    for (const { account, subscription } of effective.values()) {
      if (n.level && subscription.levels.includes(n.level) && subscription.channels.length > 0) {
        chosen.push({ account, channels: subscription.channels });
      }
    }
  }
  const kept: TSubscriber[] = [];
  // One query per subscriber: subscribers of one device are few.
  for (const { account, channels } of chosen) {
    if (await maySee(db, account, n.deviceId)) {
      kept.push({ accountId: account.id, email: account.email.toLowerCase(), language: account.language, channels });
    }
  }
  return kept;
}

async function accountById(db: Db, id: number): Promise<TAccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
  return row;
}

/** True when account `a` may see device `deviceId` and hear of its alerts (receive_alerts, devices/access.ts). */
export async function maySee(db: Db, a: TAccountRow, deviceId: number): Promise<boolean> {
  const principal: TPrincipal = { accountId: a.id, tenantId: a.tenantId, email: a.email, level: a.level, fea: a.features, via: 'jwt' };
  const [visible] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.id, deviceId), visibleDevicesCondition(principal, 'receive_alerts')));
  return visible !== undefined;
}
