import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lazyPage, withTimeout } from './lazyPage';

/** Every .ts/.tsx file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe('lazyPage', () => {
  it('fails a load that does not settle in time, and passes one that does', async () => {
    await expect(withTimeout(new Promise(() => {}), 20)).rejects.toThrow('chunk load timed out after 20 ms');
    const Page = () => null;
    const load = lazyPage(async () => ({ default: Page })) as () => Promise<unknown>;
    await expect(load()).resolves.toEqual({ Component: Page });
  });

  it('is the only way a route of the console loads lazily', () => {
    const root = join(import.meta.dirname, '..');
    const offenders = sources(root).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\blazy:(?!\s*(lazyPage|lazyAlso)\()/g)].map(() => file.slice(root.length + 1)),
    );
    expect(offenders).toEqual([]);
  });
});
