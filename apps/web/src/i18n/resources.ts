/**
 * Merges the per-feature locale files (`features/<feature>/locales/{zh-TW,en}.json`, `i18n/locales/common.*.json`)
 * into one i18next resource per language. Each file nests its keys under its own top-level key (`products.*`,
 * `devices.*`; the common file owns `common.*`, `menu.*`, `validation.*`, `errors.*`), so a feature only adds files.
 */
import { LANGUAGES, type TLanguage } from '@tessera/contracts';

/** A locale file's content: nested keys, string leaves. */
export interface TLocaleTree {
  [key: string]: string | TLocaleTree;
}

/** The language a locale file is for, from its name (`.../zh-TW.json`, `common.en.json`), or null. */
export function languageOfFile(path: string): TLanguage | null {
  const name = path.split('/').pop() ?? '';
  return LANGUAGES.find((l) => name === `${l}.json` || name.endsWith(`.${l}.json`)) ?? null;
}

function mergeInto(target: TLocaleTree, source: TLocaleTree, file: string, prefix: string): void {
  for (const [key, value] of Object.entries(source)) {
    const at = prefix ? `${prefix}.${key}` : key;
    const existing = target[key];
    if (typeof value === 'string' || typeof existing === 'string') {
      if (existing !== undefined) throw new Error(`i18n key ${at} defined twice (again in ${file})`);
      target[key] = value;
    } else {
      const branch: TLocaleTree = existing ?? {};
      target[key] = branch;
      mergeInto(branch, value, file, at);
    }
  }
}

/**
 * Merges `{ path: content }` into `{ 'zh-TW': tree, en: tree }`.
 * @throws when two files define the same key (a silent overwrite would hide a translation).
 */
export function mergeLocales(files: Record<string, TLocaleTree>): Record<TLanguage, TLocaleTree> {
  const out = Object.fromEntries(LANGUAGES.map((l) => [l, {}])) as Record<TLanguage, TLocaleTree>;
  for (const [path, content] of Object.entries(files)) {
    const lang = languageOfFile(path);
    if (lang) mergeInto(out[lang], content, path, '');
  }
  return out;
}

/** Flattens a tree to `a.b.c → value` (for completeness checks). */
export function flattenKeys(tree: TLocaleTree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(tree)) {
    const at = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out[at] = v;
    else Object.assign(out, flattenKeys(v, at));
  }
  return out;
}
