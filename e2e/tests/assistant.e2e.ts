/**
 * The AI assistant in Chromium (zh-TW, the console's default) against the real server and a fake OpenAI-compatible endpoint that scripts
 * the model (apps/server/test/fake-openai.ts): a user without feature code 13:25 sees no assistant; a user with it
 * opens the panel, asks, and sees the answer appear piece by piece as the fake streams it, built from a scripted
 * list_devices call that saw only the user's own device, with a link to that device that opens its page. A proposed
 * device command is a button that sends nothing until the person confirms, and then calls the remote-control route.
 */
import { ASSISTANT_FEATURE, DEFAULT_FEATURES } from '@tessera/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorise,
  buildAccount,
  buildDeviceProject,
  startFakeOpenAi,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TBuiltProject,
  type TFakeOpenAi,
  type TTestServer,
} from '@tessera/server/testing';
import zh from '../../apps/web/src/features/assistant/locales/zh-TW.json' with { type: 'json' };
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const ANSWER = ['You can see ', 'one device: ', 'Boiler room sensor, ', 'online.'];

describe('AI assistant panel (Chromium)', () => {
  let fake: TFakeOpenAi;
  let server: TTestServer;
  let browser: Browser;
  let plain: TBuiltAccount;
  let asker: TBuiltAccount;
  let mine: TBuiltProject;
  let theirs: TBuiltProject;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    server = await startE2eServer({
      ai: { baseUrl: fake.url, apiKey: fake.apiKey, model: fake.model, dailyRequests: 100, dailyTokens: 1_000_000 },
    });
    const vendor = await buildAccount(server, { level: 'vendor' });
    plain = await buildAccount(server, { level: 'user', tenantId: vendor.tenantId });
    asker = await buildAccount(server, { level: 'user', tenantId: vendor.tenantId, fea: [...DEFAULT_FEATURES.user, ASSISTANT_FEATURE] });
    mine = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 });
    const other = await buildAccount(server, { level: 'vendor' });
    theirs = await buildDeviceProject(server.ctx.db, { tenantId: other.tenantId, count: 1 });
    await authorise(server.ctx.db, mine.devices[0].id, asker.accountId);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.stop();
  });

  const open = async (who: TBuiltAccount): Promise<Page> => {
    const { page } = await newPage(browser, server.httpUrl);
    await login(page, who.email, TEST_PASSWORD, 'user');
    await page.getByTestId('header-email').waitFor();
    return page;
  };

  it('shows no assistant to a user without 13:25', async () => {
    const page = await open(plain);
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('assistant-open').count()).toBe(0);
    expect(fake.requests).toHaveLength(0);
    await page.close();
  });

  it('streams the answer to a user with 13:25, built from tool calls over their own devices only', async () => {
    fake.chunkDelayMs = 400;
    fake.script({ toolCalls: [{ name: 'list_devices', arguments: {} }] }, { text: ANSWER.join(''), chunks: ANSWER });
    const page = await open(asker);
    await page.getByTestId('assistant-open').click();
    await page.getByTestId('assistant-empty').waitFor();
    await page.getByTestId('assistant-input').fill('Which devices can I see?');
    await page.getByTestId('assistant-send').click();

    const answer = page.getByTestId('assistant-answer-text');
    // Part of the answer shows while the fake is still writing the rest.
    await expect.poll(() => answer.textContent()).toContain('one device');
    expect(await answer.textContent()).not.toContain('online.');
    const final = page.locator('[data-author="assistant"]').last();
    await expect.poll(() => final.getByTestId(/-text$/).textContent()).toBe(ANSWER.join(''));
    expect(await final.getByTestId(/-tools$/).textContent()).toBe(zh.assistant.used.replace('{{tools}}', 'list_devices()'));

    const links = final.getByTestId('assistant-reference');
    expect(await links.count()).toBe(1);
    expect(await links.getAttribute('href')).toBe(`/device/detail/${mine.devices[0].tangramId}`);

    const toolResult = fake.bodies()[1].messages.find((m) => m.role === 'tool')?.content ?? '';
    expect(toolResult).toContain(mine.devices[0].tangramId);
    expect(toolResult).not.toContain(mine.devices[1].tangramId);
    expect(toolResult).not.toContain(theirs.devices[0].tangramId);
    await expect.poll(() => page.getByTestId('assistant-conversations').textContent()).toBe('Which devices can I see?');
    await snap(page, 'assistant-answer');

    await links.click();
    await page.waitForURL(new RegExp(`/device/detail/${mine.devices[0].tangramId}`));
    await page.close();
  });
  it('shows a proposed command as a button that sends nothing until the person confirms', async () => {
    fake.chunkDelayMs = 0;
    const target = mine.devices[0].tangramId;
    fake.script(
      { toolCalls: [{ name: 'propose_device_command', arguments: { tangram_id: target, command: 'getDeviceInfo' } }] },
      { text: 'Press the button.' },
    );
    const page = await open(asker);
    const commands: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/remoteControl/')) commands.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    await page.getByTestId('assistant-open').click();
    await page.getByTestId('assistant-input').fill('Check my device');
    await page.getByTestId('assistant-send').click();
    const button = page.locator('[data-testid^="assistant-message-"][data-author="assistant"] [data-testid$="-action-0"]').last();
    await button.waitFor();
    expect(await button.textContent()).toContain(zh.assistant.action.getDeviceInfo.split('{{device}}')[0]);
    await button.click();
    await page.getByText(zh.assistant.action.confirm).waitFor();
    expect(commands).toEqual([]);
    const sent = page.waitForRequest((r) => r.url().includes(`/devices/${target}/remoteControl/getDeviceInfo`));
    await page.locator('[data-testid$="-action-0-confirm"]').click();
    expect((await sent).method()).toBe('POST');
    expect(commands).toEqual([`POST /frontstage/v1/devices/${target}/remoteControl/getDeviceInfo`]);
    await page.close();
  });
});
