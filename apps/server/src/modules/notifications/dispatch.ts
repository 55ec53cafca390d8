/**
 * The notifier the rule engine calls (types.ts; docs/decisions/notifications.md): works out who hears of a rule
 * firing — the project's email list, the project's LINE groups, users' own subscriptions, an app rule's owner —
 * and queues every delivery (outbox_emails with alert_id, line_outbox, web_push_outbox) in one transaction: one mail
 * per address, one personal LINE push per account, one browser notification per browser of the accounts whose push
 * switch of the device is on.
 */
import { eq } from 'drizzle-orm';
import type { TAppContext } from '../../core/context.js';
import { devices, projects } from '../../db/schema.js';
import { queueLineForProject, queueLineToAccount } from '../line/queue.js';
import { projectListRecipients, type TMailRecipient } from './project-list.js';
import { subscribersFor } from './subscribers.js';
import { queueWebPush } from '../web-push/queue.js';
import { webPushRecipients } from './push-recipients.js';
import { renderAlertLine, renderAlertMail, renderAlertPush, type TAlertMailData } from './templates.js';
import type { TRuleNotification, TRuleNotifier } from './types.js';

/** The console page a mail links to: the alert history, narrowed to the alert's device. */
export function alertHistoryLink(config: TAppContext['config'], tangramId: string): string {
  const base = config.publicUrl ?? `http://localhost:${config.port}`;
  return `${base}/alerts/history?device=${encodeURIComponent(tangramId)}`;
}

/** Builds the notifier over `ctx.db`, `ctx.mailer` (the mail outbox) and the LINE outbox (modules/line/queue.ts). */
export function createRuleNotifier(ctx: TAppContext): TRuleNotifier {
  const { db, log } = ctx;
  return {
    async notify(n: TRuleNotification) {
      const [target] = await db
        .select({ projectName: projects.name, deviceName: devices.name, tangramId: devices.tangramId })
        .from(devices)
        .innerJoin(projects, eq(projects.id, devices.projectId))
        .where(eq(devices.id, n.deviceId));
      if (!target) return;
      const isAppRule = n.ownerAccountId !== undefined;
      // One mail per address: the first path that reaches an address decides its language (same account, same one).
      const mails = new Map<string, TMailRecipient>();
      if (n.projectEmail && !isAppRule) {
        for (const r of await projectListRecipients(db, n.projectId)) mails.set(r.to, r);
      }
      const subscribers = await subscribersFor(db, n);
      for (const s of subscribers) {
        if (s.channels.includes('email') && !mails.has(s.email)) mails.set(s.email, { to: s.email, language: s.language });
      }
      const data: TAlertMailData = { ...n, ...target, link: alertHistoryLink(ctx.config, target.tangramId) };
      const browsers = await webPushRecipients(db, n);
      let linePushes = 0;
      let webPushes = 0;
      await db.transaction(async (tx) => {
        for (const r of mails.values()) {
          await ctx.mailer.enqueue({ to: r.to, ...renderAlertMail(r.language, data), alertId: n.alertId }, tx);
        }
        let reached = new Set<number>();
        if (n.projectLine && !isAppRule) {
          const queued = await queueLineForProject(tx, n, (language) => renderAlertLine(language, data));
          linePushes += queued.pushes;
          reached = queued.accountIds;
        }
        for (const s of subscribers) {
          if (!s.channels.includes('line') || reached.has(s.accountId)) continue;
          if (await queueLineToAccount(tx, n.tenantId, s.accountId, renderAlertLine(s.language, data), n.alertId)) linePushes += 1;
        }
        webPushes = await queueWebPush(tx, browsers, n.alertId, (language) => renderAlertPush(language, { ...data, alertId: n.alertId }));
      });
      if (linePushes > 0) ctx.outbox.nudge('line');
      if (webPushes > 0) ctx.outbox.nudge('web-push');
      log.debug({ alertId: n.alertId, deviceId: n.deviceId, mails: mails.size, linePushes, webPushes }, 'rule notification queued');
    },
  };
}
