/**
 * End to end in Chromium against the real server, with two browser contexts: a screen opens the QR-code tab of the
 * login page and waits on the server's event stream; a phone (a second context, logged in) opens the code's link,
 * sees where the code was shown and confirms; the waiting screen enters the console as that account. The used link
 * is refused the second time. An expired code says so (UAE0009) and a new one can be shown.
 */
import { eq, sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QR_LOGIN_CHANNEL, qrLoginSessions } from '@tessera/server';
import { buildVendor, TEST_PASSWORD, type TBuiltAccount, type TTestServer } from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('QR login: a logged-in phone confirms the code a screen shows (Chromium, two contexts)', () => {
  let server: TTestServer;
  let browser: Browser;
  let screen: Page;
  let phone: Page;
  let vendor: TBuiltAccount;

  beforeAll(async () => {
    server = await startE2eServer();
    vendor = await buildVendor(server);
    browser = await launchBrowser();
    ({ page: screen } = await newPage(browser, server.httpUrl, 'zh-TW'));
    ({ page: phone } = await newPage(browser, server.httpUrl, 'en'));
    await login(phone, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const codeLink = async (): Promise<string> => {
    const code = screen.getByTestId('qr-login-code');
    await code.locator('canvas').waitFor();
    return (await code.getAttribute('data-link')) ?? '';
  };
  let usedPath = '';

  it('shows a QR code with a countdown; the phone confirms it and the screen enters as that account', async () => {
    await screen.goto('/login');
    await screen.getByTestId('login-tab-qr').click();
    const link = await codeLink();
    expect(link).toMatch(/\/login\?session_id=[A-Za-z0-9_-]{22}$/);
    await expect.poll(() => screen.getByTestId('qr-login-countdown').textContent()).toMatch(/^1[01][0-9] 秒後失效$/);
    await snap(screen, 'qr-login');

    usedPath = link.replace(/^https?:\/\/[^/]+/, '');
    await phone.goto(usedPath);
    await phone.getByTestId('qr-confirm').waitFor();
    expect(await phone.getByTestId('qr-confirm-origin').textContent()).toContain('127.0.0.1');
    await phone.getByTestId('qr-confirm-ok').click();
    await phone.getByTestId('qr-confirmed').waitFor();

    await screen.waitForURL(/\/dashboard/, { timeout: 10_000 });
    await screen.getByText(vendor.email).first().waitFor();
  });

  it('refuses the same code a second time', async () => {
    await phone.goto(usedPath);
    await phone.getByTestId('qr-confirm-error').filter({ hasText: '此 QR Code 已被使用' }).waitFor();
  });

  it('says an expired code expired (UAE0009) and shows a new one', async () => {
    const { page: other } = await newPage(browser, server.httpUrl, 'en');
    await other.goto('/login');
    await other.getByTestId('login-tab-qr').click();
    const code = other.getByTestId('qr-login-code');
    await code.locator('canvas').waitFor();
    const first = (await code.getAttribute('data-link')) ?? '';
    const sessionId = new URL(first).searchParams.get('session_id') ?? '';
    // The code's time runs out (without waiting two minutes).
    await server.ctx.db
      .update(qrLoginSessions)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(qrLoginSessions.id, sessionId));
    // A waiting stream reads its session again when woken (or at its own expiry, two minutes on): wake it now.
    await server.ctx.db.execute(sql`select pg_notify(${QR_LOGIN_CHANNEL}, ${sessionId})`);
    await other.getByTestId('qr-login-expired').filter({ hasText: 'QR Code 已過期' }).waitFor({ timeout: 10_000 });
    await phone.goto(`/login?session_id=${sessionId}`);
    await phone.getByTestId('qr-confirm-error').filter({ hasText: 'QR Code 已過期' }).waitFor();

    await other.getByTestId('qr-login-renew').click();
    await code.locator('canvas').waitFor();
    expect(await code.getAttribute('data-link')).not.toBe(first);
    await other.close();
  });
});
