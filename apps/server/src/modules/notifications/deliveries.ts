/**
 * GET /frontstage-alert/v1/alerts/{id}/deliveries: the alert's
 * mails (`outbox_emails.alert_id`) and LINE pushes (`line_outbox.alert_id`), newest first. The alert must be visible
 * to the caller (alerts/access.ts), else 404. Vendors and admins see every delivery; a user only its own (its mail
 * address, its linked LINE user) — the project's recipient list is the vendor's business.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { TAlertDelivery, TAlertDeliveries } from '@tessera/contracts';
import { notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { accounts, alerts, lineContacts, lineOutbox, outboxEmails } from '../../db/schema.js';
import { visibleAlertsCondition } from '../alerts/access.js';

/** Every delivery of alert `alertId` the caller may see. @throws AppError 404 when the alert is not visible to it. */
export async function listAlertDeliveries(db: Db, principal: TPrincipal, alertId: number): Promise<TAlertDeliveries> {
  const [alert] = await db
    .select({ id: alerts.id, tenantId: alerts.tenantId })
    .from(alerts)
    .where(and(eq(alerts.id, alertId), visibleAlertsCondition(principal)));
  if (!alert) throw notFound('alert');
  const isUser = principal.level === 'user';
  const mails = await db
    .select()
    .from(outboxEmails)
    .where(and(eq(outboxEmails.alertId, alertId), isUser ? sql`lower(${outboxEmails.to}) = ${principal.email.toLowerCase()}` : undefined));
  const pushes = await db
    .select({ push: lineOutbox, email: accounts.email, chatName: lineContacts.name })
    .from(lineOutbox)
    .leftJoin(accounts, eq(accounts.id, lineOutbox.accountId))
    .leftJoin(lineContacts, and(eq(lineContacts.tenantId, lineOutbox.tenantId), eq(lineContacts.lineId, lineOutbox.to)))
    .where(
      and(
        eq(lineOutbox.alertId, alertId),
        eq(lineOutbox.tenantId, alert.tenantId),
        isUser ? eq(lineOutbox.accountId, principal.accountId) : undefined,
      ),
    )
    .orderBy(desc(lineOutbox.id));
  const data: TAlertDelivery[] = [
    ...mails.map((m) => ({
      id: m.id,
      channel: 'email' as const,
      to: m.to,
      status: m.status,
      attempts: m.attempts,
      last_error: m.lastError,
      sent_at: m.sentAt,
      created_at: m.createdAt,
    })),
    ...pushes.map(({ push, email, chatName }) => ({
      id: push.id,
      channel: 'line' as const,
      to: email ?? chatName ?? 'LINE',
      status: push.status,
      attempts: push.attempts,
      last_error: push.lastError,
      sent_at: push.sentAt,
      created_at: push.createdAt,
    })),
  ];
  data.sort((a, b) => b.created_at - a.created_at || a.channel.localeCompare(b.channel) || b.id - a.id);
  return { data };
}
