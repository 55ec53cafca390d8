/**
 * The strings of the sign-in pages in every language: the common ones (`common`, `menu`, `validation`, `errors`, the
 * shell's) and the auth feature's. Small, so they ship with the entry chunk; the console's other strings are one
 * chunk per language (strings.<language>.ts), loaded when the logged-in layout opens.
 */
import { mergeLocales, type TLocaleTree } from './resources';

const files = import.meta.glob<TLocaleTree>(['./locales/*.json', '../features/auth/locales/*.json'], { eager: true, import: 'default' });

/** Sign-in strings by language. */
export default mergeLocales(files);
