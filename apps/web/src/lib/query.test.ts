import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) && !/\.test\./.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe('query keys', () => {
  it('come from a feature’s key factory (`deviceKeys.detail(id)`), never an inline array', () => {
    const inline = /queryKey:\s*\[|QueryData(?:<[^>]*>)?\(\s*\[|(?:invalidate|remove|refetch|cancel)Queries\(\s*\{\s*queryKey:\s*\[/g;
    const offenders = sources(SRC).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(inline)].map((m) => `${file.slice(SRC.length + 1)}: ${m[0]}`),
    );
    expect(offenders).toEqual([]);
  });
});
