/**
 * Recipients from the project's notification email list (spec §3 "email-notification list"; project-settings
 * notification tab). Each address reads the mail in the language of the account with that email, or zh-TW (the
 * console's default language, spec intro) when no account has it.
 */
import { inArray, sql } from 'drizzle-orm';
import type { TLanguage } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { accounts } from '../../db/schema.js';
import { readEmails } from '../project-settings/notification-emails.js';

/** One mail recipient: the address (lower-cased) and the language its mail is written in. */
export interface TMailRecipient {
  to: string;
  language: TLanguage;
}

/** The project's list as recipients, in the saved order (empty when none is saved). */
export async function projectListRecipients(db: Db, projectId: number): Promise<TMailRecipient[]> {
  const emails = await readEmails(db, projectId);
  if (emails.length === 0) return [];
  const known = await db
    .select({ email: sql<string>`lower(${accounts.email})`, language: accounts.language })
    .from(accounts)
    .where(inArray(sql`lower(${accounts.email})`, emails));
  const languageOf = new Map(known.map((a) => [a.email, a.language]));
  return emails.map((to) => ({ to, language: languageOf.get(to) ?? 'zh-TW' }));
}
