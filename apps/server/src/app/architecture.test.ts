/** docs/ARCHITECTURE.md is the newcomer's map: it names every server module, and the decisions index every decision file. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../../..');

describe('docs/ARCHITECTURE.md', () => {
  it('lists every module of apps/server/src/modules', () => {
    const map = readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
    const modules = readdirSync(join(ROOT, 'apps/server/src/modules'), { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(modules.length).toBeGreaterThan(10);
    expect(modules.map((m) => m.name).filter((m) => !map.includes(`apps/server/src/modules/${m}\``))).toEqual([]);
  });

  it('has a decisions index naming every decision file', () => {
    const index = readFileSync(join(ROOT, 'docs/decisions/README.md'), 'utf8');
    const files = readdirSync(join(ROOT, 'docs/decisions')).filter((f) => f.endsWith('.md') && f !== 'README.md');
    expect(files.filter((f) => !index.includes(f))).toEqual([]);
  });
});
