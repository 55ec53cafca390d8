/**
 * Dashboard pages and widgets of one account (spec §3 dashboard state, §7 `/dashboard/v1`; docs/dashboard.md). Every
 * query is scoped to the caller's tenant and account: another account's page is a 404. A save replaces a page's
 * widget list — `new` widgets are added, the others updated by id, the ones left out removed — in one transaction,
 * after every widget's parameter was checked against its type and every device it names is one the caller may see.
 */
import { and, asc, count, eq, inArray, notInArray, sql } from 'drizzle-orm';
import {
  DASHBOARD_MAX_PAGES,
  ErrorCode,
  parseWidgetParameter,
  type TDashboardPage,
  type TDashboardPageList,
  type TDashboardState,
  type TWidget,
  type TWidgetListInput,
  ZWidgetListInput,
} from '@tessera/contracts';
import type { z } from 'zod';
import { AppError, conflict, notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { dashboardPages, dashboardWidgets, devices, platformTelemetries } from '../../db/schema.js';
import { visibleDevicesCondition } from '../devices/access.js';

type TPageRow = typeof dashboardPages.$inferSelect;
type TWidgetRow = typeof dashboardWidgets.$inferSelect;

const own = (principal: TPrincipal) =>
  and(eq(dashboardPages.tenantId, principal.tenantId), eq(dashboardPages.accountId, principal.accountId));

function presentWidget(row: TWidgetRow): TWidget {
  return { id: row.id, type: row.type, title: row.title, parameter: row.parameter, layout: row.layout };
}

/** GET pages: the caller's pages in order, with their widget counts. */
export async function listPages(db: Db, principal: TPrincipal): Promise<TDashboardPageList> {
  const rows = await db
    .select({
      id: dashboardPages.id,
      name: dashboardPages.name,
      position: dashboardPages.position,
      // Qualified by hand: inside a subquery drizzle would write the bare column `"id"`, which names w.id there.
      widget_count: sql<number>`(select count(*)::int from dashboard_widgets w where w.page_id = "dashboard_pages"."id")`,
    })
    .from(dashboardPages)
    .where(own(principal))
    .orderBy(asc(dashboardPages.position), asc(dashboardPages.id));
  return { data: rows, page: 1, limit: DASHBOARD_MAX_PAGES, total_items: rows.length };
}

async function ownPage(db: Db, principal: TPrincipal, id: number): Promise<TPageRow> {
  const [page] = await db
    .select()
    .from(dashboardPages)
    .where(and(eq(dashboardPages.id, id), own(principal)));
  if (!page) throw notFound('dashboard page');
  return page;
}

/** POST pages: a new last page. @throws AppError 409 DASHBOARD_PAGE_LIMIT at DASHBOARD_MAX_PAGES pages. */
export async function createPage(db: Db, principal: TPrincipal, name: string): Promise<TDashboardPage> {
  const [{ n, last }] = await db
    .select({ n: count(), last: sql<number>`coalesce(max(${dashboardPages.position}), 0)::int` })
    .from(dashboardPages)
    .where(own(principal));
  if (n >= DASHBOARD_MAX_PAGES) throw conflict(`a dashboard has at most ${DASHBOARD_MAX_PAGES} pages`, 'DASHBOARD_PAGE_LIMIT');
  const [row] = await db
    .insert(dashboardPages)
    .values({ tenantId: principal.tenantId, accountId: principal.accountId, name, position: last + 1 })
    .returning();
  return { id: row.id, name: row.name, position: row.position, widget_count: 0 };
}

/** PUT pages/{id}: renames the page. @throws AppError 404 for a page that is not the caller's. */
export async function renamePage(db: Db, principal: TPrincipal, id: number, name: string): Promise<TDashboardPage> {
  await ownPage(db, principal, id);
  await db.update(dashboardPages).set({ name }).where(eq(dashboardPages.id, id));
  const page = (await listPages(db, principal)).data.find((p) => p.id === id);
  if (!page) throw notFound('dashboard page');
  return page;
}

/** DELETE pages/{id}: removes the page and its widgets; the pages after it move up. @throws AppError 404. */
export async function deletePage(db: Db, principal: TPrincipal, id: number): Promise<void> {
  const page = await ownPage(db, principal, id);
  await db.transaction(async (tx) => {
    await tx.delete(dashboardPages).where(eq(dashboardPages.id, id));
    await tx
      .update(dashboardPages)
      .set({ position: sql`${dashboardPages.position} - 1` })
      .where(and(own(principal), sql`${dashboardPages.position} > ${page.position}`));
  });
}

/**
 * PUT pages/order: `ids` become positions 1, 2, ….
 * @throws AppError 400 VALIDATION_FAILED unless `ids` are exactly the caller's pages.
 */
export async function orderPages(db: Db, principal: TPrincipal, ids: number[]): Promise<TDashboardPageList> {
  const pages = await db.select({ id: dashboardPages.id }).from(dashboardPages).where(own(principal));
  const mine = new Set(pages.map((p) => p.id));
  if (ids.length !== mine.size || new Set(ids).size !== ids.length || !ids.every((id) => mine.has(id))) {
    throw new AppError(400, ErrorCode.Validation, 'ids must list every page of the dashboard once');
  }
  await db.transaction(async (tx) => {
    for (const [i, id] of ids.entries())
      await tx
        .update(dashboardPages)
        .set({ position: i + 1 })
        .where(eq(dashboardPages.id, id));
  });
  return listPages(db, principal);
}

/** GET pages/{id}/widgets: the page's widgets (spec §3 dashboard state). @throws AppError 404. */
export async function getWidgets(db: Db, principal: TPrincipal, pageId: number): Promise<TDashboardState> {
  const page = await ownPage(db, principal, pageId);
  const rows = await db.select().from(dashboardWidgets).where(eq(dashboardWidgets.pageId, page.id)).orderBy(asc(dashboardWidgets.id));
  return { dashboardPage: page.position, widgetList: rows.map(presentWidget) };
}

/** The Tangram IDs a widget parameter names. */
function devicesNamed(parameter: Record<string, unknown>): string[] {
  const ids: string[] = [];
  if (typeof parameter.tangram_id === 'string') ids.push(parameter.tangram_id);
  if (Array.isArray(parameter.tangram_ids)) ids.push(...(parameter.tangram_ids as string[]));
  if (Array.isArray(parameter.series)) ids.push(...(parameter.series as { tangram_id: string }[]).map((s) => s.tangram_id));
  return ids;
}

/**
 * PUT pages/{id}/widgets: saves the page's widget list (spec §7 "new widgets are added, existing updated"; widgets
 * left out are removed).
 * @throws AppError 404 for a page that is not the caller's; 400 VALIDATION_FAILED with `details` (paths
 *   `widgetList.{i}.parameter[.field]`) for a parameter that is not JSON or breaks its type's schema, a device the
 *   caller may not see, or an `id` that is not a widget of this page.
 */
export async function saveWidgets(db: Db, principal: TPrincipal, pageId: number, input: TWidgetListInput): Promise<TDashboardState> {
  const page = await ownPage(db, principal, pageId);
  const list: z.output<typeof ZWidgetListInput>['widgetList'] = ZWidgetListInput.parse(input).widgetList;
  const problems: { path: string; message: string }[] = [];
  const named = new Map<string, number[]>();
  list.forEach((w, i) => {
    const parsed = parseWidgetParameter(w.type, w.parameter);
    if (!parsed.ok) {
      for (const p of parsed.problems)
        problems.push({ path: `widgetList.${i}.parameter${p.path ? `.${p.path}` : ''}`, message: p.message });
      return;
    }
    for (const id of devicesNamed(parsed.value as Record<string, unknown>)) named.set(id, [...(named.get(id) ?? []), i]);
  });
  if (named.size > 0) {
    const seen = await db
      .select({ tangramId: devices.tangramId })
      .from(devices)
      .where(and(inArray(devices.tangramId, [...named.keys()]), visibleDevicesCondition(principal)));
    const visible = new Set(seen.map((d) => d.tangramId));
    for (const [id, at] of named) {
      if (!visible.has(id)) for (const i of at) problems.push({ path: `widgetList.${i}.parameter`, message: `device ${id} not found` });
    }
  }
  await checkPlatformTelemetry(db, principal, list, problems);
  const kept = list.filter((w) => !w.new && w.id !== undefined).map((w) => w.id as number);
  if (kept.length > 0) {
    const existing = await db
      .select({ id: dashboardWidgets.id })
      .from(dashboardWidgets)
      .where(and(eq(dashboardWidgets.pageId, page.id), inArray(dashboardWidgets.id, kept)));
    const ids = new Set(existing.map((w) => w.id));
    list.forEach((w, i) => {
      if (!w.new && w.id !== undefined && !ids.has(w.id))
        problems.push({ path: `widgetList.${i}.id`, message: 'not a widget of this page' });
    });
  }
  list.forEach((w, i) => {
    if (!w.new && w.id === undefined)
      problems.push({ path: `widgetList.${i}.id`, message: 'an existing widget needs its id (or new: true)' });
  });
  if (problems.length > 0) throw new AppError(400, ErrorCode.Validation, 'some widgets are not valid', problems);

  await db.transaction(async (tx) => {
    await tx
      .delete(dashboardWidgets)
      .where(and(eq(dashboardWidgets.pageId, page.id), kept.length > 0 ? notInArray(dashboardWidgets.id, kept) : undefined));
    for (const w of list) {
      const values = { type: w.type, title: w.title, parameter: w.parameter, layout: w.layout };
      if (w.new) await tx.insert(dashboardWidgets).values({ ...values, pageId: page.id });
      else
        await tx
          .update(dashboardWidgets)
          .set({ ...values, updatedAt: Date.now() })
          .where(eq(dashboardWidgets.id, w.id as number));
    }
  });
  return getWidgets(db, principal, page.id);
}

/**
 * Adds a problem for each platform-telemetry widget whose platform telemetry is not the tenant's — or is named by a
 * user, who has none (docs/platform-telemetry.md "Definition").
 */
async function checkPlatformTelemetry(
  db: Db,
  principal: TPrincipal,
  list: readonly { type: string; parameter: string }[],
  problems: { path: string; message: string }[],
): Promise<void> {
  const named = new Map<number, number[]>();
  list.forEach((w, i) => {
    if (w.type !== 'platform') return;
    const parsed = parseWidgetParameter('platform', w.parameter);
    if (parsed.ok) named.set(parsed.value.platform_telemetry_id, [...(named.get(parsed.value.platform_telemetry_id) ?? []), i]);
  });
  if (named.size === 0) return;
  const seen =
    principal.level === 'user'
      ? []
      : await db
          .select({ id: platformTelemetries.id })
          .from(platformTelemetries)
          .where(and(eq(platformTelemetries.tenantId, principal.tenantId), inArray(platformTelemetries.id, [...named.keys()])));
  const visible = new Set(seen.map((r) => r.id));
  for (const [id, at] of named) {
    if (!visible.has(id))
      for (const i of at) problems.push({ path: `widgetList.${i}.parameter`, message: `platform telemetry ${id} not found` });
  }
}

/** DELETE widgets/{id}. @throws AppError 404 for a widget not on one of the caller's pages. */
export async function deleteWidget(db: Db, principal: TPrincipal, id: number): Promise<void> {
  const [row] = await db
    .select({ id: dashboardWidgets.id })
    .from(dashboardWidgets)
    .innerJoin(dashboardPages, eq(dashboardPages.id, dashboardWidgets.pageId))
    .where(and(eq(dashboardWidgets.id, id), own(principal)));
  if (!row) throw notFound('widget');
  await db.delete(dashboardWidgets).where(eq(dashboardWidgets.id, id));
}
