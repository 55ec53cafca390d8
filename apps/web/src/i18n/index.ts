/**
 * i18next for the console: zh-TW by default, en; the stored language (§3 key `language`) wins. The sign-in pages'
 * strings ship with the entry (strings-sign-in.ts); the rest of a language's strings are one chunk
 * (strings.<language>.ts) that {@link loadConsoleStrings} fetches when the logged-in layout opens (app/routes.tsx),
 * so the login page downloads neither the console's strings nor the other language. dayjs and `<html lang>` follow
 * the language (zod's own messages too, from lib/zodRules.ts, so that zod is not part of the entry chunk).
 */
import type { TLanguage } from '@tessera/contracts';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-tw';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, getLanguage } from '../lib/session';
import type { TLocaleTree } from './resources';
import signInStrings from './strings-sign-in';

/** The dayjs locale name of a console language. */
export const DAYJS_LOCALE: Record<TLanguage, string> = { 'zh-TW': 'zh-tw', en: 'en' };

const CONSOLE_STRINGS: Record<TLanguage, () => Promise<{ default: TLocaleTree }>> = {
  'zh-TW': () => import('./strings.zh-TW'),
  en: () => import('./strings.en'),
};
/** Languages whose console strings are in i18next; non-empty once the logged-in layout has opened. */
const consoleLoaded = new Set<TLanguage>();

/**
 * Fetches `language`'s console strings into i18next unless they are there already.
 * @throws when the chunk cannot be loaded (offline, a deploy removed it).
 */
export async function loadConsoleStrings(language: TLanguage): Promise<void> {
  if (consoleLoaded.has(language)) return;
  i18n.addResourceBundle(language, 'translation', (await CONSOLE_STRINGS[language]()).default, true, false);
  consoleLoaded.add(language);
}

/** Before switching to `language`: fetches its console strings when the console's are in use. */
export async function prepareLanguage(language: TLanguage): Promise<void> {
  if (consoleLoaded.size > 0) await loadConsoleStrings(language);
}

const initial = getLanguage();
dayjs.locale(DAYJS_LOCALE[initial]);
// No document in the unit tests that import the route table.
globalThis.document?.documentElement.setAttribute('lang', initial);

/** Resolves once i18next is ready with the sign-in strings: the console renders after it. */
export const i18nReady: Promise<void> = i18n
  .use(initReactI18next)
  .init({
    resources: { 'zh-TW': { translation: signInStrings['zh-TW'] }, en: { translation: signInStrings.en } },
    lng: initial,
    fallbackLng: DEFAULT_LANGUAGE,
    interpolation: { escapeValue: false },
    returnNull: false,
  })
  .then(() => undefined);

export default i18n;
