import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../core/config.js';
import { pageCsp, viewUrlOf } from './view-url.js';

describe('custom page serving settings', () => {
  it('reads PAGES_ORIGIN as an http(s) origin and refuses anything else by name', () => {
    expect(loadConfig({}).pagesOrigin).toBeUndefined();
    expect(loadConfig({ PAGES_ORIGIN: 'https://pages.example.com/' }).pagesOrigin).toBe('https://pages.example.com');
    expect(loadConfig({ PAGES_ORIGIN: 'http://127.0.0.1:9000/x' }).pagesOrigin).toBe('http://127.0.0.1:9000');
    for (const bad of ['pages.example.com', 'javascript:alert(1)', 'ftp://pages.example.com']) {
      expect(() => loadConfig({ PAGES_ORIGIN: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ PAGES_ORIGIN: bad })).toThrow(/PAGES_ORIGIN/);
    }
  });

  it('builds view URLs relative to the console, or on PAGES_ORIGIN', () => {
    const base = loadConfig({});
    expect(viewUrlOf(base, 3, 'a.b.c')).toBe('/pages/custom-page/3?t=a.b.c');
    expect(viewUrlOf({ ...base, pagesOrigin: 'https://p.example' }, 3, 'a.b.c')).toBe('https://p.example/pages/custom-page/3?t=a.b.c');
  });

  it('sandboxes with scripts only, no network, and framing by the page host and the console', () => {
    const csp = pageCsp('https://console.example');
    const directives = csp.split('; ');
    expect(directives[0]).toBe('sandbox allow-scripts');
    expect(csp).not.toMatch(/allow-same-origin|allow-top-navigation|allow-popups|allow-forms|unsafe-eval/);
    expect(directives).toContain("connect-src 'none'");
    expect(directives).toContain("default-src 'none'");
    expect(directives.at(-1)).toBe("frame-ancestors 'self' https://console.example");
  });
});
