/**
 * Device roles, managers and machine roles in Chromium, with three browser contexts (spec §6 "Device roles (regular
 * users) … machine roles … Manager versus all visibility"): the vendor makes a device role with "manage access" on
 * the project's roles tab; a user asks for the device; the manager (the role's member) sees the request under
 * "requests you manage", allows it, and the asker's device list shows it. Then the vendor makes a machine role on
 * /machine/roles and its member sees the device bound to the machine; a role in use refuses deletion.
 */
import { authzPaths, type TAuthzRequestList } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import authzZh from '../../apps/web/src/features/authorisation/locales/zh-TW.json' with { type: 'json' };
import rolesZh from '../../apps/web/src/features/project-roles/locales/zh-TW.json' with { type: 'json' };
import { machineBindings, machineComponents, machineConfigures, machines, projectRoles } from '@tessera/server';
import { buildUser, buildVendor, createProjectVia, registerVia, TEST_PASSWORD, type TBuiltAccount } from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { confirmDialog, login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const roles = rolesZh.projectRoles;
const authz = authzZh.authz;

describe('device roles, managers and machine roles (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let vendor: TBuiltAccount;
  let manager: TBuiltAccount;
  let asker: TBuiltAccount;
  let vendorPage: Page;
  const contexts: BrowserContext[] = [];
  let projectId = 0;
  const tangram: Record<string, string> = {};
  const registered: Record<string, { id: number; product_id: number }> = {};

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    vendor = await buildVendor(server);
    manager = await buildUser(server, vendor.tenantId);
    asker = await buildUser(server, vendor.tenantId);
    projectId = (await createProjectVia(server, vendor.token, '產線二')).id;
    for (const [serial, name] of [
      ['D1', '包裝機'],
      ['D2', '冷凍機泵浦'],
    ]) {
      const d = await registerVia(server, vendor.token, projectId, serial);
      await server.api('PUT', `/frontstage/v1/devices/${d.tangram_id}`, { token: vendor.token, body: { name } });
      tangram[serial] = d.tangram_id;
      registered[serial] = d;
    }
    // A machine binding 冷凍機泵浦 (written directly: the machine screens have their own e2e).
    const db = server.ctx.db;
    const [configure] = await db.insert(machineConfigures).values({ tenantId: vendor.tenantId, name: '冷凍機' }).returning();
    const [component] = await db
      .insert(machineComponents)
      .values({ configureId: configure.id, name: '泵浦', productId: registered.D2.product_id, keys: ['vibration'], position: 0 })
      .returning();
    const [machine] = await db
      .insert(machines)
      .values({ tenantId: vendor.tenantId, configureId: configure.id, name: '冷凍機 3 號', serialNumber: 'FR-003' })
      .returning();
    await db.insert(machineBindings).values({ machineId: machine.id, componentId: component.id, deviceId: registered.D2.id });

    const opened = await newPage(browser, server.httpUrl, 'zh-TW');
    contexts.push(opened.context);
    vendorPage = opened.page;
    await login(vendorPage, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
  });

  const userPage = async (account: TBuiltAccount) => {
    const opened = await newPage(browser, server.httpUrl, 'zh-TW');
    contexts.push(opened.context);
    await login(opened.page, account.email, TEST_PASSWORD, 'user');
    return opened.page;
  };
  const addMember = async (page: Page, email: string) => {
    await page.locator('[data-testid="role-members"] input').fill(email);
    await page.keyboard.press('Enter');
  };

  it('the vendor makes a device role with "manage access" on the roles tab, apart from the project roles', async () => {
    await vendorPage.goto(`/project/detail/${projectId}/roles`);
    await vendorPage.getByText(roles.kindHints.project).waitFor();
    await vendorPage.getByTestId('role-kind-device').click();
    await vendorPage.waitForURL(/kind=device$/);
    await vendorPage.getByText(roles.kindHints.device).waitFor();
    await vendorPage.getByTestId('role-create').first().click();
    await vendorPage.getByText(roles.createTitle.replace('{{kind}}', roles.kindOne.device)).waitFor();
    await vendorPage.getByTestId('role-name').fill('值班主管');
    await vendorPage.getByTestId('role-permission-view_telemetry').click();
    await vendorPage.getByTestId('role-permission-manage_access').click();
    await vendorPage.getByTestId('role-devices').click();
    await vendorPage.keyboard.type('包裝');
    await vendorPage.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '包裝機' }).first().click();
    await vendorPage.getByTestId('role-name').click(); // closes the dropdown
    await addMember(vendorPage, manager.email);
    await vendorPage.getByTestId('role-save').click();
    await vendorPage.getByText('已儲存').waitFor();
    const [role] = await server.ctx.db.select().from(projectRoles).where(eq(projectRoles.projectId, projectId));
    expect(role.kind).toBe('device');
    await expect.poll(() => vendorPage.getByTestId(`role-row-${role.id}`).textContent()).toContain(roles.permissions.manage_access);
    await vendorPage.getByTestId('role-kind-project').click();
    await vendorPage.getByText(roles.empty).waitFor();
  });

  it('a user asks for the device; the manager answers it from "requests you manage"; the device appears for the asker', async () => {
    const askerPage = await userPage(asker);
    await askerPage.goto('/self-auth/devce-auth');
    await askerPage.getByTestId('authz-device').fill(tangram.D1);
    await askerPage.getByTestId('authz-ask').click();
    await askerPage.getByText(authz.asked).waitFor();
    expect(await askerPage.getByTestId('authz-managed-title').count(), 'the asker manages nothing').toBe(0);

    const managerPage = await userPage(manager);
    await managerPage.goto('/self-auth/devce-auth');
    await managerPage.getByTestId('authz-managed-title').waitFor();
    const { data } = (await server.api<TAuthzRequestList>('GET', `${authzPaths.requests}?status=pending`, { token: vendor.token })).body;
    expect(data).toHaveLength(1);
    await managerPage.getByTestId(`authz-pending-row-${data[0].id}`).filter({ hasText: asker.email }).waitFor();
    await snap(managerPage, 'authorisation-manager');
    await managerPage.getByTestId(`authz-allow-${data[0].id}`).click();
    await confirmDialog(managerPage, 'authz-decide-ok');
    await managerPage.getByTestId(`authz-holder-row-${data[0].id}`).waitFor();

    await askerPage.goto('/device/list');
    await askerPage.getByTestId(`device-row-${tangram.D1}`).waitFor({ timeout: 10_000 });
    expect(await askerPage.getByTestId(`device-row-${tangram.D2}`).count()).toBe(0);
  });

  it('a machine role on /machine/roles gives its member the machine’s device; in use it refuses deletion', async () => {
    await vendorPage.goto('/machine/roles');
    await vendorPage.getByText(roles.kindHints.machine).waitFor();
    await vendorPage.getByTestId('role-create').first().click();
    await vendorPage.getByTestId('role-name').fill('冷凍機保養');
    await vendorPage.getByTestId('role-permission-view_telemetry').click();
    await vendorPage.getByTestId('role-machines').click();
    await vendorPage.keyboard.type('冷凍');
    await vendorPage.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '冷凍機 3 號' }).first().click();
    await vendorPage.getByTestId('role-name').click();
    await addMember(vendorPage, asker.email);
    await vendorPage.getByTestId('role-save').click();
    await vendorPage.getByText('已儲存').waitFor();
    const [role] = await server.ctx.db.select().from(projectRoles).where(eq(projectRoles.kind, 'machine'));
    await expect
      .poll(() => vendorPage.getByTestId(`role-row-${role.id}`).textContent())
      .toContain(roles.machineCount.replace('{{count}}', '1'));

    await vendorPage.getByTestId(`role-delete-${role.id}`).click();
    await expect.poll(() => vendorPage.getByTestId('role-in-use').textContent()).toContain('1');
    await vendorPage.getByTestId('role-in-use-ok').click();
    expect(await server.ctx.db.select().from(projectRoles).where(eq(projectRoles.id, role.id))).toHaveLength(1);
    await snap(vendorPage, 'machine-roles');

    const askerPage = await userPage(asker);
    await askerPage.goto('/device/list');
    await askerPage.getByTestId(`device-row-${tangram.D2}`).waitFor({ timeout: 10_000 });
    await askerPage.goto('/machine/roles');
    await askerPage.waitForURL((url) => !url.pathname.startsWith('/machine/roles'));
  });
});
