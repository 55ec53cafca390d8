/**
 * Debian's Chromium driven by playwright-core (no downloaded browser). One browser per test file, a fresh
 * context (storage) per test. Screenshots (E2E_SNAPSHOTS=1) go to e2e/artifacts/.
 */
import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
];

/** Launches Chromium. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}

/**
 * A fresh context and page at `baseURL`, in `locale` (zh-TW by default, as a Taiwanese user's browser). The browser
 * asks for reduced motion, as a user can in the system settings: the console then opens modals, drawers and dropdowns
 * without their zoom and slide, so a click lands where the element is rather than where it was a frame before.
 */
export async function newPage(browser: Browser, baseURL: string, locale = 'zh-TW'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, locale, viewport: { width: 1366, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return { context, page };
}

/**
 * A new page as {@link newPage} makes it, with the browser's locale and the console's own language both `language`:
 * the console speaks its stored language (spec §3 `language`, zh-TW when none is stored) whatever the browser's, so
 * the page stores it before every load, as a user's language switch leaves it.
 */
export async function newConsolePage(
  browser: Browser,
  baseURL: string,
  language: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await newPage(browser, baseURL, language);
  await opened.page.addInitScript((stored) => localStorage.setItem('language', stored), language);
  return opened;
}

/**
 * Saves a full-page screenshot under e2e/artifacts (for looking at) when E2E_SNAPSHOTS=1, and answers its path; else
 * answers null without drawing one. A full-page screenshot costs the 2-core CI machine a rasterisation and a PNG
 * encoding each (87 calls in the suite), and nobody looks at CI's; a failing test's state is in its assertion message.
 */
export async function snap(page: Page, name: string): Promise<string | null> {
  if (process.env.E2E_SNAPSHOTS !== '1') return null;
  const dir = new URL('../artifacts/', import.meta.url).pathname;
  mkdirSync(dir, { recursive: true });
  const path = `${dir}${name}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
}
