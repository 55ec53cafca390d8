/**
 * LINE in Chromium against the real server and a fake LINE Messaging API (a real local HTTP server): the
 * vendor saves the Line official account (secrets only ever shown masked) and reads the webhook URL; a LINE user
 * asks the bot to link, opens the bot's link page logged out, logs in, confirms and is sent to LINE's accountLink
 * URL (intercepted here), LINE's accountLink event completes the link; the vendor builds a push group of that account
 * and a LINE group chat, sends a test push (the fake receives it with the channel's token), meets the connection
 * limit and the monthly push limit, and deletes the group.
 */
import { randomBytes } from 'node:crypto';
import { LINE_ACCOUNT_LINK_URL, LINE_GROUP_MEMBERS_MAX } from '@tessera/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProjectVia,
  buildUser,
  buildVendor,
  TEST_PASSWORD,
  type TBuiltAccount,
  lineEvents,
  signLine,
  startFakeLine,
  webhookBody,
  type TFakeLine,
} from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
import { submitLogin } from '../support/auth.js';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const CHANNEL_SECRET = randomBytes(16).toString('hex');
const ACCESS_TOKEN = `tok${randomBytes(30).toString('base64url')}`;
const LINE_USER = `U${randomBytes(16).toString('hex')}`;
const LINE_CHAT = `C${randomBytes(16).toString('hex')}`;

describe('LINE push in Chromium', () => {
  let fake: TFakeLine;
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let webhookPath = '';

  beforeAll(async () => {
    fake = await startFakeLine();
    server = await startE2eServer({ lineApiBase: fake.url });
    browser = await launchBrowser();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    await createProjectVia(server, vendor.token, '冷凍倉庫');
    ({ page } = await newPage(browser, server.httpUrl, 'zh-TW'));
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.stop();
  });

  /** Posts `events` to the webhook as LINE does: raw JSON signed with the channel secret. */
  async function fromLine(events: unknown[]): Promise<number> {
    const body = webhookBody(events);
    const res = await fetch(`${server.httpUrl}${webhookPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'x-line-signature': signLine(body, CHANNEL_SECRET) },
      body,
    });
    return res.status;
  }

  it('redirects line-notify to its group page, which starts empty', async () => {
    await page.getByTestId('menu-lineNotify').click();
    await page.waitForURL('**/line-notify/group');
    await page.goto('/line-notify');
    await page.waitForURL('**/line-notify/group');
    await page.getByText('尚無推播群組').waitFor();
    await page.getByText('尚未設定官方帳號。').waitFor();
  });

  it('saves the official account, shows the secrets masked and the webhook URL to paste into LINE', async () => {
    await page.getByTestId('line-channel-id').fill('1657000001');
    await page.getByTestId('line-channel-secret').fill('not-hex');
    await page.getByTestId('line-access-token').fill(ACCESS_TOKEN);
    await page.getByTestId('line-bot-basic-id').fill('@tessera');
    await page.getByTestId('line-account-save').click();
    await page.getByText('格式不正確').first().waitFor();
    await page.getByTestId('line-channel-secret').fill(CHANNEL_SECRET);
    await page.getByTestId('line-account-save').click();
    const url = page.getByTestId('line-webhook-url');
    await url.waitFor();
    webhookPath = new URL((await url.textContent()) ?? '').pathname;
    expect(`${server.httpUrl}${webhookPath}`).toBe((await url.textContent())?.trim());
    await page.getByText(`已儲存（••••${CHANNEL_SECRET.slice(-4)}），留空即保留`).waitFor();
    await page.getByText(`已儲存（••••${ACCESS_TOKEN.slice(-4)}），留空即保留`).waitFor();
    await page.reload();
    await page.getByTestId('line-webhook-url').waitFor();
    const html = await page.content();
    expect(html).not.toContain(CHANNEL_SECRET);
    expect(html).not.toContain(ACCESS_TOKEN);
    await snap(page, 'line-notify-account');
  });

  it('links a user: "綁定" in LINE → link page (after login) → LINE accountLink URL → accountLink event', async () => {
    fake.names.set(LINE_USER, '陳美玲');
    expect(await fromLine([lineEvents.follow(LINE_USER)])).toBe(200);
    expect(await fromLine([lineEvents.text(LINE_USER, '綁定')])).toBe(200);
    const reply = fake.calls('/v2/bot/message/reply').at(-1)!;
    expect(reply.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    const replyText = (reply.body as { messages: { text: string }[] }).messages[0].text;
    const linkUrl = new URL(/https?:\/\/\S+/.exec(replyText)![0]);
    expect(linkUrl.origin).toBe(server.httpUrl);
    expect(linkUrl.pathname).toBe('/line-notify/link');

    const { context, page: userPage } = await newPage(browser, server.httpUrl, 'zh-TW');
    let lineUrl = '';
    await context.route('https://access.line.me/**', (route) => {
      lineUrl = route.request().url();
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<p>LINE</p>' });
    });
    await userPage.goto(`${linkUrl.pathname}${linkUrl.search}`);
    await userPage.waitForURL('**/login?**');
    expect(await submitLogin(userPage, user.email, TEST_PASSWORD, 'user')).toBe(200);
    await userPage.waitForURL((u) => u.pathname === '/line-notify/link');
    expect(new URL(userPage.url()).searchParams.get('linkToken')).toBe(linkUrl.searchParams.get('linkToken'));
    expect(await userPage.getByTestId('line-link-text').textContent()).toContain(user.email);
    await snap(userPage, 'line-notify-link-confirm');
    await userPage.getByTestId('line-link-confirm').click();
    await expect.poll(() => lineUrl).not.toBe('');
    await userPage.waitForURL(/^https:\/\/access\.line\.me\//); // the browser is on LINE's page before it comes back
    const toLine = new URL(lineUrl);
    expect(`${toLine.origin}${toLine.pathname}`).toBe(LINE_ACCOUNT_LINK_URL);
    expect(toLine.searchParams.get('linkToken')).toBe(linkUrl.searchParams.get('linkToken'));
    const nonce = toLine.searchParams.get('nonce') ?? '';
    expect(nonce.length).toBeGreaterThanOrEqual(10);

    expect(await fromLine([lineEvents.accountLink(LINE_USER, nonce)])).toBe(200);
    expect(JSON.stringify(fake.calls('/v2/bot/message/reply').at(-1)?.body)).toContain(user.email);
    await userPage.goto('/line-notify/group');
    await expect.poll(() => userPage.getByTestId('line-my-link-state').textContent()).toContain('陳美玲');
    expect(await userPage.getByTestId('line-group-add').count()).toBe(0);
    await context.close();
  });

  it('creates a group of the linked account and a LINE group chat, and shows its detail', async () => {
    fake.names.set(LINE_CHAT, '冷凍倉庫值班');
    expect(await fromLine([lineEvents.join(LINE_CHAT)])).toBe(200);
    await page.goto('/line-notify/group');
    await page.getByTestId('line-group-add').click();
    await page.getByTestId('line-group-name').fill('倉庫告警');
    await page.getByTestId('line-group-projects').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '冷凍倉庫' }).first().click();
    await page.getByTestId('line-group-accounts').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: user.email }).click();
    await page.getByTestId('line-group-chats').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '冷凍倉庫值班' }).click();
    await page.getByTestId('line-group-submit').click();
    await page.getByTestId('line-group-row-倉庫告警').waitFor();
    await page.getByTestId('line-group-row-倉庫告警').getByRole('link', { name: '倉庫告警' }).click();
    await page.waitForURL(/\/line-notify\/group\/\d+$/);
    expect(await page.getByTestId('line-group-title').textContent()).toBe('倉庫告警');
    expect(await page.getByTestId('line-group-projects-text').textContent()).toBe('冷凍倉庫');
    await page.getByTestId(`line-member-${user.email}`).waitFor();
    await page.getByTestId('line-member-冷凍倉庫值班').waitFor();
    await page.getByText('陳美玲').waitFor();
  });

  it('sends a test push that LINE receives with the channel token, to every member', async () => {
    const before = fake.calls('/v2/bot/message/push').length;
    await page.getByTestId('line-group-test').click();
    await expect.poll(() => page.getByTestId('line-test-status').allTextContents()).toEqual(['已送出', '已送出']);
    const pushes = fake.calls('/v2/bot/message/push').slice(before);
    expect(pushes.map((p) => (p.body as { to: string }).to).sort()).toEqual([LINE_CHAT, LINE_USER].sort());
    for (const p of pushes) {
      expect(p.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
      expect((p.body as { messages: { type: string; text: string }[] }).messages).toEqual([
        { type: 'text', text: 'Tessera 測試推播：推播群組「倉庫告警」。收到這則訊息，表示這裡會收到此群組的告警。' },
      ]);
    }
    await snap(page, 'line-notify-group-detail');
  });

  it("shows the spec's monthly push limit message when LINE refuses for the quota", async () => {
    fake.mode = 'monthly_limit';
    try {
      await page.getByTestId('line-group-test').click();
      await expect.poll(() => page.getByTestId('line-test-status').allTextContents()).toEqual(['已超過本月推播上限', '已超過本月推播上限']);
    } finally {
      fake.mode = 'ok';
    }
  });

  it(`refuses more than ${LINE_GROUP_MEMBERS_MAX} members with the spec's connection-limit message`, async () => {
    const chats = Array.from(
      { length: LINE_GROUP_MEMBERS_MAX },
      (_, i) => `C${i.toString().padStart(2, '0')}${randomBytes(15).toString('hex')}`,
    );
    for (const [i, c] of chats.entries()) fake.names.set(c, `群組${String(i).padStart(2, '0')}`);
    expect(await fromLine(chats.map(lineEvents.join))).toBe(200);
    await page.getByTestId('line-group-edit').click();
    await page.getByTestId('line-group-chats').click();
    for (let i = 0; i < LINE_GROUP_MEMBERS_MAX; i++) {
      const name = `群組${String(i).padStart(2, '0')}`;
      await page.keyboard.type(name);
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: name }).click();
    }
    await expect.poll(() => page.getByTestId('line-group-member-count').textContent()).toContain(`22 / ${LINE_GROUP_MEMBERS_MAX}`);
    await page.getByTestId('line-group-name').click();
    await page.getByTestId('line-group-submit').click();
    await page.getByText('Line Notify 連結數已達上限').waitFor();
    await page.keyboard.press('Escape');
  });

  it('deletes the group after a confirmation', async () => {
    await page.goto('/line-notify/group');
    await page.getByTestId('line-group-delete-倉庫告警').click();
    await page.getByTestId('line-group-delete-confirm').click();
    await page.getByText('尚無推播群組').waitFor();
  });
});
