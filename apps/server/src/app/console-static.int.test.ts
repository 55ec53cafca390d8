/**
 * The console's files over real HTTP, as a browser receives them: a build's brotli or gzip sibling by the request's
 * Accept-Encoding (the bytes decode to the original), hashed assets immutable for a year, index.html revalidated on
 * every load (also when it answers a console route), a missing hashed asset a 404 rather than HTML, and hashed assets
 * without the security headers only a document obeys (index.html and the API keep them all).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../../test/helpers.js';
import { DOCUMENT_ONLY_HEADERS, HASHED_ASSET_CACHE } from './console-static.js';

const SCRIPT = `export const greeting = ${JSON.stringify('hello from the console '.repeat(200))};\n`;
const INDEX = `<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body>${'<div></div>'.repeat(200)}</body></html>`;

interface TRawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** GET `path` with `acceptEncoding`, body left encoded (node:http does not decode). */
function get(base: string, path: string, acceptEncoding: string): Promise<TRawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('console files: compressed by Accept-Encoding, cached by name', () => {
  let server: TTestServer;
  let dist: string;
  let parent: string;

  beforeAll(async () => {
    // The console's root itself under a folder named `assets`: only the root's own assets/ are hashed files.
    parent = mkdtempSync(join(tmpdir(), 'tessera-dist-'));
    dist = join(parent, 'assets', 'dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    // What `vite build` writes: each file with its .br and .gz siblings.
    for (const [name, text] of [
      ['index.html', INDEX],
      ['assets/index-Ab12Cd34.js', SCRIPT],
    ]) {
      writeFileSync(join(dist, name), text);
      writeFileSync(join(dist, `${name}.br`), brotliCompressSync(text));
      writeFileSync(join(dist, `${name}.gz`), gzipSync(text));
    }
    server = await startTestServer({ webDist: dist });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(parent, { recursive: true, force: true });
  });

  it('sends brotli to a browser that accepts it, and the bytes decode to the script', async () => {
    const res = await get(server.httpUrl, '/assets/index-Ab12Cd34.js', 'gzip, deflate, br, zstd');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.body.length).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(res.body).toString()).toBe(SCRIPT);
  });

  it('sends gzip when only gzip is accepted', async () => {
    const res = await get(server.httpUrl, '/assets/index-Ab12Cd34.js', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.body).toString()).toBe(SCRIPT);
  });

  it('sends the file as it is when no encoding is accepted', async () => {
    const res = await get(server.httpUrl, '/assets/index-Ab12Cd34.js', 'identity');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe(SCRIPT);
  });

  it('marks hashed assets immutable for a year, in every encoding', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await get(server.httpUrl, '/assets/index-Ab12Cd34.js', encoding);
      expect(res.headers['cache-control']).toBe(HASHED_ASSET_CACHE);
      expect(res.headers['cache-control']).toContain('max-age=31536000');
    }
  });

  it('has index.html revalidated and never immutable, at / and at a console route', async () => {
    for (const path of ['/', '/index.html', '/device/detail/3']) {
      const res = await get(server.httpUrl, path, 'gzip, deflate, br');
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type'], path).toMatch(/text\/html/);
      expect(res.headers['content-encoding'], path).toBe('br');
      expect(brotliDecompressSync(res.body).toString(), path).toBe(INDEX);
      expect(res.headers['cache-control'], path).toBe('no-cache');
      expect(res.headers['cache-control'], path).not.toContain('immutable');
    }
  });

  it('sends a hashed asset without the document-only security headers, and index.html and the API with all of them', async () => {
    const asset = await get(server.httpUrl, '/assets/index-Ab12Cd34.js', 'gzip, deflate, br');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-security-policy']).toBeUndefined();
    expect(asset.headers['cross-origin-opener-policy']).toBeUndefined();
    expect(asset.headers['x-frame-options']).toBeUndefined();
    expect(asset.headers['origin-agent-cluster']).toBeUndefined();
    // What a script or style sheet is still checked against, and how it is cached and encoded.
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    expect(asset.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(asset.headers['referrer-policy']).toBe('no-referrer');
    expect(asset.headers['cache-control']).toBe(HASHED_ASSET_CACHE);
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers.vary).toMatch(/accept-encoding/i);

    const index = await get(server.httpUrl, '/device/detail/3', 'gzip, deflate, br');
    const api = await get(server.httpUrl, '/frontstage/v1/nothing-here', 'br');
    for (const res of [index, api]) {
      expect(String(res.headers['content-security-policy'])).toContain("default-src 'self'");
      expect(String(res.headers['content-security-policy'])).toContain('frame-src');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
    // Each header left out of a hashed asset is one index.html sends (helmet sends no Permissions-Policy today).
    for (const name of DOCUMENT_ONLY_HEADERS) {
      expect(asset.headers[name], name).toBeUndefined();
      if (name !== 'permissions-policy') expect(index.headers[name], name).toBeDefined();
    }
  });

  it('answers a missing hashed asset with a 404 (not index.html), and an unknown API path with a JSON 404', async () => {
    const asset = await get(server.httpUrl, '/assets/gone-Zz99.js', 'br');
    expect(asset.status).toBe(404);
    expect(asset.headers['content-type']).toMatch(/json/);
    const api = await get(server.httpUrl, '/frontstage/v1/nothing-here', 'br');
    expect(api.status).toBe(404);
    expect(JSON.parse(api.body.toString()).code).toBeTruthy();
  });
});
