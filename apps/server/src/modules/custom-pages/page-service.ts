/**
 * A project's custom page (spec §7 "custom page: GET, PUT multipart htmlFile, DELETE"): read with a fresh view URL,
 * save (title, and the HTML when one is sent), delete, and read for serving. The HTML is stored as uploaded and
 * never parsed or run by the server.
 */
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { checkHtmlFile, CustomPageErrorCode, type TCustomPage, type TCustomPageFields } from '@tessera/contracts';
import type { TAppContext } from '../../core/context.js';
import { AppError, badRequest, notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import { customPages } from '../../db/schema.js';
import { assertCanViewPage, assertOwnedProject } from './page-access.js';
import { signViewToken } from './view-token.js';
import { viewUrlOf } from './view-url.js';

/** A page's metadata row. */
const META = {
  projectId: customPages.projectId,
  title: customPages.title,
  sha256: customPages.sha256,
  sizeBytes: customPages.sizeBytes,
  updatedAt: customPages.updatedAt,
};
type TPageMeta = { projectId: number; title: string; sha256: string; sizeBytes: number; updatedAt: number };

/** The revision a view token names: the first 16 hex digits of the page's SHA-256. */
export const revisionOf = (sha256: string) => sha256.slice(0, 16);

/** Presents `meta` with a view URL for `viewer`, to be framed by `consoleOrigin`. */
async function present(ctx: TAppContext, meta: TPageMeta, viewer: TPrincipal, consoleOrigin: string): Promise<TCustomPage> {
  const { token, expiresAt } = await signViewToken(ctx.db, {
    accountId: viewer.accountId,
    tenantId: viewer.tenantId,
    projectId: meta.projectId,
    revision: revisionOf(meta.sha256),
    frameAncestor: consoleOrigin,
  });
  return {
    project_id: meta.projectId,
    title: meta.title,
    size_bytes: meta.sizeBytes,
    sha256: meta.sha256,
    updated_at: meta.updatedAt,
    view_url: viewUrlOf(ctx.config, meta.projectId, token),
    view_expires_at: expiresAt,
  };
}

async function readMeta(ctx: TAppContext, projectId: number): Promise<TPageMeta | null> {
  const [row] = await ctx.db.select(META).from(customPages).where(eq(customPages.projectId, projectId));
  return row ?? null;
}

/**
 * GET: the page of `projectId` with a view URL for `viewer`, or null when the project has none.
 * @throws AppError 404 when `viewer` may not see the project ({@link assertCanViewPage}).
 */
export async function getPage(ctx: TAppContext, viewer: TPrincipal, projectId: number, consoleOrigin: string): Promise<TCustomPage | null> {
  await assertCanViewPage(ctx.db, viewer, projectId);
  const meta = await readMeta(ctx, projectId);
  return meta && present(ctx, meta, viewer, consoleOrigin);
}

/**
 * PUT: sets the title and, when `html` is given, replaces the file (checked to be UTF-8 HTML within the size bound).
 * @throws AppError 404 when not the vendor's project; 415 CUSTOM_PAGE_TYPE for a file that is not a page; 400 when
 * no file is sent and the project has no page yet.
 */
export async function savePage(
  ctx: TAppContext,
  vendor: TPrincipal,
  projectId: number,
  input: TCustomPageFields & { html?: Buffer },
  consoleOrigin: string,
): Promise<TCustomPage> {
  await assertOwnedProject(ctx.db, vendor.tenantId, projectId);
  const now = Date.now();
  if (input.html) {
    const check = checkHtmlFile(input.html);
    if (!check.ok) throw new AppError(415, CustomPageErrorCode.Type, `not a UTF-8 HTML document (${check.reason})`);
    const values = {
      title: input.title,
      html: input.html,
      sha256: createHash('sha256').update(input.html).digest('hex'),
      sizeBytes: input.html.length,
      updatedBy: vendor.accountId,
      updatedAt: now,
    };
    await ctx.db
      .insert(customPages)
      .values({ projectId, tenantId: vendor.tenantId, ...values })
      .onConflictDoUpdate({ target: customPages.projectId, set: values });
  } else {
    const updated = await ctx.db
      .update(customPages)
      .set({ title: input.title, updatedBy: vendor.accountId, updatedAt: now })
      .where(and(eq(customPages.projectId, projectId), eq(customPages.tenantId, vendor.tenantId)))
      .returning({ projectId: customPages.projectId });
    if (updated.length === 0) throw badRequest('the project has no page yet: send the HTML file in field "htmlFile"');
  }
  const meta = await readMeta(ctx, projectId);
  if (!meta) throw notFound('custom page');
  return present(ctx, meta, vendor, consoleOrigin);
}

/** DELETE: removes the page. @throws AppError 404 when not the vendor's project or it has no page. */
export async function deletePage(ctx: TAppContext, tenantId: number, projectId: number): Promise<void> {
  await assertOwnedProject(ctx.db, tenantId, projectId);
  const gone = await ctx.db
    .delete(customPages)
    .where(and(eq(customPages.projectId, projectId), eq(customPages.tenantId, tenantId)))
    .returning({ projectId: customPages.projectId });
  if (gone.length === 0) throw notFound('custom page');
}

/** The stored HTML and revision of `projectId`'s page, for serving; null when it has none. */
export async function readPageHtml(ctx: TAppContext, projectId: number): Promise<{ html: Buffer; sha256: string } | null> {
  const [row] = await ctx.db
    .select({ html: customPages.html, sha256: customPages.sha256 })
    .from(customPages)
    .where(eq(customPages.projectId, projectId));
  return row ?? null;
}
