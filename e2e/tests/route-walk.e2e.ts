/**
 * End to end in Chromium: every route of the console's router, as a vendor, a user and a platform admin, at 1440×900
 * and 390×844 — no error dialog (antd Modal.error, message.error, notification.error) a person did not cause, no
 * page wider than the window, and (vendor and user, at 1440×900, in the same walk) no serious or critical axe-core
 * violation of the WCAG 2 A and AA rules. One browser, one context and one login per role; pages are visited inside
 * the loaded console, as a link would.
 * A route whose record does not exist (an id no one made) is walked too: it must say so without a dialog.
 */
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
import { seriousAxeViolations } from '../support/accessibility.js';
import { launchBrowser } from '../support/browser.js';
import { login, publishAsDevice } from '../support/console.js';
import { recordErrorDialogs, takeErrorDialogs } from '../support/dialogs.js';
import { DESKTOP, measureHorizontalOverflow, PHONE } from '../support/layout.js';
import { consolePaths, navigateInApp, waitForPageDrawn } from '../support/route-walk.js';
import { startE2eServer } from '../support/server.js';

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

  /** Findings of one page: error dialogs, overflow and (when asked) axe-core violations, as lines naming the page. */
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
    if (overflowPx > 0) found.push(`${label}: ${overflowPx}px wider than the window (${culprits.join(' | ')})`);
    if (withAxe) {
      for (const v of await seriousAxeViolations(page)) found.push(`${label}: axe ${v.id} (${v.impact}) at ${v.targets.join(', ')}`);
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

  /**
   * Opens every route as `account` at `viewport` inside one loaded console; answers every finding. With `withAxe`,
   * axe-core checks each page the route lands on once: a route the role may not open lands on a page already checked
   * (the guard's redirect), which is not checked again.
   */
  async function walk(account: TBuiltAccount, role: 'vendor' | 'user', viewport: typeof DESKTOP | typeof PHONE, withAxe: boolean) {
    const page = await pageOf(account, role);
    await page.setViewportSize(viewport);
    const found: string[] = [];
    const checked = new Set<string>();
    for (const path of walkPaths) {
      await navigateInApp(page, path);
      await waitForPageDrawn(page);
      const landed = new URL(page.url()).pathname;
      found.push(...(await checkPage(page, `${account.level} ${viewport.width}px ${path}`, withAxe && !checked.has(landed))));
      checked.add(landed);
    }
    // Every finding in the log, one a line (an assertion's diff may shorten a long list).
    if (found.length) console.error(found.join('\n'));
    return found;
  }

  it('the accessibility check finds what it looks for (a nameless button, an unlabelled field)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.setContent('<html lang="en"><title>probe</title><main><button></button><input type="text"></main></html>');
    const ids = (await seriousAxeViolations(page)).map((v) => v.id);
    await context.close();
    expect(ids).toEqual(expect.arrayContaining(['button-name', 'label']));
  });

  it('walks the whole router (sanity: the table has the pages the spec names)', () => {
    expect(walkPaths.length).toBeGreaterThan(40);
    for (const p of ['/dashboard', '/device/list', '/alerts/history', '/self-auth/history', '/admin/accounts'])
      expect(walkPaths).toContain(p);
  });

  // A walk opens ~60 pages: minutes on a loaded 2-core machine, so each walk has its own time. axe-core runs once per
  // route, in the desktop walk of a vendor and of a user (the phone walk checks layout; the admin's pages are the
  // vendor's).
  const WALK_MS = 300_000;
  for (const [name, viewport] of [
    ['1440×900', DESKTOP],
    ['390×844', PHONE],
  ] as const) {
    const withAxe = viewport === DESKTOP;
    const axeText = withAxe ? ', no serious or critical accessibility violation' : '';
    it(
      `as a vendor at ${name}: no error dialog, no overflow${axeText}`,
      async () => {
        expect(await walk(vendor, 'vendor', viewport, withAxe)).toEqual([]);
      },
      WALK_MS,
    );
    it(
      `as a user at ${name}: no error dialog, no overflow${axeText}`,
      async () => {
        expect(await walk(user, 'user', viewport, withAxe)).toEqual([]);
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
});
