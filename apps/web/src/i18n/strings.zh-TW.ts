/** The console's zh-TW strings beyond the sign-in ones (strings-sign-in.ts), merged at build time: one chunk. */
import { mergeLocales, type TLocaleTree } from './resources';

const files = import.meta.glob<TLocaleTree>(
  ['../features/*/locales/zh-TW.json', '../features/*/locales/*.zh-TW.json', '!../features/auth/locales/*.json'],
  {
    eager: true,
    import: 'default',
  },
);

export default mergeLocales(files)['zh-TW'];
