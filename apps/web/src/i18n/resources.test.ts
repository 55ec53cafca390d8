/**
 * Locale completeness (STYLE.md 6): every key in zh-TW exists in en and back, no value is empty, no key is defined twice;
 * and the language chunks the console loads (strings-sign-in.ts with the entry, strings-dashboard.<language>.ts with
 * the logged-in layout, strings.<language>.ts before the other pages) hold every key of every locale file between
 * them, and the first two every key the layout and the dashboard name.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { flattenKeys, languageOfFile, mergeLocales, type TLocaleTree } from './resources';
import dashboardEn from './strings-dashboard.en';
import dashboardZh from './strings-dashboard.zh-TW';
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

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The keys `paths` name literally (`t('a.b')`, `i18nKey="a.b"`), each with a file that names it. */
function keysNamedIn(paths: string[]): Map<string, string> {
  const used = new Map<string, string>();
  for (const path of paths) {
    const text = readFileSync(path, 'utf8');
    for (const m of text.matchAll(/\bt\(\s*['"]([a-zA-Z][\w-]*(?:\.[\w-]+)+)['"]|i18nKey=['"]([\w.-]+)['"]/g)) {
      used.set(m[1] ?? m[2] ?? '', path.slice(SRC.length));
    }
  }
  return used;
}

/** The keys of `used` that `known` lacks (a plural key counts by its `_one`/`_other` forms), as `key (file)`. */
function missingKeys(used: Map<string, string>, known: Set<string>): string[] {
  const plural = (k: string) => known.has(`${k}_one`) || known.has(`${k}_other`);
  return [...used].filter(([k]) => !known.has(k) && !plural(k)).map(([k, file]) => `${k} (${file})`);
}

const files = Object.fromEntries(localeFiles(SRC).map((p) => [p, JSON.parse(readFileSync(p, 'utf8')) as TLocaleTree]));

describe('locale files', () => {
  it('exist for the common strings and every feature', () => {
    expect(Object.keys(files).some((p) => p.endsWith('common.zh-TW.json'))).toBe(true);
    expect(Object.keys(files).every((p) => languageOfFile(p))).toBe(true);
  });

  it('merge without a key defined twice', () => {
    expect(() => mergeLocales(files)).not.toThrow();
  });

  it('have the same keys in zh-TW and en, and no empty value', () => {
    const merged = mergeLocales(files);
    const zh = flattenKeys(merged['zh-TW']);
    const en = flattenKeys(merged.en);
    expect(
      Object.keys(zh).filter((k) => !(k in en)),
      'missing in en',
    ).toEqual([]);
    expect(
      Object.keys(en).filter((k) => !(k in zh)),
      'missing in zh-TW',
    ).toEqual([]);
    const empty = [...Object.entries(zh), ...Object.entries(en)].filter(([, v]) => v.trim() === '').map(([k]) => k);
    expect(empty, 'empty values').toEqual([]);
  });

  it('define every key the source names literally (t(\'a.b\'), i18nKey="a.b")', () => {
    const merged = mergeLocales(files);
    const known = new Set(Object.keys(flattenKeys(merged['zh-TW'])));
    const used = keysNamedIn(sourceFiles(SRC));
    expect(used.size).toBeGreaterThan(500);
    expect(missingKeys(used, known), 'keys used in source but defined in no locale file').toEqual([]);
  });
});

describe('language chunks', () => {
  const everyFile = mergeLocales(files);
  for (const [language, dashboardPart, consolePart] of [
    ['zh-TW', dashboardZh, consoleZh],
    ['en', dashboardEn, consoleEn],
  ] as const) {
    it(`${language}: sign-in, dashboard and pages chunks together hold every key of the locale files`, () => {
      const loaded = { ...flattenKeys(signIn[language]), ...flattenKeys(dashboardPart), ...flattenKeys(consolePart) };
      expect(loaded).toEqual(flattenKeys(everyFile[language]));
    });

    it(`${language}: the sign-in and dashboard chunks hold every key the layout and the dashboard name`, () => {
      const known = new Set(Object.keys({ ...flattenKeys(signIn[language]), ...flattenKeys(dashboardPart) }));
      const shared = ['app', 'components', 'lib', 'features/dashboard'].flatMap((dir) => sourceFiles(join(SRC, dir)));
      const used = keysNamedIn(shared);
      expect(used.size).toBeGreaterThan(50);
      expect(missingKeys(used, known), 'keys the layout or dashboard names, loaded only with the other pages').toEqual([]);
      expect(Object.keys(flattenKeys(dashboardPart)).some((k) => k.startsWith('products.'))).toBe(false);
    });

    it(`${language}: the sign-in chunk holds the auth and common keys, and no other feature's`, () => {
      const keys = Object.keys(flattenKeys(signIn[language]));
      expect(keys.some((k) => k.startsWith('auth.'))).toBe(true);
      expect(keys.some((k) => k.startsWith('common.'))).toBe(true);
      expect(keys.some((k) => k.startsWith('devices.'))).toBe(false);
    });
  }
});

describe('mergeLocales', () => {
  it('refuses a key defined by two files', () => {
    expect(() => mergeLocales({ 'a/en.json': { x: { y: '1' } }, 'b/en.json': { x: { y: '2' } } })).toThrow(/x\.y/);
  });
  it('nests files under their languages', () => {
    const m = mergeLocales({ 'a/en.json': { a: { t: 'A' } }, 'common.zh-TW.json': { c: '中' } });
    expect(m).toEqual({ 'zh-TW': { c: '中' }, en: { a: { t: 'A' } } });
  });
});
