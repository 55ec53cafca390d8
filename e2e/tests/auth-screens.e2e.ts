/**
 * The login screens in Chromium (spec §2 login screens, §4 auth states, §6 separate logins, §8 messages): wrong
 * password, the slow-down after repeated wrong passwords, the lock, forgot → mailed code → reset → log in, a user refused on the vendor
 * tab, and logout.
 */
import { eq } from 'drizzle-orm';
import { LOGIN_FREE_FAILURES } from '@tessera/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zh from '../../apps/web/src/features/auth/locales/zh-TW.json' with { type: 'json' };
import { accounts, passwordThrottles } from '@tessera/server';
import { buildUser, buildVendor, TEST_PASSWORD } from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
import { mailedCode, submitLogin } from '../support/auth.js';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const NEW_PASSWORD = 'Reset#2026ok';
const msg = zh.auth;

describe('auth screens in Chromium', () => {
  let server: TTestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A fresh browser profile on /login. */
  async function loginPage(): Promise<Page> {
    const { page } = await newPage(browser, server.httpUrl);
    await page.goto('/login');
    return page;
  }
  const errorText = (page: Page) => page.getByTestId('login-error').textContent();

  it('says "wrong account or password" for a wrong password and stays on login', async () => {
    const { email } = await buildVendor(server);
    const page = await loginPage();
    expect(await submitLogin(page, email, 'Wrong#2026ok')).toBe(401);
    await expect.poll(() => errorText(page)).toContain(msg.errors.wrongCredentials);
    expect(new URL(page.url()).pathname).toBe('/login');
    // An unknown email gets the very same message.
    expect(await submitLogin(page, `nobody.${Date.now()}@example.com`, TEST_PASSWORD)).toBe(401);
    await expect.poll(() => errorText(page)).toContain(msg.errors.wrongCredentials);
    await page.context().close();
  });

  it('slows down repeated wrong passwords, shows the lock, then forgot → mailed code → reset unlocks and logs in', async () => {
    const { email, accountId } = await buildVendor(server);
    const page = await loginPage();
    for (let i = 1; i < LOGIN_FREE_FAILURES; i++) {
      expect(await submitLogin(page, email, `Wrong#2026x${i}`)).toBe(401);
      await expect.poll(() => errorText(page)).toContain(msg.errors.wrongCredentials);
    }
    // The last free failure opens a 1 s wait, doubling with each further failure; a try inside the wait answers 429
    // (whatever the password: the integration test checks that). A loaded machine may take over a second between two
    // submits, so the test keeps trying wrong passwords until one lands inside the wait — within a few tries.
    expect(await submitLogin(page, email, `Wrong#2026x${LOGIN_FREE_FAILURES}`)).toBe(401);
    const answers: number[] = [];
    while (answers.at(-1) !== 429 && answers.length < 5) answers.push(await submitLogin(page, email, `Wrong#2026y${answers.length}`));
    expect(answers.at(-1), `answers after the free failures: ${answers.join(', ')}`).toBe(429);
    expect(answers.every((status) => status === 401 || status === 429)).toBe(true);
    await expect.poll(() => errorText(page)).toContain(msg.errors.throttled);
    await snap(page, 'auth-throttled');

    // Wrong passwords never lock an account; an operator's lock does (accounts.locked_until): place one here.
    await server.ctx.db
      .update(accounts)
      .set({ lockedUntil: Date.now() + 60_000 })
      .where(eq(accounts.id, accountId));
    await server.ctx.db.delete(passwordThrottles).where(eq(passwordThrottles.email, email));
    expect(await submitLogin(page, email, TEST_PASSWORD)).toBe(423);
    await expect.poll(() => errorText(page)).toContain(msg.errors.locked);
    expect(new URL(page.url()).pathname).toBe('/login');
    await snap(page, 'auth-locked');

    await page.getByTestId('login-forgot').click();
    await page.waitForURL(/\/forgot$/);
    await page.getByTestId('forgot-email').fill(email);
    await page.getByTestId('forgot-submit').click();
    await page.waitForURL(/\/reset\?email=/);
    expect(await page.getByTestId('reset-email').inputValue()).toBe(email);

    const code = await mailedCode(server, email);
    await page.getByTestId('reset-code').fill(code);
    await page.getByTestId('reset-password').fill(NEW_PASSWORD);
    await page.getByTestId('reset-confirm').fill(NEW_PASSWORD);
    await page.getByTestId('reset-submit').click();
    await page.waitForURL((url) => url.pathname === '/login');
    await expect.poll(() => page.getByTestId('login-msg').textContent()).toContain(msg.msg.reset_done);

    // The old password no longer works; the new one does (and the reset lifted the lock).
    expect(await submitLogin(page, email, TEST_PASSWORD)).toBe(401);
    await expect.poll(() => errorText(page)).toContain(msg.errors.wrongCredentials);
    expect(await submitLogin(page, email, NEW_PASSWORD)).toBe(200);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    expect(await page.getByTestId('header-email').textContent()).toContain(email);
    await page.context().close();
  });

  it('refuses a user account on the vendor tab and admits it on the user tab', async () => {
    const vendor = await buildVendor(server);
    const { email } = await buildUser(server, vendor.tenantId);
    const page = await loginPage();
    expect(await submitLogin(page, email, TEST_PASSWORD, 'vendor')).toBe(401);
    await expect.poll(() => errorText(page)).toContain(msg.errors.wrongCredentials);
    expect(new URL(page.url()).pathname).toBe('/login');

    expect(await submitLogin(page, email, TEST_PASSWORD, 'user')).toBe(200);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    expect(await page.getByTestId('header-email').textContent()).toContain(email);
    await page.context().close();
  });

  it('logs out: back to /login, and a protected page then asks to log in again (token_out)', async () => {
    const { email } = await buildVendor(server);
    const { page } = await newPage(browser, server.httpUrl);
    await login(page, email, TEST_PASSWORD, 'vendor');
    await page.getByTestId('header-logout').click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await page.getByTestId('login-msg').count()).toBe(0);

    await page.goto('/product/list');
    await page.waitForURL(/\/login\?msg=token_out/);
    expect(await page.getByTestId('login-msg').textContent()).toContain(msg.msg.token_out);
    // A reload does not bring the session back.
    await page.reload();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.getByTestId('header-email').count()).toBe(0);
    await page.context().close();
  });
});
