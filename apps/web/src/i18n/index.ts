/**
 * i18next for the console: zh-TW by default, en; the stored language (§3 key `language`) wins. Locale files are
 * gathered at build time with import.meta.glob, so a feature only adds `features/<feature>/locales/*.json`. dayjs and
 * zod's messages follow the language.
 */
import type { TLanguage } from '@tessera/contracts';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-tw';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { z } from 'zod';
import { DEFAULT_LANGUAGE, getLanguage } from '../lib/session';
import { mergeLocales, type TLocaleTree } from './resources';

const files = import.meta.glob<TLocaleTree>(['./locales/*.json', '../features/*/locales/*.json'], {
  eager: true,
  import: 'default',
});
const merged = mergeLocales(files);

/** The dayjs locale name of a console language. */
export const DAYJS_LOCALE: Record<TLanguage, string> = { 'zh-TW': 'zh-tw', en: 'en' };

/** Zod's own messages (a form checked against a contract schema) in the console language. */
export function applyZodLocale(language: TLanguage): void {
  z.config(language === 'zh-TW' ? z.locales.zhTW() : z.locales.en());
}

const initial = getLanguage();
dayjs.locale(DAYJS_LOCALE[initial]);
applyZodLocale(initial);
void i18n.use(initReactI18next).init({
  resources: { 'zh-TW': { translation: merged['zh-TW'] }, en: { translation: merged.en } },
  lng: initial,
  fallbackLng: DEFAULT_LANGUAGE,
  interpolation: { escapeValue: false },
  returnNull: false,
});

export default i18n;
