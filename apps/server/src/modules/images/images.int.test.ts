import { IMAGE_TOO_LARGE_MESSAGE, ImageErrorCode, MAX_IMAGE_BYTES, paths, type TImageUploaded, type TProduct } from '@tessera/contracts';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBuiltAccount } from '../../../test/factories.js';
import { TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { images } from '../../db/schema.js';
import { makePng } from './png.fixture.js';
import { startTwoTenants } from '../../../test/tenants.js';

describe(`image upload and serving (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount, user: TBuiltAccount, other: TBuiltAccount;
  beforeAll(async () => {
    ({ server, vendor, user, other } = await startTwoTenants());
  });
  afterAll(() => server.stop());

  /** A real multipart POST over HTTP, as a browser sends it. */
  async function upload(token: string | undefined, bytes: Buffer, name = 'photo.png', type = 'image/png', field = 'image') {
    const form = new FormData();
    form.append(field, new Blob([bytes], { type }), name);
    const res = await fetch(`${server.httpUrl}${paths.imageUpload}`, {
      method: 'POST',
      body: form,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: res.status, body: (await res.json()) as TImageUploaded & { code: string; message: string } };
  }
  const imageCount = async () => (await server.ctx.db.select({ n: count() }).from(images))[0].n;

  it('401 without a token, 403 for a user, 201 for a vendor', async () => {
    const png = makePng({ rgb: [1, 2, 3] });
    expect((await upload(undefined, png)).status).toBe(401);
    expect((await upload(user.token, png)).status).toBe(403);
    const ok = await upload(vendor.token, png);
    expect(ok.status).toBe(201);
    expect(ok.body.image_url).toMatch(/^\/frontstage\/v1\/images\/[A-Za-z0-9_-]{22}$/);
  });

  it('serves a real PNG back byte-identical with its type, nosniff and a long cache, without a token', async () => {
    const png = makePng({ width: 7, height: 3, rgb: [10, 200, 90] });
    const { body } = await upload(vendor.token, png);
    const res = await fetch(`${server.httpUrl}${body.image_url}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toMatch(/max-age=31536000.*immutable/);
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    const again = await fetch(`${server.httpUrl}${body.image_url}`, { headers: { 'if-none-match': res.headers.get('etag') ?? '' } });
    expect(again.status).toBe(304);
  });

  it('accepts exactly MAX_IMAGE_BYTES and refuses one byte more with 413 IMAGE_TOO_LARGE, writing nothing', async () => {
    const atBound = makePng({ totalBytes: MAX_IMAGE_BYTES });
    expect(atBound.length).toBe(2 * 1024 * 1024);
    const ok = await upload(vendor.token, atBound);
    expect(ok.status).toBe(201);
    const served = await fetch(`${server.httpUrl}${ok.body.image_url}`);
    expect((await served.arrayBuffer()).byteLength).toBe(MAX_IMAGE_BYTES);

    const before = await imageCount();
    const over = await upload(vendor.token, makePng({ totalBytes: MAX_IMAGE_BYTES + 1 }));
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ code: ImageErrorCode.TooLarge, message: IMAGE_TOO_LARGE_MESSAGE });
    expect(over.body.message).toBe('image over 2MB');
    expect(await imageCount()).toBe(before);
  });

  it('decides the type from the bytes: a text file named .png and declared image/png is 415 IMAGE_TYPE', async () => {
    const before = await imageCount();
    const text = await upload(vendor.token, Buffer.from('just some text, not a picture\n'.repeat(20)), 'photo.png', 'image/png');
    expect(text.status).toBe(415);
    expect(text.body.code).toBe(ImageErrorCode.Type);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect((await upload(vendor.token, svg, 'x.svg', 'image/svg+xml')).status).toBe(415);
    expect(await imageCount()).toBe(before);
  });

  it('accepts a real PNG sent under a misleading name and type, and serves it as image/png', async () => {
    const { status, body } = await upload(vendor.token, makePng({ rgb: [9, 9, 9] }), 'notes.txt', 'text/plain');
    expect(status).toBe(201);
    expect((await fetch(`${server.httpUrl}${body.image_url}`)).headers.get('content-type')).toBe('image/png');
  });

  it('answers 400 for a missing image field or a JSON body, 404 for an unknown id, 400 for a malformed id', async () => {
    expect((await upload(vendor.token, makePng(), 'a.png', 'image/png', 'file')).status).toBe(400);
    const json = await server.api<{ code: string }>('POST', paths.imageUpload, { token: vendor.token, body: { image: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body.code).toBe('VALIDATION_FAILED');
    expect((await server.api('GET', '/frontstage/v1/images/AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await server.api('GET', '/frontstage/v1/images/..%2Fetc')).status).toBe(400);
  });

  it('isolates tenants: an image URL of another tenant cannot be put on a product; the same bytes get another id', async () => {
    const png = makePng({ rgb: [77, 66, 55] });
    const mine = await upload(vendor.token, png);
    const theirs = await upload(other.token, png);
    expect(theirs.status).toBe(201);
    expect(theirs.body.image_url).not.toBe(mine.body.image_url);
    expect((await upload(vendor.token, png)).body.image_url).toBe(mine.body.image_url);

    const body = { name: 'Cam', model: 'C-1', number: 'N-1', image_url: mine.body.image_url };
    const stolen = await server.api<{ code: string }>('POST', paths.products, { token: other.token, body });
    expect(stolen.status).toBe(404);
    const created = await server.api<TProduct>('POST', paths.products, { token: vendor.token, body });
    expect(created.status).toBe(201);
    expect(created.body.image_url).toBe(mine.body.image_url);
    const edit = await server.api('PUT', paths.product(created.body.id), {
      token: other.token,
      body: { image_url: theirs.body.image_url },
    });
    expect(edit.status).toBe(404);
    const swap = await server.api<TProduct>('PUT', paths.product(created.body.id), {
      token: vendor.token,
      body: { image_url: theirs.body.image_url },
    });
    expect(swap.status).toBe(404);
    const cleared = await server.api<TProduct>('PUT', paths.product(created.body.id), { token: vendor.token, body: { image_url: null } });
    expect(cleared.body.image_url).toBeNull();
  });

  it('refuses an image_url that is not an uploaded image URL (400)', async () => {
    const body = { name: 'Cam', model: 'C-1', number: 'N-1', image_url: 'https://tracker.example.com/pixel.gif' };
    const res = await server.api<{ code: string }>('POST', paths.products, { token: vendor.token, body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
  });
});
