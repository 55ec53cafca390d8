/**
 * Project roles in Chromium: the roles tab's empty state, creating a role (permissions, devices searched on
 * the server, member emails) with the schema's refusals and the server's "not a user of your organisation", the
 * unsaved-changes prompt, a role in use explained instead of deleted, the member user seeing exactly the role's
 * devices in the device list and only the device tabs its permissions open, and deleting the role once it has no members.
 */
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoles } from '@tessera/server';
import { createProjectVia, registerVia, buildUser, buildVendor, TEST_PASSWORD, type TBuiltAccount } from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('project roles tab (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let member: TBuiltAccount;
  let projectId = 0;
  const tangram: Record<string, string> = {};

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    const vendor = await buildVendor(server);
    member = await buildUser(server, vendor.tenantId);
    projectId = (await createProjectVia(server, vendor.token, '組件廠專案')).id;
    for (const [serial, name] of [
      ['C1', '冷卻泵一號'],
      ['C2', '冷卻泵二號'],
      ['C3', '空壓機'],
    ]) {
      const d = await registerVia(server, vendor.token, projectId, serial);
      await server.api('PUT', `/frontstage/v1/devices/${d.tangram_id}`, { token: vendor.token, body: { name } });
      tangram[serial] = d.tangram_id;
    }
    ({ page } = await newPage(browser, server.httpUrl, 'zh-TW'));
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const pickDevice = async (search: string, name: string) => {
    await page.getByTestId('role-devices').click();
    await page.keyboard.type(search);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: name }).first().click();
  };
  const addMember = async (email: string) => {
    await page.locator('[data-testid="role-members"] input').fill(email);
    await page.keyboard.press('Enter');
  };
  const formError = () => page.locator('.ant-drawer .ant-form-item-explain-error').allTextContents();

  it('shows the empty state, then creates a role after the schema’s and the server’s refusals', async () => {
    await page.goto(`/project/detail/${projectId}/devices`);
    await page.getByTestId('project-tab-roles').click();
    await page.waitForURL(/\/roles$/);
    await page.getByText('尚無角色').waitFor();

    await page.getByTestId('role-create').first().click();
    await page.getByTestId('role-name').fill('組'.repeat(33));
    await page.getByTestId('role-save').click();
    await expect.poll(formError).toEqual(expect.arrayContaining(['最多 32 個字元', '請至少選擇一項權限', '請至少選擇一台裝置']));

    await page.getByTestId('role-name').fill('冷卻系統維護');
    await page.getByTestId('role-permission-view_telemetry').click();
    await page.getByTestId('role-permission-view_history').click();
    await pickDevice('冷卻', '冷卻泵一號');
    await pickDevice('二號', '冷卻泵二號');
    await page.getByTestId('role-name').click(); // closes the dropdown
    await addMember('stranger@example.com');
    await page.getByTestId('role-save').click();
    await expect.poll(formError).toEqual(['不是貴組織的使用者帳號：stranger@example.com']);

    await page.locator('[data-testid="role-members"] .ant-select-selection-item-remove').first().click();
    await addMember(member.email);
    await page.getByTestId('role-save').click();
    await page.getByText('已儲存').waitFor();
    const [role] = await server.ctx.db.select().from(projectRoles).where(eq(projectRoles.projectId, projectId));
    const row = page.getByTestId(`role-row-${role.id}`);
    await expect.poll(() => row.textContent()).toContain('冷卻系統維護');
    expect(await row.textContent()).toContain('2 台裝置');
    expect(await row.textContent()).toContain(member.email);
    expect(await row.textContent()).toContain('使用中');
    await page.getByTestId('role-name').waitFor({ state: 'detached' });
    await page.waitForTimeout(400); // the drawer's closing animation
    await snap(page, 'project-roles-tab');
  });

  it('asks before leaving with unsaved edits, and explains why a role in use cannot be deleted', async () => {
    const [role] = await server.ctx.db.select().from(projectRoles).where(eq(projectRoles.projectId, projectId));
    await page.getByTestId(`role-edit-${role.id}`).click();
    await page.getByTestId('role-name').waitFor();
    await page.waitForTimeout(400); // the drawer's opening animation
    await snap(page, 'project-role-drawer');
    await page.getByTestId('role-name').fill('改了名稱');
    await page.getByTestId('role-cancel').click();
    await page.getByTestId('unsaved-stay').click();
    // the first confirm leaves the page before the second is asked for (two would share their test ids)
    await page.getByTestId('unsaved-stay').waitFor({ state: 'detached' });
    expect(await page.getByTestId('role-name').inputValue()).toBe('改了名稱');
    await page.getByTestId('role-cancel').click();
    await page.getByTestId('unsaved-leave').click();
    await page.getByTestId('role-name').waitFor({ state: 'detached' });

    await page.getByTestId(`role-delete-${role.id}`).click();
    await expect.poll(() => page.getByTestId('role-in-use').textContent()).toContain('目前有 1 位成員擁有此角色');
    await page.getByTestId('role-in-use-ok').click();
    expect(await server.ctx.db.select().from(projectRoles).where(eq(projectRoles.id, role.id))).toHaveLength(1);
  });

  it('the member sees exactly the role’s devices', async () => {
    const { context, page: userPage } = await newPage(browser, server.httpUrl, 'zh-TW');
    await login(userPage, member.email, TEST_PASSWORD, 'user');
    await userPage.goto('/device/list');
    await userPage.getByTestId(`device-row-${tangram.C1}`).waitFor();
    expect(await userPage.getByTestId(`device-row-${tangram.C2}`).count()).toBe(1);
    expect(await userPage.getByTestId(`device-row-${tangram.C3}`).count()).toBe(0);

    // The role holds view_telemetry and view_history: the device opens those tabs only, and a link to another
    // (remote control) lands on the first one it opens.
    await userPage.goto(`/device/detail/${tangram.C1}/remote-control`);
    await userPage.waitForURL(/\/telemetry-status$/);
    await userPage.getByTestId('tab-history-chart').waitFor();
    expect(await userPage.getByTestId('tab-realtime-chart').count()).toBe(1);
    expect(await userPage.getByTestId('tab-remote-control').count()).toBe(0);
    expect(await userPage.getByTestId('tab-app-rules').count()).toBe(0);
    expect(await userPage.getByTestId('fcm-switch').count()).toBe(0);
    await snap(userPage, 'project-role-member-device');
    await context.close();
  });

  it('removes the member, then deletes the role; the list stays empty after reload', async () => {
    const [role] = await server.ctx.db.select().from(projectRoles).where(eq(projectRoles.projectId, projectId));
    await page.getByTestId(`role-edit-${role.id}`).click();
    await page.locator('[data-testid="role-members"] .ant-select-selection-item-remove').first().click();
    await page.getByTestId('role-save').click();
    await expect.poll(async () => (await page.getByTestId(`role-row-${role.id}`).textContent()) ?? '').not.toContain('使用中');
    await page.getByTestId(`role-delete-${role.id}`).click();
    await page.getByTestId('role-delete-confirm').click();
    await page.getByText('角色已刪除').waitFor();
    await page.reload();
    await page.getByText('尚無角色').waitFor();
    expect(await server.ctx.db.select().from(projectRoles).where(eq(projectRoles.projectId, projectId))).toHaveLength(0);
  });
});
