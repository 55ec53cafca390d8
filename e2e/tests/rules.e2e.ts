/**
 * The project's rule tab in Chromium against the real server: switch the rule type, add / edit / delete a simple rule,
 * build a Blockly program in the real workspace (the rule block dragged from the toolbox, the rest through the
 * page's Blockly instance), compile with an error marked on its block, fix it, compile OK, save, reload and find it
 * persisted; then edit the blockly setting.
 */
import { RULE_BLOCK, rulePaths, type TBlocklyProgram, type TProject } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectBlocklyPrograms, projectBlocklySettings, projectSimpleRules } from '@tessera/server';
import { buildDeviceProject, buildVendor, TEST_PASSWORD, type TBuiltAccount } from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
// The web module declares `window.tesseraRuleEditor`, the open editor's workspace the page functions below use.
import type {} from '../../apps/web/src/features/project-rules/blockly/workspace.js';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { login, pickOption } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const MODE = {
  name: 'Mode',
  index: 0,
  bytesLength: 2,
  values: [
    { value: 0, label: 'Idle' },
    { value: 2, label: 'Fault' },
  ],
};

describe('rule tab in Chromium', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let vendor: TBuiltAccount;
  let projectId = 0;
  const fetchedOutside: string[] = [];

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    vendor = await buildVendor(server);
    projectId = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 0, statusGroups: [MODE] })).projectId;
    ({ page } = await newPage(browser, server.httpUrl, 'zh-TW'));
    page.on('request', (r) => {
      if (!r.url().startsWith(server.httpUrl) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) fetchedOutside.push(r.url());
    });
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const ruleType = async () =>
    (await server.api<TProject>('GET', `/frontstage/v1/projects/${projectId}`, { token: vendor.token })).body.rule_type;
  const simpleRules = () => server.ctx.db.select().from(projectSimpleRules).where(eq(projectSimpleRules.projectId, projectId));

  it('switches the rule type between level and edge, with a line explaining each', async () => {
    await page.goto(`/project/detail/${projectId}/rule`);
    await page.getByText('條件成立期間警報保持開啟，通知最多每隔下方設定的間隔重複一次。').waitFor();
    await page.getByText('條件由不成立變為成立時執行一次，須再次不成立後才會再觸發。').waitFor();
    expect(await page.getByTestId('rule-type-level').isChecked()).toBe(true);
    const renotify = page.getByTestId('rule-renotify');
    expect(await renotify.inputValue()).toBe('10.0'); // the 600 s default, in minutes
    await renotify.fill('5');
    await renotify.press('Enter');
    await expect
      .poll(
        async () =>
          (await server.api<TProject>('GET', `/frontstage/v1/projects/${projectId}`, { token: vendor.token })).body.renotify_interval_s,
      )
      .toBe(300);
    await page.getByTestId('rule-type-edge').click();
    await expect.poll(ruleType).toBe('edge');
    await page.reload();
    await expect.poll(() => page.getByTestId('rule-type-edge').isChecked()).toBe(true);
  });

  it('adds, edits and deletes a simple rule (delete asks first)', async () => {
    await page.getByTestId('simple-rule-add').click();
    await page.getByTestId('simple-rule-name').fill('過'.repeat(33));
    await page.getByTestId('simple-rule-threshold').fill('30');
    await page.getByTestId('simple-rule-message').fill('溫度過高');
    await page.getByTestId('simple-rule-submit').click();
    await page.getByText('最多 32 個字元').waitFor();
    await page.getByTestId('simple-rule-name').fill('過熱');
    await page.getByTestId('simple-rule-submit').click();
    const row = page.getByTestId('simple-rule-row-過熱');
    await expect.poll(() => row.textContent()).toContain('temperature.v1 > 30');
    expect(await row.textContent()).toContain('警報');
    expect(await simpleRules()).toMatchObject([
      { name: '過熱', key: 'temperature', op: 'gt', threshold: 30, durationS: 0, level: 'alert' },
    ]);

    await page.getByTestId('simple-rule-edit-過熱').click();
    await page.getByTestId('simple-rule-threshold').fill('35');
    await page.getByTestId('simple-rule-duration').fill('60');
    await pickOption(page, 'simple-rule-level', '預警');
    await page.getByTestId('simple-rule-submit').click();
    await expect.poll(() => row.textContent()).toContain('temperature.v1 > 35 持續 60 秒');
    expect(await row.textContent()).toContain('預警');
    expect(await simpleRules()).toMatchObject([{ threshold: 35, durationS: 60, level: 'early_warning' }]);

    await page.getByTestId('simple-rule-delete-過熱').click();
    await page.getByText('刪除規則 過熱？').waitFor();
    await page.getByTestId('simple-rule-delete-confirm').click();
    await page.getByText('尚無簡易規則').waitFor();
    expect(await simpleRules()).toEqual([]);
  });

  it('builds a program in Blockly, marks a compile error on its block, fixes it, saves, and finds it after a reload', async () => {
    await page.getByTestId('program-add').click();
    await page.locator('.blocklyToolbox').waitFor();
    // The rule block is placed through the UI: open the "規則" category and drag the block onto the workspace.
    await page.locator('.blocklyToolboxCategory', { hasText: '規則' }).first().click();
    const fromFlyout = page.locator('.blocklyFlyout .blocklyDraggable').first();
    await fromFlyout.waitFor();
    const box = (await fromFlyout.boundingBox())!;
    const area = (await page.getByTestId('blockly-workspace').boundingBox())!;
    await page.mouse.move(box.x + 15, box.y + 15);
    await page.mouse.down();
    await page.mouse.move(area.x + area.width / 2, area.y + 120, { steps: 12 });
    await page.mouse.up();
    await expect
      .poll(() => page.evaluate((type) => window.tesseraRuleEditor?.workspace.getBlocksByType(type, false).length ?? 0, RULE_BLOCK.rule))
      .toBe(1);

    // The rest through the page's Blockly instance: "when temperature.v1 > (empty) then raise alert".
    const compareId = await page.evaluate((T) => {
      const ws = window.tesseraRuleEditor!.workspace;
      const make = (type: string) => {
        const b = ws.newBlock(type);
        b.initSvg();
        b.render();
        return b;
      };
      const rule = ws.getBlocksByType(T.rule, false)[0];
      const compare = make(T.compare);
      const telemetry = make(T.telemetry);
      telemetry.setFieldValue('temperature', 'KEY');
      compare.getInput('A')!.connection!.connect(telemetry.outputConnection!);
      rule.getInput('COND')!.connection!.connect(compare.outputConnection!);
      const alert = make(T.alert);
      alert.setFieldValue('溫度過高', 'MESSAGE');
      rule.getInput('DO')!.connection!.connect(alert.previousConnection!);
      return compare.id;
    }, RULE_BLOCK);
    await page.getByTestId('program-name').fill('冷卻程式');

    await page.getByTestId('program-compile').click();
    await page.getByTestId('compile-error-missing_input').waitFor();
    expect(await page.getByTestId('compile-errors').textContent()).toContain('此積木有尚未填入的輸入');
    await page.locator(`.blocklyDraggable[data-id="${compareId}"] > .blocklyIconGroup`).first().waitFor();
    expect(
      await page.evaluate((id) => window.tesseraRuleEditor!.workspace.getBlockById(id)!.getIcon('warning') !== undefined, compareId),
    ).toBe(true);
    await snap(page, 'rules-compile-error');

    // Fix: a number in the empty input of the comparison.
    await page.evaluate(
      ([T, id]) => {
        const ws = window.tesseraRuleEditor!.workspace;
        const n = ws.newBlock(T.number);
        n.setFieldValue(30, 'NUM');
        n.initSvg();
        n.render();
        ws.getBlockById(id)!.getInput('B')!.connection!.connect(n.outputConnection!);
      },
      [RULE_BLOCK, compareId] as const,
    );
    await page.getByTestId('program-compile').click();
    await page.getByTestId('compile-ok').waitFor();
    expect(await page.getByTestId('compile-ok').textContent()).toContain('編譯成功：1 條規則');
    await expect.poll(() => page.locator(`.blocklyDraggable[data-id="${compareId}"] > .blocklyIconGroup`).count()).toBe(0);

    await page.getByTestId('program-save').click();
    await page.getByText('已儲存並編譯').waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('program')).toMatch(/^\d+$/);
    const [row] = await server.ctx.db.select().from(projectBlocklyPrograms).where(eq(projectBlocklyPrograms.projectId, projectId));
    expect(row).toMatchObject({ name: '冷卻程式', errors: [] });
    expect(row.program?.rules[0]).toMatchObject({
      condition: { type: 'compare', op: 'gt', left: { key: 'temperature' }, right: { type: 'number', value: 30 } },
      actions: [{ type: 'alert', level: 'alert', message: '溫度過高' }],
    });

    await page.reload();
    await page.locator('.blocklyToolbox').waitFor();
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            window.tesseraRuleEditor?.workspace
              .getAllBlocks(false)
              .map((b) => b.type)
              .sort() ?? [],
          null,
        ),
      )
      .toEqual([RULE_BLOCK.alert, RULE_BLOCK.compare, RULE_BLOCK.number, RULE_BLOCK.rule, RULE_BLOCK.telemetry].sort());
    expect(await page.getByTestId('program-name').inputValue()).toBe('冷卻程式');
    await page.getByTestId('compile-ok').waitFor();
    await snap(page, 'rules-program-saved');

    await page.getByTestId('program-close').click();
    const listed = page.getByTestId('program-row-冷卻程式');
    await expect.poll(() => listed.textContent()).toContain('已編譯');
    const saved = await server.api<TBlocklyProgram>('GET', rulePaths.blockly(projectId, row.id), { token: vendor.token });
    expect(saved.body.ok).toBe(true);
  });

  it('edits the blockly setting: properties with numeric values, checked before saving', async () => {
    await page.getByTestId('setting-add').click();
    await page.getByTestId('setting-name-0').fill('溫度上限');
    await page.getByTestId('setting-value-0').fill('32.5');
    await page.getByTestId('setting-add').click();
    await page.getByTestId('setting-name-1').fill('溫度上限');
    await page.getByTestId('setting-value-1').fill('1');
    await page.getByText('第 2 列：名稱重複').waitFor();
    expect(await page.getByTestId('setting-save').isEnabled()).toBe(false);
    await page.getByTestId('setting-name-1').fill('風扇轉速');
    await page.getByTestId('setting-save').click();
    await expect
      .poll(
        async () =>
          (await server.ctx.db.select().from(projectBlocklySettings).where(eq(projectBlocklySettings.projectId, projectId)))[0]?.properties,
      )
      .toEqual([
        { name: '溫度上限', value: 32.5 },
        { name: '風扇轉速', value: 1 },
      ]);
    await page.reload();
    await expect.poll(() => page.getByTestId('setting-value-0').inputValue()).toBe('32.5');
    await snap(page, 'rules-tab');
    expect(fetchedOutside).toEqual([]);
  });
});
