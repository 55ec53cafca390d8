/**
 * Accessibility checks for e2e tests: axe-core (WCAG 2 A and AA) run inside the page. axe is put into a page once and
 * stays there while the console navigates inside itself (a route walk loads the console once per role), instead of
 * once per check as `@axe-core/playwright` does (its 560 KB of script parsed again for every page).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ImpactValue, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';

/** axe-core's own bundle, read once per test process. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The WCAG 2.0 A and AA rules: form controls, buttons and links with a name, contrast, ARIA, frame titles, images. */
export const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa'];

/** axe-core's impacts that fail a check. */
export const FAILING_IMPACTS: readonly ImpactValue[] = ['serious', 'critical'];

/** One rule broken on a page: axe's rule id, its impact and the CSS selectors of up to three elements that break it. */
export interface TAxeViolation {
  id: string;
  impact: ImpactValue | null;
  targets: string[];
}

/**
 * The serious and critical WCAG 2 A/AA violations of what `page` shows now. Only violations are collected (axe does
 * not describe every passing node) and frames are not entered: the console's only frame holds a vendor's own uploaded
 * HTML (a custom page on its own origin), whose title the page's own `frame-title` rule still checks.
 */
export async function seriousAxeViolations(page: Page, tags: readonly string[] = WCAG_AA_TAGS): Promise<TAxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const options: RunOptions = { runOnly: { type: 'tag', values: [...tags] }, resultTypes: ['violations'], iframes: false };
  const violations = await page.evaluate(async (runOptions) => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    const result = await axe.run(document, runOptions);
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
  }, options);
  return violations.filter((v) => v.impact !== null && FAILING_IMPACTS.includes(v.impact));
}
