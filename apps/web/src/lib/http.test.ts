/** The §8 policy of the HTTP client against a real node:http server on a free port (no fetch mocks). */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_RETRIES, paths } from '@tessera/contracts';
import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttp, HttpError } from './http';
import { onHttpEvent, type THttpEvent } from './httpEvents';
import { clearSession, getSession, saveTokens } from './session';

type THandler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
let handler: THandler = (_q, res) => res.end();
let server: Server;
let baseUrl: string;
const hits: { method: string; url: string; auth: string }[] = [];
const events: THttpEvent[] = [];
let off: () => void;

const sign = (sub: string) =>
  new SignJWT({ tid: 1, email: 'v@example.com', level: 'vendor', fea: ['2', '3', '4'] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .sign(new TextEncoder().encode('test-secret-test-secret-test-secret'));

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      hits.push({ method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization ?? '' });
      handler(req, res, body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(async () => {
  hits.length = 0;
  events.length = 0;
  off = onHttpEvent((e) => events.push(e));
  saveTokens(await sign('old'), 'refresh-1');
});
afterEach(() => off());

const client = () => createHttp({ baseUrl, timeoutMs: 300, retryDelayMs: 50 });

describe('http client policy (spec §8)', () => {
  it('sends the bearer token and the query, and returns the JSON', async () => {
    handler = (_q, res) => json(res, 200, { ok: true });
    const out = await client().get<{ ok: boolean }>('/x', { page: 2, q: undefined, on: true });
    expect(out).toEqual({ ok: true });
    expect(hits[0]).toMatchObject({ url: '/x?page=2&on=true', auth: `Bearer ${getSession().token}` });
  });

  it('401 clears the session and reports logout', async () => {
    handler = (_q, res) => json(res, 401, { code: 'AUTH_REQUIRED', message: 'login' });
    await expect(client().get('/x')).rejects.toMatchObject({ status: 401, code: 'AUTH_REQUIRED' });
    expect(getSession().token).toBeNull();
    expect(events).toEqual([{ type: 'logout' }]);
  });

  it('401 of a call made without a token (the login form) only throws', async () => {
    clearSession();
    handler = (_q, res) => json(res, 401, { code: 'AUTH_WRONG_CREDENTIALS', message: 'wrong' });
    const err = await client()
      .post(paths.login, { email: 'a@b.c' }, { quiet: true })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ code: 'AUTH_WRONG_CREDENTIALS' });
    expect(events).toEqual([]);
  });

  it.each([
    [403, 'PUT'],
    [500, 'GET'],
    [500, 'POST'],
  ] as const)('%i to a %s opens the error dialog with the status text and keeps the session', async (status, method) => {
    handler = (_q, res) => json(res, status, { code: 'X', message: 'nope' });
    const http = client();
    await expect(method === 'GET' ? http.get('/x') : method === 'PUT' ? http.put('/x', {}) : http.post('/x', {})).rejects.toMatchObject({
      status,
    });
    expect(events).toEqual([
      { type: 'error-dialog', status, statusText: status === 403 ? 'Forbidden' : 'Internal Server Error', message: 'nope' },
    ]);
    expect(getSession().token).not.toBeNull();
  });

  it('403 to a read only throws: the page shows it (no dialog the person did not cause)', async () => {
    handler = (_q, res) => json(res, 403, { code: 'FORBIDDEN', message: 'vendors only' });
    await expect(client().get('/x')).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(events).toEqual([]);
    expect(getSession().token).not.toBeNull();
  });

  it('UAE0004: one refresh shared by concurrent calls, then the calls succeed with the new token', async () => {
    const fresh = await sign('new');
    handler = (req, res, body) => {
      if (req.url === paths.refreshToken) {
        expect(JSON.parse(body)).toEqual({ refresh_token: 'refresh-1', platform: 'aiot' });
        setTimeout(() => json(res, 200, { token: fresh, refresh_token: 'refresh-2' }), 30);
      } else if (req.headers.authorization === `Bearer ${fresh}`) json(res, 200, { url: req.url });
      else json(res, 401, { code: 'UAE0004', message: 'expired' });
    };
    const http = client();
    const out = await Promise.all([http.get('/a'), http.get('/b'), http.put('/c', { n: 1 })]);
    expect(out).toEqual([{ url: '/a' }, { url: '/b' }, { url: '/c' }]);
    expect(hits.filter((h) => h.url === paths.refreshToken)).toHaveLength(1);
    expect(getSession()).toMatchObject({ token: fresh, refreshToken: 'refresh-2', accountId: 'new' });
    expect(events).toEqual([]);
  });

  it(`AUTHZ-E001 that persists: refresh once, then at most ${MAX_RETRIES} retries spaced by the delay`, async () => {
    const fresh = await sign('new');
    handler = (req, res) => {
      if (req.url === paths.refreshToken) json(res, 200, { token: fresh, refresh_token: 'refresh-2' });
      else json(res, 403, { code: 'AUTHZ-E001', message: 'authz changed' });
    };
    const started = Date.now();
    await expect(client().get('/x')).rejects.toMatchObject({ code: 'AUTHZ-E001' });
    expect(hits.filter((h) => h.url === '/x')).toHaveLength(1 + MAX_RETRIES);
    expect(hits.filter((h) => h.url === paths.refreshToken)).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual((MAX_RETRIES - 1) * 50);
  });

  it('UAE0007 is not retried and logs out', async () => {
    handler = (_q, res) => json(res, 401, { code: 'UAE0007', message: 'refresh revoked' });
    await expect(client().get('/x')).rejects.toMatchObject({ code: 'UAE0007' });
    expect(hits).toHaveLength(1);
    expect(getSession().token).toBeNull();
    expect(events).toEqual([{ type: 'logout' }]);
  });

  it('a failed refresh logs out without retrying', async () => {
    handler = (req, res) => {
      if (req.url === paths.refreshToken) json(res, 401, { code: 'UAE0007', message: 'reused' });
      else json(res, 401, { code: 'UAE0004', message: 'expired' });
    };
    await expect(client().get('/x')).rejects.toMatchObject({ code: 'UAE0004' });
    expect(hits.map((h) => h.url)).toEqual(['/x', paths.refreshToken]);
    expect(getSession().token).toBeNull();
    expect(events).toEqual([{ type: 'logout' }]);
  });

  it('a server that does not answer in time gives a TIMEOUT error', async () => {
    handler = () => {};
    await expect(client().get('/slow')).rejects.toMatchObject({ status: 0, code: 'TIMEOUT' });
  });

  it('no server at all: a connection note (offline)', async () => {
    const dead = createHttp({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 2000 });
    await expect(dead.get('/x')).rejects.toMatchObject({ status: 0, code: 'OFFLINE' });
    expect(events).toEqual([{ type: 'offline' }]);
  });

  it('other failures are only thrown (no dialog, no logout), with the server code', async () => {
    handler = (_q, res) => json(res, 400, { code: 'VALIDATION_FAILED', message: 'name too long' });
    await expect(client().post('/x', { name: 'x' })).rejects.toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(events).toEqual([]);
    expect(getSession().token).not.toBeNull();
  });

  it('204 answers undefined', async () => {
    handler = (_q, res) => res.writeHead(204).end();
    expect(await client().del('/x')).toBeUndefined();
  });
});
