/**
 * Who hears of a rule firing in their browsers (Web Push; docs/decisions/device-control.md "Push switch"): the
 * accounts of the tenant that turned the device's push switch on (`configFCMStatus`), while they may see the device
 * and hear of its alerts; an app rule reaches only its owner. Which browsers get it is the Web Push module's part.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { accounts, devicePushSettings } from '../../db/schema.js';
import type { TPushRecipient } from '../web-push/queue.js';
import { maySee } from './subscribers.js';
import type { TRuleNotification } from './types.js';

/** The accounts that hear of `n` in their browsers. */
export async function webPushRecipients(db: Db, n: TRuleNotification): Promise<TPushRecipient[]> {
  const rows = await db
    .select({ account: accounts })
    .from(devicePushSettings)
    .innerJoin(accounts, eq(accounts.id, devicePushSettings.accountId))
    .where(
      and(
        eq(devicePushSettings.deviceId, n.deviceId),
        eq(devicePushSettings.enabled, true),
        eq(accounts.tenantId, n.tenantId),
        n.ownerAccountId === undefined ? undefined : eq(accounts.id, n.ownerAccountId),
      ),
    );
  const kept: TPushRecipient[] = [];
  for (const { account } of rows)
    if (await maySee(db, account, n.deviceId)) kept.push({ accountId: account.id, language: account.language });
  return kept;
}
