/**
 * End to end in Chromium: the flow editor refuses a connection apply would refuse and says why where it was drawn,
 * in Chinese and in English; the trigger's scope picks projects by name (stored as their ids); a node's form says
 * what is wrong with a field in words, not the validator's.
 */
import { paths, platformRulePaths, type TFlowGraphInput, type TPlatformRule, type TProject } from '@tessera/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, buildVendor, TEST_PASSWORD, type TBuiltAccount, type TTestServer } from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { login, pickOption } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('flow editor: refused connections, scope by name, form errors in words (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let vendor: TBuiltAccount;
  let ruleId = 0;
  let project: TProject;

  const at = (y: number) => ({ x: 80, y });
  const draft: TFlowGraphInput = {
    nodes: [
      { id: 'n1', type: 'start', position: at(0), data: { trigger: { kind: 'telemetry', scope: { kind: 'projects', ids: [] } } } },
      { id: 'n2', type: 'condition', position: at(120), data: { expression: 'value > 30' } },
      { id: 'n3', type: 'conditionResult', position: { x: 320, y: 240 }, data: { result: true } },
      { id: 'n4', type: 'alert', position: { x: -160, y: 240 }, data: { level: 'alert', message: '' } },
    ],
    edges: [{ id: 'e1', source: 'n1', target: 'n2' }],
  };

  beforeAll(async () => {
    server = await startE2eServer();
    vendor = await buildVendor(server);
    const built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
    await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
    project = (await server.api<TProject>('GET', paths.project(built.projectId), { token: vendor.token })).body;
    const created = await server.api<TPlatformRule>('POST', platformRulePaths.rules, {
      token: vendor.token,
      body: { name: 'Refusals', draft },
    });
    ruleId = created.body.id;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function openEditor(locale: string): Promise<Page> {
    const { page } = await newPage(browser, server.httpUrl, locale);
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
    // The profile's language wins at login: switch to the one asked for.
    await page.getByTestId(`language-${locale}`).click();
    // The language is stored once its strings have loaded; a navigation before that would start in the old one.
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(locale);
    await page.goto(`/platform_rule/detail/${ruleId}`);
    await page.getByTestId('flow-node-n4').waitFor();
    return page;
  }
  async function connect(page: Page, from: string, to: string): Promise<void> {
    await page
      .locator(`[data-testid="flow-node-${from}"] .react-flow__handle.source`)
      .dragTo(page.locator(`[data-testid="flow-node-${to}"] .react-flow__handle.target`));
  }

  it('refuses a condition leading straight to an alert, and says why where it was drawn (zh-TW)', async () => {
    const page = await openEditor('zh-TW');
    await connect(page, 'n2', 'n4');
    const note = page.getByTestId('flow-connection-refused');
    await note.waitFor();
    expect(await note.textContent()).toBe('無法連接：條件之後要先接「條件結果」節點（真或假），再接其他動作');
    expect(await page.locator('.react-flow__edge').count()).toBe(1);
    // Placed where the connection was let go: over the alert node's input.
    const [noteBox, handleBox] = await Promise.all([
      note.boundingBox(),
      page.locator('[data-testid="flow-node-n4"] .react-flow__handle.target').boundingBox(),
    ]);
    expect(Math.abs((noteBox?.x ?? 0) - (handleBox?.x ?? 0))).toBeLessThan(40);
    expect(Math.abs((noteBox?.y ?? 0) - (handleBox?.y ?? 0))).toBeLessThan(40);
    await snap(page, 'flow-connection-refused');
    // An allowed connection is drawn and the note goes.
    await connect(page, 'n2', 'n3');
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(2);
    expect(await note.count()).toBe(0);
    // The true result then leads on to the alert.
    await connect(page, 'n3', 'n4');
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(3);
    await page.context().close();
  });

  it('picks the trigger scope by project name and says a field problem in words (zh-TW)', async () => {
    const page = await openEditor('zh-TW');
    await page.getByTestId('flow-node-n4').click();
    const problem = page.getByTestId('node-form-problem');
    await problem.waitFor();
    expect(await problem.textContent()).toBe('訊息：請填寫此欄位');

    await page.getByTestId('flow-node-n1').click();
    await page.locator('[data-testid="node-field-trigger-scope-ids"] input').fill(project.name.slice(0, 10));
    await pickOption(page, 'node-field-trigger-scope-ids', project.name);
    const chosen = page.locator('[data-testid="node-field-trigger-scope-ids"] .ant-select-selection-item');
    await expect.poll(() => chosen.allTextContents()).toEqual([project.name]);
    // The search text is gone after the pick.
    expect(await page.locator('[data-testid="node-field-trigger-scope-ids"] input').inputValue()).toBe('');
    await page.getByTestId('rule-save').click();
    await expect
      .poll(async () => {
        const rule = (await server.api<TPlatformRule>('GET', platformRulePaths.rule(ruleId), { token: vendor.token })).body;
        const start = (rule.draft.nodes as { id: string; data: { trigger: { scope: { ids: number[] } } } }[]).find((n) => n.id === 'n1');
        return start?.data.trigger.scope.ids;
      })
      .toEqual([project.id]);
    await snap(page, 'flow-scope-by-name');
    await page.context().close();
  });

  it('says the refusal in English in the English console', async () => {
    const page = await openEditor('en');
    await connect(page, 'n4', 'n3');
    const note = page.getByTestId('flow-connection-refused');
    await note.waitFor();
    expect(await note.textContent()).toBe('Cannot connect: a “condition result” node follows exactly one condition');
    await page.getByTestId('flow-node-n4').click();
    expect(await page.getByTestId('node-form-problem').textContent()).toBe('Message: Fill in this field');
    await page.context().close();
  });
});
