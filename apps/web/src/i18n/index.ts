/**
 * i18next for the console: zh-TW by default, en; the stored language (§3 key `language`) wins. The sign-in pages'
 * strings ship with the entry (strings-sign-in.ts); the rest of a language's strings are two chunks that
 * {@link loadConsoleStrings} fetches (app/routes.tsx): the layout's and the dashboard's (strings-dashboard.<language>.ts)
 * when the logged-in layout opens, every other page's (strings.<language>.ts) before any page but the dashboard. So
 * the login page downloads neither the console's strings nor the other language, and the dashboard, where a login
 * lands, only the strings it uses. dayjs and `<html lang>` follow
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

/** The console's strings beyond the sign-in ones, in two parts: the layout's and dashboard's, and every other page's. */
export type TStringsPart = 'dashboard' | 'pages';

const CONSOLE_STRINGS: Record<TStringsPart, Record<TLanguage, () => Promise<{ default: TLocaleTree }>>> = {
  dashboard: { 'zh-TW': () => import('./strings-dashboard.zh-TW'), en: () => import('./strings-dashboard.en') },
  pages: { 'zh-TW': () => import('./strings.zh-TW'), en: () => import('./strings.en') },
};
/** The parts in i18next, by language; a part is loaded in every language the console has shown since it was needed. */
const consoleLoaded = new Map<TLanguage, Set<TStringsPart>>();

/**
 * Fetches `language`'s console strings of `parts` into i18next unless they are there already.
 * @throws when a chunk cannot be loaded (offline, a deploy removed it).
 */
export async function loadConsoleStrings(language: TLanguage, parts: readonly TStringsPart[]): Promise<void> {
  const loaded = consoleLoaded.get(language) ?? new Set<TStringsPart>();
  consoleLoaded.set(language, loaded);
  await Promise.all(
    parts
      .filter((part) => !loaded.has(part))
      .map(async (part) => {
        i18n.addResourceBundle(language, 'translation', (await CONSOLE_STRINGS[part][language]()).default, true, false);
        loaded.add(part);
      }),
  );
}

/** Before switching to `language`: fetches the console's string parts in use in the current language. */
export async function prepareLanguage(language: TLanguage): Promise<void> {
  await loadConsoleStrings(language, [...(consoleLoaded.get(i18n.language as TLanguage) ?? [])]);
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
