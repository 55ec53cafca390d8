/**
 * The console's zh-TW strings beyond the sign-in ones (strings-sign-in.ts) and the layout's and dashboard's
 * (strings-dashboard.zh-TW.ts), merged at build time: one chunk, loaded before any page but the dashboard.
 */
import { mergeLocales, type TLocaleTree } from './resources';

const files = import.meta.glob<TLocaleTree>(
  [
    '../features/*/locales/zh-TW.json',
    '../features/*/locales/*.zh-TW.json',
    '!../features/auth/locales/*.json',
    '!../features/{admin,alerts,assistant,dashboard,devices}/locales/*.json',
  ],
  { eager: true, import: 'default' },
);

export default mergeLocales(files)['zh-TW'];
