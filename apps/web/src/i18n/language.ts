/**
 * Switching the console language: i18next, dayjs and the stored `language` (§3) follow at once; when logged in
 * the choice is also saved in the profile (PUT profile) so it follows the account to other browsers.
 */
import { paths, type TLanguage, type TProfileUpdate } from '@tessera/contracts';
import dayjs from 'dayjs';
import { http } from '../lib/http';
import { getSession, saveLanguage } from '../lib/session';
import i18n, { DAYJS_LOCALE, prepareLanguage } from './index';

/** Applies `language` everywhere; `persistProfile` false when the language came from the profile itself. */
export async function changeLanguage(language: TLanguage, persistProfile = true): Promise<void> {
  await prepareLanguage(language);
  saveLanguage(language);
  dayjs.locale(DAYJS_LOCALE[language]);
  document.documentElement.lang = language;
  await i18n.changeLanguage(language);
  if (persistProfile && getSession().token) {
    const body: TProfileUpdate = { language };
    await http.put(paths.profile, body).catch(() => undefined);
  }
}
