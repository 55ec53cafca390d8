/**
 * The language chunks the console loads (strings-sign-in.ts with the entry, strings.<language>.ts with the logged-in
 * layout) hold every key of every locale file between them, and the sign-in part holds the sign-in pages' keys.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { flattenKeys, mergeLocales, type TLocaleTree } from './resources';
import signIn from './strings-sign-in';
import consoleEn from './strings.en';
import consoleZh from './strings.zh-TW';

const SRC = fileURLToPath(new URL('..', import.meta.url));

function localeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return localeFiles(path);
    return path.includes('/locales/') && name.endsWith('.json') ? [path] : [];
  });
}

const everyFile = mergeLocales(Object.fromEntries(localeFiles(SRC).map((p) => [p, JSON.parse(readFileSync(p, 'utf8')) as TLocaleTree])));

describe('language chunks', () => {
  for (const [language, consolePart] of [
    ['zh-TW', consoleZh],
    ['en', consoleEn],
  ] as const) {
    it(`${language}: sign-in and console chunks together hold every key of the locale files`, () => {
      const loaded = { ...flattenKeys(signIn[language]), ...flattenKeys(consolePart) };
      expect(loaded).toEqual(flattenKeys(everyFile[language]));
    });

    it(`${language}: the sign-in chunk holds the auth and common keys, and no other feature's`, () => {
      const keys = Object.keys(flattenKeys(signIn[language]));
      expect(keys.some((k) => k.startsWith('auth.'))).toBe(true);
      expect(keys.some((k) => k.startsWith('common.'))).toBe(true);
      expect(keys.some((k) => k.startsWith('devices.'))).toBe(false);
    });
  }
});
