/**
 * The console opened by the machine's own network address, as anyone on the LAN opens it — not `localhost`, which
 * browsers treat as secure and exempt from `upgrade-insecure-requests` (docs/deployment.md "Behind a reverse
 * proxy"): the login page renders, the demo vendor logs in, a device's live values arrive over the `/mqtt`
 * WebSocket of that address.
 */
import { networkInterfaces } from 'node:os';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEVICES, DEMO_PASSWORD, DEMO_VENDOR_EMAIL } from '@tessera/server';
import type { TTestServer } from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

/**
 * The machine's first non-loopback IPv4 address.
 * @throws when the machine has none (the test cannot show what it is for).
 */
function machineAddress(): string {
  for (const list of Object.values(networkInterfaces())) {
    const found = list?.find((a) => a.family === 'IPv4' && !a.internal);
    if (found) return found.address;
  }
  throw new Error('this machine has no non-loopback IPv4 address to open the console by');
}

describe('console by the machine address in Chromium', () => {
  let server: TTestServer;
  let browser: Browser;
  let baseUrl = '';

  beforeAll(async () => {
    server = await startE2eServer({ host: '0.0.0.0', demo: true });
    browser = await launchBrowser();
    baseUrl = `http://${machineAddress()}:${server.httpPort}`;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('renders, logs in and shows live values over the /mqtt WebSocket of that address', async () => {
    const { page } = await newPage(browser, baseUrl);
    const failedScripts: string[] = [];
    page.on('requestfailed', (r) => {
      if (r.resourceType() === 'script') failedScripts.push(r.url());
    });
    await page.goto('/login');
    await page.getByTestId('login-submit').waitFor();
    expect(failedScripts).toEqual([]);
    expect(new URL(page.url()).protocol).toBe('http:');

    await login(page, DEMO_VENDOR_EMAIL, DEMO_PASSWORD, 'vendor');
    await page.getByTestId('menu-device').click();
    await page.locator('[data-testid^="device-row-"]').filter({ hasText: DEMO_DEVICES[0].name }).click();
    await page.waitForURL(/\/device\/detail\/[0-9A-F]{30}\/telemetry-status$/);
    await expect.poll(() => page.getByTestId('live-state').getAttribute('data-state'), { timeout: 20_000 }).toBe('connected');
    expect(new URL(page.url()).host).toBe(new URL(baseUrl).host);
    await snap(page, 'network-address-device');
    await page.context().close();
  });
});
