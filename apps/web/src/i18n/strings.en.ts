/**
 * The console's en strings beyond the sign-in ones (strings-sign-in.ts) and the layout's and dashboard's
 * (strings-dashboard.en.ts), merged at build time: one chunk, loaded before any page but the dashboard.
 */
import { mergeLocales, type TLocaleTree } from './resources';

const files = import.meta.glob<TLocaleTree>(
  [
    '../features/*/locales/en.json',
    '../features/*/locales/*.en.json',
    '!../features/auth/locales/*.json',
    '!../features/{admin,alerts,assistant,dashboard,devices}/locales/*.json',
  ],
  { eager: true, import: 'default' },
);

export default mergeLocales(files)['en'];
