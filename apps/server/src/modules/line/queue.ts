/**
 * Queuing LINE pushes (docs/decisions/line.md): rows in `line_outbox`, one per (text, LINE
 * target), sent by the push worker. These are the entry points of the notification dispatcher
 * (modules/notifications); every function takes a `db` that may be an open transaction, so the pushes are queued
 * only if it commits.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { LINE_TEXT_MAX, type TLanguage } from '@tessera/contracts';
import { OUTBOX } from '../outbox/outbox-loop.js';
import type { Db } from '../../db/client.js';
import {
  accounts,
  lineAccountLinks,
  lineContacts,
  lineGroupProjects,
  lineGroups,
  lineOfficialAccounts,
  lineOutbox,
} from '../../db/schema.js';
import type { TRuleNotification } from '../notifications/types.js';
import { readMembers } from './members.js';

/** Renders a notification's LINE text for a reader of `language` (group chats read zh-TW, the default of §4). */
export type TLineTextRenderer = (language: TLanguage) => string;

/** One push to queue. */
export interface TLinePush {
  tenantId: number;
  to: string;
  text: string;
  alertId: number | null;
  groupId: number | null;
  accountId: number | null;
}

/**
 * Inserts `pushes` as pending rows (each with its own retry key); answers their ids. The caller nudges the outbox's
 * LINE worker once its transaction committed (`ctx.outbox.nudge('line')`).
 * `leased`: the caller sends them itself at once (push-worker.ts `deliverNow`), so the workers leave them alone for
 * one lease and take over only if that send never finishes.
 */
export async function enqueueLinePushes(db: Db, pushes: TLinePush[], opts: { leased?: boolean } = {}): Promise<number[]> {
  if (pushes.length === 0) return [];
  const nextAttemptAt = opts.leased ? Date.now() + OUTBOX.leaseMs : 0;
  const rows = await db
    .insert(lineOutbox)
    .values(
      pushes.map((p) => ({
        ...p,
        text: p.text.slice(0, LINE_TEXT_MAX),
        status: 'pending' as const,
        nextAttemptAt,
        retryKey: randomUUID(),
      })),
    )
    .returning({ id: lineOutbox.id });
  return rows.map((r) => r.id);
}

async function hasChannel(db: Db, tenantId: number): Promise<boolean> {
  const [row] = await db
    .select({ t: lineOfficialAccounts.tenantId })
    .from(lineOfficialAccounts)
    .where(eq(lineOfficialAccounts.tenantId, tenantId));
  return Boolean(row);
}

/**
 * Queues a rule notification to the LINE groups of its project: every message-flow group of `n.tenantId` whose
 * projects include `n.projectId` and whose levels include `n.level` (a `notify` action without a level, `level`
 * null, goes to all the project's groups) gets `render(language)`, one row per deliverable member; a LINE user or
 * chat in several of those groups gets it once. Call it when `n.projectLine` is set. Nothing is queued when the
 * tenant has no Line official account.
 * @returns how many pushes were queued, and the accounts they reach (so the caller does not push to them again).
 */
export async function queueLineForProject(
  db: Db,
  n: TRuleNotification,
  render: TLineTextRenderer,
): Promise<{ pushes: number; accountIds: Set<number> }> {
  const accountIds = new Set<number>();
  if (!(await hasChannel(db, n.tenantId))) return { pushes: 0, accountIds };
  const groups = await db
    .select({ id: lineGroups.id, levels: lineGroups.levels })
    .from(lineGroups)
    .innerJoin(lineGroupProjects, eq(lineGroupProjects.groupId, lineGroups.id))
    .where(and(eq(lineGroups.tenantId, n.tenantId), eq(lineGroupProjects.projectId, n.projectId)));
  const groupIds = groups.filter((g) => n.level === null || g.levels.includes(n.level)).map((g) => g.id);
  const texts = new Map<TLanguage, string>();
  const textFor = (language: TLanguage) => texts.get(language) ?? texts.set(language, render(language)).get(language)!;
  const seen = new Set<string>();
  const pushes: TLinePush[] = [];
  for (const m of await readMembers(db, groupIds)) {
    if (!m.deliverable || !m.to || seen.has(m.to)) continue;
    seen.add(m.to);
    pushes.push({
      tenantId: n.tenantId,
      to: m.to,
      text: textFor(m.language),
      alertId: n.alertId,
      groupId: m.groupId,
      accountId: m.kind === 'account' ? m.id : null,
    });
  }
  await enqueueLinePushes(db, pushes);
  for (const p of pushes) if (p.accountId !== null) accountIds.add(p.accountId);
  return { pushes: pushes.length, accountIds };
}

/**
 * Queues `text` (already rendered in the account's language) to account `accountId`'s linked LINE user, for a
 * user's own subscription.
 * @returns false (nothing queued) when the account is not in `tenantId`, has no LINE link, its LINE user blocked
 * the bot, or the tenant has no Line official account.
 */
export async function queueLineToAccount(
  db: Db,
  tenantId: number,
  accountId: number,
  text: string,
  alertId: number | null,
): Promise<boolean> {
  if (!(await hasChannel(db, tenantId))) return false;
  const [link] = await db
    .select({ to: lineAccountLinks.lineUserId, active: lineContacts.active })
    .from(lineAccountLinks)
    .innerJoin(accounts, and(eq(accounts.id, lineAccountLinks.accountId), eq(accounts.tenantId, tenantId)))
    .leftJoin(lineContacts, and(eq(lineContacts.tenantId, tenantId), eq(lineContacts.lineId, lineAccountLinks.lineUserId)))
    .where(and(eq(lineAccountLinks.accountId, accountId), eq(lineAccountLinks.tenantId, tenantId)));
  if (!link || link.active === false) return false;
  await enqueueLinePushes(db, [{ tenantId, to: link.to, text, alertId, groupId: null, accountId }]);
  return true;
}
