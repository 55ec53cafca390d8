/** The console's English strings beyond the sign-in ones (strings-sign-in.ts), merged at build time: one chunk. */
import { mergeLocales, type TLocaleTree } from './resources';

const files = import.meta.glob<TLocaleTree>(
  ['../features/*/locales/en.json', '../features/*/locales/*.en.json', '!../features/auth/locales/*.json'],
  {
    eager: true,
    import: 'default',
  },
);

export default mergeLocales(files).en;
