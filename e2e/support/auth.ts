/**
 * Auth helpers for e2e tests: submitting the login form where the browser already is (so a `redirectFrom` in the
 * URL is kept), waiting for the login call's answer, and reading a mailed code from the server's outbox (mail is
 * stored there when no SMTP_URL is set).
 */
import { desc, eq } from 'drizzle-orm';
import { paths } from '@tessera/contracts';
import type { Page } from 'playwright-core';
import { outboxEmails } from '@tessera/server';
import type { TTestServer } from '@tessera/server/testing';
import { eventually } from './console.js';

/** True for the browser's POST to the login endpoint. */
const isLoginCall = (url: string, method: string) => method === 'POST' && new URL(url).pathname === paths.login;

/**
 * Fills and submits the login form of the current page (no navigation first) on the `role` tab and resolves with
 * the HTTP status of the login call once the server has answered.
 */
export async function submitLogin(page: Page, email: string, password: string, role: 'vendor' | 'user' = 'vendor'): Promise<number> {
  await page.getByTestId(`login-tab-${role}`).click();
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  const [response] = await Promise.all([
    page.waitForResponse((r) => isLoginCall(r.url(), r.request().method())),
    page.getByTestId('login-submit').click(),
  ]);
  return response.status();
}

/**
 * The 6-digit code of the newest mail to `email` in the outbox, waiting up to `timeoutMs` for it.
 * @throws when no mail with a code arrives in time.
 */
export async function mailedCode(server: TTestServer, email: string, timeoutMs = 10_000): Promise<string> {
  const text = await eventually(async () => {
    const [mail] = await server.ctx.db
      .select({ text: outboxEmails.text })
      .from(outboxEmails)
      .where(eq(outboxEmails.to, email))
      .orderBy(desc(outboxEmails.id))
      .limit(1);
    return mail?.text ?? '';
  }, timeoutMs);
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  if (!code) throw new Error(`no code mailed to ${email} (outbox text: ${JSON.stringify(text)})`);
  return code;
}
