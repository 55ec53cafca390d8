/**
 * The console's zh-TW strings that the logged-in layout and the dashboard use (the features admin, alerts, assistant,
 * dashboard and devices), merged at build time: one chunk, loaded with the layout. The rest is strings.zh-TW.ts.
 */
import { mergeLocales, type TLocaleTree } from './resources';

const files = import.meta.glob<TLocaleTree>(
  [
    '../features/{admin,alerts,assistant,dashboard,devices}/locales/zh-TW.json',
    '../features/{admin,alerts,assistant,dashboard,devices}/locales/*.zh-TW.json',
  ],
  { eager: true, import: 'default' },
);

export default mergeLocales(files)['zh-TW'];
