/**
 * The custom-page tab in Chromium: a vendor uploads the example page of docs/custom-pages.md and sees it, sandboxed,
 * show a value a real device just published (live channel → postMessage); a hostile page tries the console's
 * cookies, storage, DOM, top window and the API, and every attempt fails — in the frame and opened on its own — with
 * the console's storage, cookies, URL and DOM unchanged; a user sees the page on a device detail; delete empties it.
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makePng,
  authorise,
  buildDeviceProject,
  type TBuiltProject,
  buildUser,
  buildVendor,
  TEST_PASSWORD,
  type TBuiltAccount,
} from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { eventually, login, publishAsDevice } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

/** The example page of the page-author doc, exactly as documented. */
const EXAMPLE_PAGE = (() => {
  const doc = readFileSync(new URL('../../docs/custom-pages.md', import.meta.url), 'utf8');
  const block = /```html\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/custom-pages.md has no html example');
  return block;
})();

/** Each attempt the hostile page makes, by name; every one must fail. */
const ATTEMPTS = [
  'cookie',
  'localStorage',
  'sessionStorage',
  'indexedDB',
  'parentDocument',
  'parentStorage',
  'parentDomWrite',
  'topLocationRead',
  'topNavigate',
  'fetchApi',
  'popup',
] as const;

/**
 * A page that tries to reach the console. Each attempt resolves (success, with what it read) or throws (refused);
 * the results go to the parent by postMessage and into the page's own DOM (read when it is opened on its own).
 */
const HOSTILE_PAGE = `<!DOCTYPE html>
<html><body><h1>hostile</h1><pre id="results"></pre>
<script>
const attempts = {
  cookie: () => document.cookie,
  localStorage: () => JSON.stringify(Object.entries(localStorage)),
  sessionStorage: () => String(sessionStorage.length),
  indexedDB: () => new Promise((resolve, reject) => {
    const req = indexedDB.open('steal');
    req.onsuccess = () => resolve('opened');
    req.onerror = () => reject(req.error);
  }),
  parentDocument: () => (parent === window ? Promise.reject(new Error('no parent')) : parent.document.title),
  parentStorage: () => (parent === window ? Promise.reject(new Error('no parent')) : parent.localStorage.getItem('idtoken')),
  parentDomWrite: () => {
    if (parent === window) throw new Error('no parent');
    parent.document.body.insertAdjacentHTML('beforeend', '<div id="pwned">pwned</div>');
    return 'written';
  },
  topLocationRead: () => (top === window ? Promise.reject(new Error('no top')) : top.location.href),
  topNavigate: () => {
    if (top === window) throw new Error('no top');
    top.location.href = '/logout';
    return 'navigated';
  },
  fetchApi: () => fetch(new URL('/frontstage/v1/devices', location.href), { credentials: 'include' }).then((r) => r.status + ' ' + r.type),
  popup: () => {
    const w = window.open('/', '_blank');
    if (!w) throw new Error('blocked');
    return 'opened';
  },
};
(async () => {
  const results = {};
  for (const [name, attempt] of Object.entries(attempts)) {
    try {
      results[name] = { ok: true, value: String(await attempt()) };
    } catch (e) {
      results[name] = { ok: false, error: String((e && e.name) || e) };
    }
  }
  document.getElementById('results').textContent = JSON.stringify(results);
  if (parent !== window) parent.postMessage({ type: 'hostile:report', results }, '*');
  // Claims the console would never accept: an oversized frame.
  parent.postMessage({ type: 'tessera:resize', height: 999999 }, '*');
})();
</script></body></html>`;

type TResults = Record<string, { ok: boolean; value?: string; error?: string }>;

describe('custom page tab in Chromium', () => {
  let server: TTestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let built: TBuiltProject;
  const frame = () => page.frameLocator('[data-testid="custom-page-frame"]');
  const publishTemperature = (value: number) =>
    publishAsDevice(server.mqttUrl, built.devices[0].tangramId, built.devices[0].secret, [
      { key: 'temperature', ts: Date.now(), vs: [value] },
    ]);
  const fileInput = () => page.locator('input[type="file"]');

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 1 });
    await authorise(server.ctx.db, built.devices[0].id, user.accountId);
    ({ context, page } = await newPage(browser, server.httpUrl, 'zh-TW'));
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('refuses a bad title and a non-HTML file, uploads the example page and shows a value the device publishes', async () => {
    await page.goto(`/project/detail/${built.projectId}/custom-page`);
    await page.getByText('此專案尚無自訂頁面').waitFor();
    await page.getByTestId('custom-page-title').fill('溫'.repeat(33));
    await page.getByText('最多 32 個字元').waitFor();
    await page.getByTestId('custom-page-title').fill('溫度看板');

    await fileInput().setInputFiles({ name: 'photo.html', mimeType: 'text/html', buffer: makePng() });
    await page.getByText('檔案不是 UTF-8 文字').waitFor();
    expect(await page.getByTestId('custom-page-file-name').count()).toBe(0);

    await fileInput().setInputFiles({ name: 'temperature.html', mimeType: 'text/html', buffer: Buffer.from(EXAMPLE_PAGE) });
    await page.getByTestId('custom-page-file-name').waitFor();
    await page.getByTestId('custom-page-save').click();
    await expect.poll(() => page.getByTestId('custom-page-saved-title').textContent()).toBe('溫度看板');

    const iframe = page.getByTestId('custom-page-frame');
    expect(await iframe.getAttribute('sandbox')).toBe('allow-scripts');
    await expect.poll(() => frame().locator('#device').textContent()).toMatch(/^dev /);
    await publishTemperature(23.5);
    await expect.poll(() => frame().locator('#temperature').textContent(), { timeout: 15_000 }).toBe('23.5');
    await publishTemperature(24.25);
    await expect.poll(() => frame().locator('#temperature').textContent(), { timeout: 15_000 }).toBe('24.25');
    // The page asked for 240 px and got it.
    await expect.poll(async () => (await iframe.boundingBox())?.height).toBe(240);
    await snap(page, 'custom-page-vendor');
  });

  it('a user sees the page on the device detail, fed with that device’s data', async () => {
    const { context: userContext, page: userPage } = await newPage(browser, server.httpUrl, 'zh-TW');
    try {
      await login(userPage, user.email, TEST_PASSWORD, 'user');
      await userPage.goto(`/device/detail/${built.devices[0].tangramId}`);
      await userPage.getByTestId('tab-custom-page').click();
      await userPage.waitForURL(/\/custom-page$/);
      await expect.poll(() => userPage.getByTestId('custom-page-heading').textContent()).toBe('溫度看板');
      const userFrame = userPage.frameLocator('[data-testid="custom-page-frame"]');
      await expect.poll(() => userFrame.locator('#temperature').textContent(), { timeout: 15_000 }).toBe('24.25');
      await publishTemperature(19);
      await expect.poll(() => userFrame.locator('#temperature').textContent(), { timeout: 15_000 }).toBe('19');
      await snap(userPage, 'custom-page-user');
    } finally {
      await userContext.close();
    }
  });

  it('a hostile page cannot read or change the console: cookies, storage, DOM, top window and API all fail', async () => {
    await context.addCookies([{ name: 'console_marker', value: 'keep-out', url: server.httpUrl }]);
    const before = await page.evaluate(() => ({
      storage: JSON.stringify(Object.entries(localStorage).sort()),
      session: JSON.stringify(Object.entries(sessionStorage).sort()),
      cookie: document.cookie,
      title: document.title,
      url: location.href,
    }));
    expect(before.storage).toContain('idtoken');
    // Collect what the frame reports, with who sent it.
    await page.evaluate(() => {
      const w = window as unknown as { reports: unknown[] };
      w.reports = [];
      window.addEventListener('message', (e) => {
        const data = e.data as { type?: string };
        if (data?.type !== 'hostile:report') return;
        const own = (document.querySelector('[data-testid="custom-page-frame"]') as HTMLIFrameElement | null)?.contentWindow;
        w.reports.push({ data, origin: e.origin, fromFrame: e.source === own });
      });
    });

    await fileInput().setInputFiles({ name: 'hostile.html', mimeType: 'text/html', buffer: Buffer.from(HOSTILE_PAGE) });
    await page.getByTestId('custom-page-title').fill('看板 v2');
    await page.getByTestId('custom-page-save').click();
    await expect.poll(() => page.getByTestId('custom-page-saved-title').textContent()).toBe('看板 v2');

    type TReport = { data: { results: TResults }; origin: string; fromFrame: boolean };
    const report = await eventually(() => page.evaluate(() => (window as unknown as { reports: TReport[] }).reports[0]));
    expect(report, 'the hostile page reported').toBeTruthy();
    expect(report.origin).toBe('null');
    expect(report.fromFrame).toBe(true);
    for (const name of ATTEMPTS)
      expect(report.data.results[name], `${name}: ${JSON.stringify(report.data.results[name])}`).toMatchObject({ ok: false });
    expect(report.data.results.cookie.error).toBe('SecurityError');
    expect(report.data.results.localStorage.error).toBe('SecurityError');

    const after = await page.evaluate(() => ({
      storage: JSON.stringify(Object.entries(localStorage).sort()),
      session: JSON.stringify(Object.entries(sessionStorage).sort()),
      cookie: document.cookie,
      title: document.title,
      url: location.href,
    }));
    expect(after).toEqual(before);
    expect(await page.locator('#pwned').count()).toBe(0);
    expect(context.pages()).toHaveLength(1);
    // The oversized resize was refused: the frame stays within CUSTOM_PAGE_MAX_HEIGHT_PX.
    expect((await page.getByTestId('custom-page-frame').boundingBox())?.height).toBeLessThanOrEqual(4000);
    await snap(page, 'custom-page-hostile');
  });

  it('the page opened on its own, outside the frame, is still sandboxed by its CSP header', async () => {
    const src = await page.getByTestId('custom-page-frame').getAttribute('src');
    const alone = await context.newPage();
    try {
      await alone.goto(new URL(src ?? '', server.httpUrl).toString());
      const text = await eventually(() => alone.locator('#results').textContent());
      const results = JSON.parse(text ?? '{}') as TResults;
      for (const name of ['cookie', 'localStorage', 'sessionStorage', 'indexedDB', 'fetchApi', 'popup']) {
        expect(results[name], `${name}: ${JSON.stringify(results[name])}`).toMatchObject({ ok: false });
      }
      expect(await alone.evaluate(() => String(window.origin))).toBe('null');
    } finally {
      await alone.close();
    }
  });

  it('deletes the page after a confirm: the tab is empty again and the device detail drops its tab', async () => {
    await page.getByTestId('custom-page-delete').click();
    await page.getByTestId('custom-page-delete-ok').click();
    await page.getByTestId('custom-page-empty').waitFor();
    expect(await page.getByTestId('custom-page-frame').count()).toBe(0);
    await page.goto(`/device/detail/${built.devices[0].tangramId}/telemetry-status`);
    await page.getByTestId('tab-telemetry-status').waitFor();
    expect(await page.getByTestId('tab-custom-page').count()).toBe(0);
  });
});
