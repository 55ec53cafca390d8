/**
 * Checks an address typed into the notification list before it is added, with the contracts' rules (ZEmail,
 * case-insensitive uniqueness, NOTIFICATION_EMAILS_MAX), so the console refuses what the server would.
 */
import { NOTIFICATION_EMAILS_MAX, ZEmail } from '@tessera/contracts';

/** Why an address cannot be added (an i18n key under `projectSettings.notification.`), or the normalised address. */
export type TEmailDraft = { ok: true; email: string } | { ok: false; reason: 'required' | 'invalid' | 'duplicate' | 'tooMany' };

/** Validates `input` against the current `list` (already normalised). */
export function checkEmailDraft(input: string, list: readonly string[]): TEmailDraft {
  if (input.trim() === '') return { ok: false, reason: 'required' };
  const parsed = ZEmail.safeParse(input);
  if (!parsed.success) return { ok: false, reason: 'invalid' };
  if (list.includes(parsed.data)) return { ok: false, reason: 'duplicate' };
  if (list.length >= NOTIFICATION_EMAILS_MAX) return { ok: false, reason: 'tooMany' };
  return { ok: true, email: parsed.data };
}
