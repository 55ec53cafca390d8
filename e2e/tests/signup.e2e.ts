/**
 * The sign-up screen in Chromium (spec §2 login screens, §5 validation, §7 verify-email + register/aiot, §8 messages;
 * docs/decisions/auth.md "Sign-up screens"): from the login page's link, every field checked in the browser, "send
 * code" mails the 6-digit code and counts down, and the mailed code opens a vendor account that lands logged in on
 * the console; a wrong code says so (then the right one opens a user account); an email that already has an account
 * says so.
 */
import { paths } from '@tessera/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zh from '../../apps/web/src/features/auth/locales/zh-TW.json' with { type: 'json' };
import commonZh from '../../apps/web/src/i18n/locales/common.zh-TW.json' with { type: 'json' };
import { buildVendor } from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
import { mailedCode } from '../support/auth.js';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { startE2eServer } from '../support/server.js';

const PASSWORD = 'Signup#2026ok';
const msg = zh.auth;
const valid = commonZh.validation;

let seq = 0;
/** A fresh address per sign-up (each test server has its own database, but addresses stay readable). */
const newEmail = (label: string) => `signup.${label}.${Date.now()}.${++seq}@example.com`;

/** True for the browser's POST to `path`. */
const isCall = (path: string) => (r: { url(): string; request(): { method(): string } }) =>
  r.request().method() === 'POST' && new URL(r.url()).pathname === path;

/** Clicks `testId` and resolves with the status of the POST to `path` it sends. */
async function clickAndAnswer(page: Page, testId: string, path: string): Promise<number> {
  const [response] = await Promise.all([page.waitForResponse(isCall(path)), page.getByTestId(testId).click()]);
  return response.status();
}

/** Fills every field of the sign-up form but the code. */
async function fillForm(page: Page, email: string, name: string): Promise<void> {
  await page.getByTestId('register-email').fill(email);
  await page.getByTestId('register-name').fill(name);
  await page.getByTestId('register-password').fill(PASSWORD);
  await page.getByTestId('register-confirm').fill(PASSWORD);
}

/** The form's validation messages on screen. */
const fieldErrors = (page: Page) => page.locator('.ant-form-item-explain-error').allTextContents();

describe('sign-up screen in Chromium', () => {
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

  /** A fresh browser profile on /register, reached through the login page's link (on the `role` tab). */
  async function registerPage(role: 'vendor' | 'user' = 'vendor'): Promise<Page> {
    const { page } = await newPage(browser, server.httpUrl);
    await page.goto('/login');
    await page.getByTestId(`login-tab-${role}`).click();
    expect(await page.getByTestId('login-register').textContent()).toBe(msg.createAccount);
    await page.getByTestId('login-register').click();
    await page.waitForURL((url) => url.pathname === '/register');
    return page;
  }
  const errorText = (page: Page) => page.getByTestId('register-error').textContent();

  it('checks every field in the browser, mails a code with a countdown, and logs the new vendor in', async () => {
    const page = await registerPage();
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') calls.push(new URL(r.url()).pathname);
    });

    // Nothing filled: five required fields, and nothing is sent.
    await page.getByTestId('register-submit').click();
    await expect.poll(() => fieldErrors(page)).toEqual(Array(5).fill(valid.required));
    // "Send code" checks the address first.
    await page.getByTestId('register-email').fill('not-an-email');
    await page.getByTestId('register-send-code').click();
    await expect.poll(() => fieldErrors(page)).toContain(valid.email);
    // §5 password rule and confirmation, and the 6-digit code.
    await page.getByTestId('register-password').fill('Short1!');
    await expect.poll(() => fieldErrors(page)).toContain(valid.min.replace('{{min}}', '8'));
    await page.getByTestId('register-password').fill('nocapital1!');
    await expect.poll(() => fieldErrors(page)).toContain(valid.upper);
    await page.getByTestId('register-password').fill('NoSpecial123');
    await expect.poll(() => fieldErrors(page)).toContain(valid.special);
    await page.getByTestId('register-password').fill(PASSWORD);
    await page.getByTestId('register-confirm').fill(`${PASSWORD}x`);
    await expect.poll(() => fieldErrors(page)).toContain(valid.mismatch);
    await page.getByTestId('register-code').fill('12ab');
    await expect.poll(() => fieldErrors(page)).toContain(valid.sixDigits);
    expect(calls).toEqual([]);
    await snap(page, 'signup-validation');

    const email = newEmail('vendor');
    await fillForm(page, email, 'Acme Sensors');
    expect(await clickAndAnswer(page, 'register-send-code', paths.verifyEmail)).toBe(204);
    // The button waits while the code is fresh, counting down; the hint names the address.
    const sendButton = page.getByTestId('register-send-code');
    await expect.poll(() => sendButton.isDisabled()).toBe(true);
    const countdown = new RegExp(msg.register.resendIn.replace('{{seconds}}', '\\d+'));
    await expect.poll(async () => countdown.test((await sendButton.textContent()) ?? '')).toBe(true);
    expect(await page.getByTestId('register-code-sent').textContent()).toContain(email);

    await page.getByTestId('register-code').fill(await mailedCode(server, email));
    expect(await clickAndAnswer(page, 'register-submit', paths.register)).toBe(200);
    await page.waitForURL((url) => url.pathname === '/dashboard');
    expect(await page.getByTestId('header-email').textContent()).toContain(email);
    await page.getByTestId('menu-product').waitFor();
    await snap(page, 'signup-done');
    await page.context().close();
  });

  it('says "verification code expired or wrong" for a wrong code; the right one then opens a user account', async () => {
    const page = await registerPage('user');
    expect(new URL(page.url()).searchParams.get('role')).toBe('user');
    expect(await page.getByTestId('register-role-user').locator('xpath=ancestor::label').getAttribute('class')).toContain('checked');
    const email = newEmail('user');
    await fillForm(page, email, 'Mei');
    expect(await clickAndAnswer(page, 'register-send-code', paths.verifyEmail)).toBe(204);
    const code = await mailedCode(server, email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');

    await page.getByTestId('register-code').fill(wrong);
    expect(await clickAndAnswer(page, 'register-submit', paths.register)).toBe(400);
    await expect.poll(() => errorText(page)).toContain(msg.errors.codeInvalid);
    expect(new URL(page.url()).pathname).toBe('/register');
    await snap(page, 'signup-wrong-code');

    // A wrong guess leaves the code usable.
    await page.getByTestId('register-code').fill(code);
    expect(await clickAndAnswer(page, 'register-submit', paths.register)).toBe(200);
    await page.waitForURL((url) => !url.pathname.startsWith('/register'));
    expect(await page.getByTestId('header-email').textContent()).toContain(email);
    await page.getByTestId('menu-device').waitFor();
    expect(await page.getByTestId('menu-product').count()).toBe(0);
    await page.context().close();
  });

  it('says the email already has an account, and offers the password reset', async () => {
    const { email } = await buildVendor(server);
    const page = await registerPage();
    await fillForm(page, email, 'Second Acme');
    expect(await clickAndAnswer(page, 'register-send-code', paths.verifyEmail)).toBe(204);
    await page.getByTestId('register-code').fill(await mailedCode(server, email));
    expect(await clickAndAnswer(page, 'register-submit', paths.register)).toBe(409);
    await expect.poll(() => errorText(page)).toContain(msg.errors.emailTaken);
    expect(new URL(page.url()).pathname).toBe('/register');
    await snap(page, 'signup-email-taken');

    await page.getByTestId('register-error').getByRole('link', { name: msg.forgot }).click();
    await page.waitForURL((url) => url.pathname === '/forgot');
    await page.context().close();
  });
});
