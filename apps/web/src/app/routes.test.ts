import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { consoleRoutes as routes } from './routes';

const SRC = join(import.meta.dirname, '..');

/** The route paths matched for a URL, outermost first (pathless layouts left out). */
const matched = (url: string) =>
  matchRoutes(routes, url)
    ?.map((m) => m.route.path ?? (m.route.index ? '(index)' : null))
    .filter((p) => p !== null);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) && !/\.test\./.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe('console routes (spec §2)', () => {
  it('place every feature’s pages: sign-in outside the layout, the rest inside it', () => {
    expect(matched('/login')).toEqual(['login']);
    expect(matched('/setpwd/first')).toEqual(['setpwd/:type']);
    expect(matched('/profile')).toEqual(['profile']);
    expect(matched('/product/list')).toEqual(['product/list']);
    expect(matched('/project/new')).toEqual(['project/new']);
    for (const tab of ['devices', 'configure', 'rule', 'system', 'custom-page', 'notification', 'roles']) {
      expect(matched(`/project/detail/7/${tab}`)).toEqual(['project/detail/:id', tab]);
    }
    expect(matched('/device/detail/ABC/custom-page')).toEqual(['device/detail/:tangramId', 'custom-page']);
    expect(matched('/alerts/history')).toEqual(['alerts', 'history']);
    expect(matched('/line-notify/group/3')).toEqual(['line-notify/group/:id']);
    expect(matched('/platform_rule/list')).toEqual(['platform_rule/list']);
    expect(matched('/platform_rule/detail/4')).toEqual(['platform_rule/detail/:id']);
    expect(matched('/ai-model/list')).toEqual(['ai-model/list']);
    expect(matched('/ai-model/detail/3')).toEqual(['ai-model/detail/:id']);
    expect(matched('/ai-model/detail/3/rollouts/5')).toEqual(['ai-model/detail/:id/rollouts/:rolloutId']);
    expect(matched('/no/such/page')).toEqual(['*']);
  });

  it('are declared by the feature that owns the page: every lazy page is loaded from a routes.tsx', () => {
    const offenders = sources(SRC)
      .filter((f) => !f.endsWith('/routes.tsx') && !f.endsWith('/app/routes.tsx') && !f.endsWith('/lib/lazyPage.ts'))
      .filter((f) => /lazyPage\(/.test(readFileSync(f, 'utf8')))
      .map((f) => f.slice(SRC.length + 1));
    expect(offenders).toEqual([]);
  });

  it('come from a routes.tsx in every feature that has a page (lorawan, notifications, telemetry-store and webhooks lend cards to project pages, the assistant is a drawer of the layout)', () => {
    const features = readdirSync(join(SRC, 'features'), { withFileTypes: true }).filter((e) => e.isDirectory());
    const without = features.filter((e) => !readdirSync(join(SRC, 'features', e.name)).includes('routes.tsx')).map((e) => e.name);
    expect(without.sort()).toEqual(['assistant', 'lorawan', 'notifications', 'telemetry-store', 'webhooks']);
  });
});
