/**
 * Queues browser notifications (the notifier decides who hears: notifications/dispatch.ts): one outbox row per push
 * subscription of each recipient account, written in the caller's transaction, so they are sent only if it commits.
 */
import { inArray } from 'drizzle-orm';
import type { TLanguage, TWebPushPayload } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { webPushOutbox, webPushSubscriptions } from '../../db/schema.js';

/** Anything that runs Drizzle statements: the database or a transaction. */
type TDbOrTx = Pick<Db, 'select' | 'insert'>;

/** An account that hears of an alert in its browsers, in its language. */
export interface TPushRecipient {
  accountId: number;
  language: TLanguage;
}

/**
 * Queues `render(language)` to every browser subscription of `recipients`, about `alertId`; answers how many.
 */
export async function queueWebPush(
  tx: TDbOrTx,
  recipients: readonly TPushRecipient[],
  alertId: number | null,
  render: (language: TLanguage) => TWebPushPayload,
): Promise<number> {
  if (recipients.length === 0) return 0;
  const language = new Map(recipients.map((r) => [r.accountId, r.language]));
  const subs = await tx
    .select({ id: webPushSubscriptions.id, accountId: webPushSubscriptions.accountId })
    .from(webPushSubscriptions)
    .where(inArray(webPushSubscriptions.accountId, [...language.keys()]));
  if (subs.length === 0) return 0;
  // One rendering per language, however many browsers read it.
  const payloads = new Map<TLanguage, string>();
  const payloadOf = (l: TLanguage): string => {
    const cached = payloads.get(l);
    if (cached !== undefined) return cached;
    const rendered = JSON.stringify(render(l));
    payloads.set(l, rendered);
    return rendered;
  };
  await tx.insert(webPushOutbox).values(
    subs.map((s) => ({
      subscriptionId: s.id,
      accountId: s.accountId,
      alertId,
      payload: payloadOf(language.get(s.accountId) ?? 'zh-TW'),
    })),
  );
  return subs.length;
}
