/**
 * POST notification/email/test (spec §7): one test mail per address of the project's list, through the outbox
 * (the worker sends it via SMTP_URL), in the caller's language (§4 zh-TW default, en): the console's current
 * language (its Accept-Language header) when it names one Tessera speaks, else the account's saved language.
 */
import { eq } from 'drizzle-orm';
import { LANGUAGES, type TLanguage, type TNotificationEmailTestResult } from '@tessera/contracts';
import type { TAppContext } from '../../core/context.js';
import { badRequest } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import { accounts } from '../../db/schema.js';
import { readEmails } from './notification-emails.js';
import { ownedProject } from './owned-project.js';

const TEMPLATES: Record<TLanguage, (project: string, sender: string) => { subject: string; text: string }> = {
  'zh-TW': (project, sender) => ({
    subject: `Tessera 測試通知：${project}`,
    text: `這是專案「${project}」的測試通知信，由 ${sender} 寄出。\n收到這封信，表示此信箱會收到這個專案的通知。\n`,
  }),
  en: (project, sender) => ({
    subject: `Tessera test notification: ${project}`,
    text: `This is a test notification of project "${project}", sent by ${sender}.\nReceiving it means this address gets the project's notifications.\n`,
  }),
};

/** Renders the test mail of `project` in `language`. */
export function renderTestMail(language: TLanguage, project: string, sender: string): { subject: string; text: string } {
  return TEMPLATES[language](project, sender);
}

/** The supported language an Accept-Language header names first, or null (`en-US` → `en`, `zh-TW` exact). */
export function languageOfHeader(header: string | undefined): TLanguage | null {
  for (const part of (header ?? '').split(',')) {
    const tag = part.split(';')[0].trim();
    const exact = LANGUAGES.find((l) => l.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    if (tag.toLowerCase().startsWith('en')) return 'en';
  }
  return null;
}

/**
 * Queues the test mail to every address of `projectId`'s list; answers how many were queued.
 * @throws AppError 404 when the project is not the caller's tenant's; 400 when its list is empty.
 */
export async function sendTestMail(
  ctx: Pick<TAppContext, 'db' | 'mailer'>,
  principal: TPrincipal,
  projectId: number,
  acceptLanguage?: string,
): Promise<TNotificationEmailTestResult> {
  const project = await ownedProject(ctx.db, principal.tenantId, projectId);
  const emails = await readEmails(ctx.db, projectId);
  if (emails.length === 0) throw badRequest('the project has no notification emails');
  let language = languageOfHeader(acceptLanguage);
  if (!language) {
    const [caller] = await ctx.db.select({ language: accounts.language }).from(accounts).where(eq(accounts.id, principal.accountId));
    language = caller?.language ?? 'zh-TW';
  }
  const mail = renderTestMail(language, project.name, principal.email);
  for (const to of emails) await ctx.mailer.enqueue({ to, ...mail });
  return { queued: emails.length };
}
