import { CUSTOM_PAGE_MAX_BYTES, CUSTOM_PAGE_TITLE_MAX, CustomPageErrorCode, customPagePaths, type TCustomPage } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { customPages, deviceAuthz, projects } from '../../db/schema.js';
import { makePng } from '../images/png.fixture.js';
import { signViewToken } from './view-token.js';

const PAGE = '<!DOCTYPE html><html><body><h1 id="v">—</h1><script>addEventListener("message", (e) => {});</script></body></html>';
/** A real HTML document of exactly `total` bytes (padded inside a comment). */
function htmlOfSize(total: number): Buffer {
  const head = '<!DOCTYPE html><html><body><!--';
  const tail = '--></body></html>';
  return Buffer.from(head + 'x'.repeat(total - head.length - tail.length) + tail);
}

describe(`custom page API and serving (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let stranger: TBuiltAccount;
  let other: TBuiltAccount;
  let built: TBuiltProject;
  let pageOf: (id: number) => string;

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    stranger = await buildUser(server, vendor.tenantId);
    other = await buildVendor(server);
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 });
    await authorise(server.ctx.db, built.devices[0].id, user.accountId);
    pageOf = customPagePaths.page;
  });
  afterAll(() => server.stop());

  /** A real multipart PUT over HTTP, as the console sends it. */
  async function put(token: string | undefined, projectId: number, parts: { title?: string; file?: Buffer; name?: string; type?: string }) {
    const form = new FormData();
    if (parts.title !== undefined) form.append('title', parts.title);
    if (parts.file) form.append('htmlFile', new Blob([parts.file], { type: parts.type ?? 'text/html' }), parts.name ?? 'page.html');
    const res = await fetch(`${server.httpUrl}${pageOf(projectId)}`, {
      method: 'PUT',
      body: form,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: res.status, body: (await res.json()) as TCustomPage & { code: string; message: string } };
  }
  /** Opens a view URL as the iframe does: no bearer header. */
  const open = (url: string, headers: Record<string, string> = {}) => fetch(`${server.httpUrl}${url}`, { headers });
  const stored = async () => (await server.ctx.db.select().from(customPages).where(eq(customPages.projectId, built.projectId)))[0];

  it('401 without a token, 403 for a user on writes, 204 while the project has no page', async () => {
    expect((await server.api('GET', pageOf(built.projectId))).status).toBe(401);
    expect((await put(undefined, built.projectId, { title: 'x', file: Buffer.from(PAGE) })).status).toBe(401);
    expect((await server.api('DELETE', pageOf(built.projectId))).status).toBe(401);
    expect((await put(user.token, built.projectId, { title: 'x', file: Buffer.from(PAGE) })).status).toBe(403);
    expect((await server.api('DELETE', pageOf(built.projectId), { token: user.token })).status).toBe(403);
    expect((await server.api('GET', pageOf(built.projectId), { token: vendor.token })).status).toBe(204);
    expect((await server.api('GET', pageOf(built.projectId), { token: user.token })).status).toBe(204);
  });

  it('uploads a page and serves the exact bytes, sandboxed, without the bearer header', async () => {
    const saved = await put(vendor.token, built.projectId, { title: '  鍋爐儀表板  ', file: Buffer.from(PAGE) });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ project_id: built.projectId, title: '鍋爐儀表板', size_bytes: Buffer.byteLength(PAGE) });
    expect(saved.body.view_url).toMatch(new RegExp(`^/pages/custom-page/${built.projectId}\\?t=[\\w.-]+$`));
    expect(saved.body.view_expires_at).toBeGreaterThan(Date.now() + 200_000);
    expect(saved.body.view_expires_at).toBeLessThanOrEqual(Date.now() + 301_000);

    const res = await open(saved.body.view_url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(PAGE);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/^sandbox allow-scripts;/);
    expect(csp).not.toContain('allow-same-origin');
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain(`frame-ancestors 'self' ${server.httpUrl}`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('lets a user authorised for one of the project devices read and open it; others of the tenant get 404', async () => {
    const mine = await server.api<TCustomPage>('GET', pageOf(built.projectId), { token: user.token });
    expect(mine.status).toBe(200);
    expect(mine.body.title).toBe('鍋爐儀表板');
    expect((await open(mine.body.view_url)).status).toBe(200);
    expect((await server.api('GET', pageOf(built.projectId), { token: stranger.token })).status).toBe(404);

    // Authorisation withdrawn: the link the user already holds stops working at once.
    await server.ctx.db.delete(deviceAuthz).where(eq(deviceAuthz.accountId, user.accountId));
    expect((await open(mine.body.view_url)).status).toBe(404);
    expect((await server.api('GET', pageOf(built.projectId), { token: user.token })).status).toBe(404);
    await authorise(server.ctx.db, built.devices[1].id, user.accountId);
    expect((await open(mine.body.view_url)).status).toBe(200);
  });

  it('answers 404 to another tenant on every route, and its vendor cannot reuse the URL of another page', async () => {
    expect((await server.api('GET', pageOf(built.projectId), { token: other.token })).status).toBe(404);
    expect((await put(other.token, built.projectId, { title: 'mine now', file: Buffer.from(PAGE) })).status).toBe(404);
    expect((await server.api('DELETE', pageOf(built.projectId), { token: other.token })).status).toBe(404);
    expect((await stored()).title).toBe('鍋爐儀表板');

    const theirs = await buildDeviceProject(server.ctx.db, { tenantId: other.tenantId });
    const page = await put(other.token, theirs.projectId, { title: 'Other', file: Buffer.from('<html>other</html>') });
    expect(page.status).toBe(200);
    // Their token names their project: it opens nothing else.
    const token = new URL(page.body.view_url, server.httpUrl).searchParams.get('t') ?? '';
    const res = await open(`${customPagePaths.view(built.projectId)}?t=${token}`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe(CustomPageErrorCode.LinkInvalid);
    expect((await server.api('GET', pageOf(999_999), { token: vendor.token })).status).toBe(404);
  });

  it('requires a title of 1 to 32 characters: 32 is saved, 33, blank and missing are 400', async () => {
    const atBound = '題'.repeat(CUSTOM_PAGE_TITLE_MAX);
    const ok = await put(vendor.token, built.projectId, { title: atBound });
    expect(ok.status).toBe(200);
    expect(ok.body.title).toBe(atBound);
    for (const title of ['題'.repeat(CUSTOM_PAGE_TITLE_MAX + 1), '   ', undefined]) {
      const res = await put(vendor.token, built.projectId, { title, file: Buffer.from(PAGE) });
      expect(res.status, String(title)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.message).toContain('title');
    }
    expect((await stored()).title).toBe(atBound);
  });

  it('accepts exactly 1 MiB and refuses one byte more with 413, storing nothing', async () => {
    const big = await put(vendor.token, built.projectId, { title: 'Big', file: htmlOfSize(CUSTOM_PAGE_MAX_BYTES) });
    expect(big.status).toBe(200);
    expect(big.body.size_bytes).toBe(1_048_576);
    expect(Buffer.from(await (await open(big.body.view_url)).arrayBuffer()).length).toBe(CUSTOM_PAGE_MAX_BYTES);
    const over = await put(vendor.token, built.projectId, { title: 'Bigger', file: htmlOfSize(CUSTOM_PAGE_MAX_BYTES + 1) });
    expect(over.status).toBe(413);
    expect(over.body.code).toBe(CustomPageErrorCode.TooLarge);
    expect((await stored()).title).toBe('Big');
  });

  it('decides from the bytes: a PNG named page.html, plain text, and HTML with NUL bytes are 415; the page is unchanged', async () => {
    const before = await stored();
    const refusals = [
      { file: makePng(), name: 'page.html', type: 'text/html' },
      { file: Buffer.from('just notes, not a page\n'), name: 'page.html', type: 'text/html' },
      { file: Buffer.from('<html>\u0000</html>'), name: 'page.html', type: 'text/html' },
      { file: Buffer.alloc(0), name: 'empty.html', type: 'text/html' },
    ];
    for (const r of refusals) {
      const res = await put(vendor.token, built.projectId, { title: 'Nope', ...r });
      expect(res.status, r.file.subarray(0, 12).toString()).toBe(415);
      expect(res.body.code).toBe(CustomPageErrorCode.Type);
    }
    const after = await stored();
    expect(after.sha256).toBe(before.sha256);
    expect(after.title).toBe(before.title);
    // The name and declared type do not matter either way.
    expect(
      (await put(vendor.token, built.projectId, { title: 'Renamed', file: Buffer.from(PAGE), name: 'a.txt', type: 'text/plain' })).status,
    ).toBe(200);
  });

  it('answers 400 for a JSON body, an unknown field, and a title-only PUT on a project without a page', async () => {
    const json = await server.api<{ code: string }>('PUT', pageOf(built.projectId), { token: vendor.token, body: { title: 'x' } });
    expect(json.status).toBe(400);
    const form = new FormData();
    form.append('title', 'x');
    form.append('script', 'alert(1)');
    const unknown = await fetch(`${server.httpUrl}${pageOf(built.projectId)}`, {
      method: 'PUT',
      body: form,
      headers: { authorization: `Bearer ${vendor.token}` },
    });
    expect(unknown.status).toBe(400);
    const empty = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 0 });
    const titleOnly = await put(vendor.token, empty.projectId, { title: 'No file' });
    expect(titleOnly.status).toBe(400);
    expect(titleOnly.body.message).toContain('htmlFile');
  });

  it('refuses a missing, forged, expired or replaced-revision view token, and an access token as one', async () => {
    const current = (await server.api<TCustomPage>('GET', pageOf(built.projectId), { token: vendor.token })).body;
    const view = customPagePaths.view(built.projectId);
    const token = new URL(current.view_url, server.httpUrl).searchParams.get('t') ?? '';
    const code = async (res: Response) => ((await res.json()) as { code: string }).code;

    const missing = await open(view);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
    const [h, p, s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: String(other.accountId) }));
    for (const bad of [`${h}.${forged.toString('base64url')}.${s}`, `${token.slice(0, -2)}AA`, vendor.token, 'x']) {
      const res = await open(`${view}?t=${bad}`);
      expect(res.status).toBe(401);
      expect(await code(res)).toBe(CustomPageErrorCode.LinkInvalid);
    }
    const grant = { accountId: vendor.accountId, tenantId: vendor.tenantId, projectId: built.projectId, frameAncestor: server.httpUrl };
    const revision = current.sha256.slice(0, 16);
    const expired = await signViewToken(server.ctx.db, { ...grant, revision }, -1);
    const late = await open(`${view}?t=${expired.token}`);
    expect(late.status).toBe(401);
    expect(await code(late)).toBe(CustomPageErrorCode.LinkExpired);

    // A new file is a new revision: the old link no longer opens it.
    const replaced = await put(vendor.token, built.projectId, { title: 'v2', file: Buffer.from('<html>v2</html>') });
    expect(replaced.body.view_url).not.toBe(current.view_url);
    expect((await open(current.view_url)).status).toBe(404);
    expect(await (await open(replaced.body.view_url)).text()).toBe('<html>v2</html>');
    // A title-only change keeps the file, its revision and so its link.
    const renamed = await put(vendor.token, built.projectId, { title: 'v2 renamed' });
    expect(renamed.body.sha256).toBe(replaced.body.sha256);
    expect((await open(replaced.body.view_url)).status).toBe(200);
  });

  it('deletes the page (204), then GET is 204, DELETE and the link 404; deleting the project removes its page', async () => {
    const link = (await server.api<TCustomPage>('GET', pageOf(built.projectId), { token: vendor.token })).body.view_url;
    expect((await server.api('DELETE', pageOf(built.projectId), { token: vendor.token })).status).toBe(204);
    expect((await server.api('GET', pageOf(built.projectId), { token: vendor.token })).status).toBe(204);
    expect((await server.api('DELETE', pageOf(built.projectId), { token: vendor.token })).status).toBe(404);
    expect((await open(link)).status).toBe(404);

    const lone = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 0 });
    expect((await put(vendor.token, lone.projectId, { title: 'Lone', file: Buffer.from(PAGE) })).status).toBe(200);
    await server.ctx.db.delete(projects).where(eq(projects.id, lone.projectId));
    expect(await server.ctx.db.select().from(customPages).where(eq(customPages.projectId, lone.projectId))).toEqual([]);
  });
});

describe(`custom pages on their own origin, PAGES_ORIGIN (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  const pagesOrigin = 'https://pages.example.test';
  beforeAll(async () => {
    // The console is reached through a reverse proxy on 127.0.0.1 that sets X-Forwarded-Host/-Proto.
    server = await startTestServer({ pagesOrigin, trustProxy: ['127.0.0.1'] });
  });
  afterAll(() => server.stop());

  it('issues absolute URLs on that origin, serves pages only on its host, and lets the console frame it', async () => {
    const vendor = await buildVendor(server);
    const built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
    const form = new FormData();
    form.append('title', 'Remote');
    form.append('htmlFile', new Blob([PAGE], { type: 'text/html' }), 'p.html');
    const saved = await fetch(`${server.httpUrl}${customPagePaths.page(built.projectId)}`, {
      method: 'PUT',
      body: form,
      headers: { authorization: `Bearer ${vendor.token}`, 'x-forwarded-host': 'console.example.test', 'x-forwarded-proto': 'https' },
    });
    const page = (await saved.json()) as TCustomPage;
    expect(page.view_url.startsWith(`${pagesOrigin}/pages/custom-page/${built.projectId}?t=`)).toBe(true);
    const url = new URL(page.view_url);
    const onPagesHost = await server.api('GET', url.pathname + url.search, { headers: { host: 'pages.example.test' } });
    expect(onPagesHost.status).toBe(200);
    expect(onPagesHost.headers['content-security-policy']).toContain("frame-ancestors 'self' https://console.example.test");
    const onConsoleHost = await server.api('GET', url.pathname + url.search, { headers: { host: 'console.example.test' } });
    expect(onConsoleHost.status).toBe(404);
    const consoleCsp = String((await server.api('GET', '/healthz')).headers['content-security-policy']);
    expect(consoleCsp).toContain(`frame-src 'self' ${pagesOrigin}`);
  });
});
