/**
 * A project's webhooks in Chromium, as a vendor would set one up: add it on the notification tab (the URL checked in
 * the form), copy the secret shown once, send a test that a real local receiver gets, see the receiver's answer in the
 * delivery log, and delete it after confirming; in Chinese, then the same card in English.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVendor, createProjectVia, TEST_PASSWORD, type TTestServer } from '@tessera/server/testing';
import { launchBrowser, newConsolePage, newPage } from '../support/browser.js';
import { login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('project webhooks in Chromium', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let receiver: Server;
  let receiverUrl = '';
  const received: { signature: string | undefined; body: string }[] = [];
  let projectId = 0;
  let vendorEmail = '';

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        received.push({ signature: req.headers['x-tessera-signature'] as string | undefined, body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    server = await startE2eServer();
    browser = await launchBrowser();
    const vendor = await buildVendor(server);
    vendorEmail = vendor.email;
    projectId = (await createProjectVia(server, vendor.token, '冷凍庫')).id;
    ({ page } = await newPage(browser, server.httpUrl, 'zh-TW'));
    await login(page, vendorEmail, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  });

  it('adds a webhook, shows its secret once, sends a test the receiver gets, and logs the answer', async () => {
    await page.goto(`/project/detail/${projectId}/notification`);
    const card = page.getByTestId('webhooks-card');
    await card.getByText('尚無 Webhook').waitFor();
    await page.getByTestId('webhook-add').click();
    await page.getByTestId('webhook-url').fill('ftp://example.com/x');
    await page.getByTestId('webhook-save').click();
    await page.getByText('請輸入不含帳號密碼的 http 或 https 網址').waitFor();
    await page.getByTestId('webhook-url').fill(receiverUrl);
    await page.getByTestId('webhook-save').click();

    const secret = (await page.getByTestId('webhook-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^whsec_/);
    await page.getByTestId('webhook-secret-close').click();
    await card.getByTestId('webhook-row-url').getByText(receiverUrl).waitFor();
    expect(await card.textContent()).not.toContain(secret);
    expect(await card.textContent()).toContain(`••••${secret.slice(-4)}`);

    await card.getByTestId('webhook-test').click();
    const log = page.getByTestId('webhook-deliveries');
    await log.getByTestId('webhook-delivery-status').getByText('已送達').waitFor({ timeout: 15_000 });
    expect(await log.textContent()).toContain('測試');
    expect(received).toHaveLength(1);
    expect(received[0]!.signature).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ event: 'webhook.test', project: { id: projectId } });
    await page.keyboard.press('Escape');
  });

  it('reads in English, and deletes the webhook after a confirmation', async () => {
    const { page: en } = await newConsolePage(browser, server.httpUrl, 'en');
    await login(en, vendorEmail, TEST_PASSWORD, 'vendor');
    await en.goto(`/project/detail/${projectId}/notification`);
    const card = en.getByTestId('webhooks-card');
    await card.getByText('Alert opened').waitFor();
    await card.getByTestId('webhook-delete').click();
    await en.getByText('Delete this webhook and its delivery log?').waitFor();
    await en.getByRole('button', { name: 'OK', exact: true }).click();
    await card.getByText('No webhooks yet').waitFor();
    await en.close();
  });
});
