/**
 * /profile in Chromium (spec §2 "Profile and tokens", §1 API tokens with name and validity or permanent, §5
 * password rule): the name edit survives a reload, a changed password is the one that logs in, and an API key is
 * shown once, works as a Bearer token, and stops working once revoked.
 */
import { paths } from '@tessera/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import authZh from '../../apps/web/src/features/auth/locales/zh-TW.json' with { type: 'json' };
import commonZh from '../../apps/web/src/i18n/locales/common.zh-TW.json' with { type: 'json' };
import profileZh from '../../apps/web/src/features/profile/locales/zh-TW.json' with { type: 'json' };
import { buildVendor, TEST_PASSWORD } from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
import { submitLogin } from '../support/auth.js';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const NEW_PASSWORD = 'Changed#2026';
const KEY_NAME = 'ci-pipeline';
/** antd puts a space between the two characters of a CJK button label (確 定). */
const spaced = (label: string) => new RegExp(`^${[...label].join('\\s*')}$`);

describe('profile page in Chromium', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let email: string;

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    email = (await buildVendor(server)).email;
    ({ page } = await newPage(browser, server.httpUrl));
    await login(page, email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** GET profile with `key` as the Bearer token, as a script of the customer would. */
  const profileWith = (key: string) => fetch(`${server.httpUrl}${paths.profile}`, { headers: { authorization: `Bearer ${key}` } });

  it('asks before leaving an unsaved name, then saves it and it is still there later', async () => {
    await page.getByTestId('header-profile').click();
    await page.waitForURL(/\/profile$/);
    const name = page.getByTestId('profile-name');
    await name.fill('王小明');
    // leaving with an unsaved edit asks first; staying keeps the edit
    await page.getByTestId('menu-project').click();
    await page.getByTestId('unsaved-stay').click();
    expect(new URL(page.url()).pathname).toBe('/profile');
    expect(await name.inputValue()).toBe('王小明');
    await page.getByTestId('profile-submit').click();
    await page.getByText(commonZh.common.saved).first().waitFor();
    await page.getByTestId('menu-project').click(); // saved: no prompt
    await page.waitForURL(/\/project\//);
    await page.goto('/profile');
    await expect.poll(() => name.inputValue()).toBe('王小明');
    expect(await page.getByText(email).count()).toBeGreaterThan(0);
  });

  it('changes the password, and the new one is the one that logs in', async () => {
    await page.getByTestId('pwd-old').fill(TEST_PASSWORD);
    await page.getByTestId('pwd-password').fill(NEW_PASSWORD);
    await page.getByTestId('pwd-confirm').fill(NEW_PASSWORD);
    await page.getByTestId('pwd-submit').click();
    await page.getByText(authZh.auth.setPwdDone).first().waitFor();

    const other = (await newPage(browser, server.httpUrl)).page;
    await other.goto('/login');
    expect(await submitLogin(other, email, TEST_PASSWORD)).toBe(401);
    await expect.poll(() => other.getByTestId('login-error').textContent()).toContain(authZh.auth.errors.wrongCredentials);
    expect(await submitLogin(other, email, NEW_PASSWORD)).toBe(200);
    await other.waitForURL((url) => !url.pathname.startsWith('/login'));
    expect(await other.getByTestId('header-email').textContent()).toContain(email);
    await other.context().close();
  });

  it('creates a permanent API key shown once, which works as a Bearer token until revoked', async () => {
    await page.goto('/profile');
    await page.getByTestId('api-key-create').click();
    await page.getByTestId('api-key-name').fill(KEY_NAME);
    await page.getByTestId('api-key-permanent').check();
    await page.getByTestId('api-key-submit').click();
    const secret = page.getByTestId('api-key-secret');
    const key = ((await secret.textContent()) ?? '').trim();
    expect(key).toMatch(/^tsk_\S{20,}$/);
    await snap(page, 'profile-api-key-once');

    const ok = await profileWith(key);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { email: string }).email).toBe(email);

    await page
      .getByRole('dialog')
      .getByRole('button', { name: spaced(commonZh.common.confirm) })
      .click();
    await secret.waitFor({ state: 'detached' });
    const row = page.locator('[data-testid^="api-key-row-"]').filter({ hasText: KEY_NAME });
    await row.waitFor();
    expect(await row.textContent()).toContain(profileZh.profile.keys.permanent);
    // Shown once: neither the page nor a reload of it holds the key any more.
    expect(await page.content()).not.toContain(key);
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(key);

    await row.locator('[data-testid^="api-key-revoke-"]').click();
    await page.getByTestId('api-key-revoke-confirm').click();
    await expect.poll(() => row.textContent()).toContain(profileZh.profile.keys.revoked);
    expect((await profileWith(key)).status).toBe(401);
  });
});
