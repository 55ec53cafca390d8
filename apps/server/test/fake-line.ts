/**
 * A fake LINE Messaging API for tests: a real local HTTP server (node:http) that records every request (method, path,
 * headers, parsed JSON body) and answers push, reply, quota, quota consumption, link token, group summary and profile
 * like LINE does — including 409 for a push whose X-Line-Retry-Key was already accepted, and 429 "You have reached
 * your monthly limit." once the configured quota is used. `mode` switches failures on; `events` and `sign` build
 * webhook bodies signed as LINE signs them. Point the server at it with `lineApiBase: fake.url`.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signLineBody } from '../src/modules/line/signature.js';

/** One request the fake received. Header names are lower case. */
export interface TFakeLineRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * `ok`; `down`: every call answers 503; `monthly_limit` / `rate_limit`: pushes answer LINE's 429s; `unauthorized`: 401;
 * `lost_answer`: a push is accepted (its retry key too) but answered 500, as when the answer is lost on the way.
 */
export type TFakeLineMode = 'ok' | 'down' | 'monthly_limit' | 'rate_limit' | 'unauthorized' | 'lost_answer';

/** A running fake. Settings are read at each request, so a test may change them at any time. */
export interface TFakeLine {
  url: string;
  requests: TFakeLineRequest[];
  mode: TFakeLineMode;
  /** The month's quota (`limited` with `value`, or `none`) and what is used of it; pushes add to `used`. */
  quota: { type: 'none' | 'limited'; value?: number; used: number };
  /** Display names (profile) and group names (group summary) by LINE ID. */
  names: Map<string, string>;
  /** The requests for `path` (exact, or a RegExp), in order. */
  calls(path: string | RegExp): TFakeLineRequest[];
  /** Resolves with the first request matching `pick` (received or to come); rejects after `timeoutMs`. */
  waitFor(pick: (r: TFakeLineRequest) => boolean, timeoutMs?: number): Promise<TFakeLineRequest>;
  stop(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', 'x-line-request-id': randomBytes(8).toString('hex'), ...headers });
  res.end(JSON.stringify(body));
};

/** Status, JSON body and extra headers of an answer. */
type TReply = [status: number, body: unknown, headers?: Record<string, string>];
const reply = (status: number, body: unknown, headers: Record<string, string> = {}): TReply => [status, body, headers];

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Starts the fake on a free loopback port. */
export async function startFakeLine(): Promise<TFakeLine> {
  const acceptedKeys = new Set<string>();
  const waiters = new Set<() => void>();
  const fake: TFakeLine = {
    url: '',
    requests: [],
    mode: 'ok',
    quota: { type: 'none', used: 0 },
    names: new Map(),
    calls: (path) => fake.requests.filter((r) => (typeof path === 'string' ? r.path === path : path.test(r.path))),
    waitFor(pick, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = fake.requests.find(pick);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `no matching LINE request within ${timeoutMs} ms (got ${fake.requests.map((r) => `${r.method} ${r.path}`).join(', ')})`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  function answer(req: TFakeLineRequest): TReply {
    if (fake.mode === 'down') return reply(503, { message: 'Service Unavailable' });
    if (fake.mode === 'unauthorized')
      return reply(401, { message: 'Authentication failed. Confirm that the access token in the authorization header is valid.' });
    const { method, path } = req;
    if (method === 'POST' && path === '/v2/bot/message/push') {
      const key = req.headers['x-line-retry-key'];
      if (key && acceptedKeys.has(key))
        return reply(409, { message: 'The retry key is already accepted' }, { 'x-line-accepted-request-id': 'accepted' });
      if (fake.mode === 'rate_limit') return reply(429, { message: 'The API rate limit has been exceeded. Try again later.' });
      if (fake.mode === 'monthly_limit' || (fake.quota.type === 'limited' && fake.quota.used >= (fake.quota.value ?? 0))) {
        return reply(429, { message: 'You have reached your monthly limit.' });
      }
      if (key) acceptedKeys.add(key);
      fake.quota.used += 1;
      if (fake.mode === 'lost_answer') return reply(500, { message: 'Internal Server Error' });
      return reply(200, { sentMessages: [{ id: randomBytes(8).toString('hex'), quoteToken: randomBytes(8).toString('hex') }] });
    }
    if (method === 'POST' && path === '/v2/bot/message/reply') return reply(200, { sentMessages: [] });
    if (method === 'GET' && path === '/v2/bot/message/quota') {
      return reply(200, fake.quota.type === 'limited' ? { type: 'limited', value: fake.quota.value ?? 0 } : { type: 'none' });
    }
    if (method === 'GET' && path === '/v2/bot/message/quota/consumption') return reply(200, { totalUsage: fake.quota.used });
    const link = /^\/v2\/bot\/user\/([^/]+)\/linkToken$/.exec(path);
    if (method === 'POST' && link) return reply(200, { linkToken: `lt-${decodeURIComponent(link[1])}-${randomBytes(6).toString('hex')}` });
    const group = /^\/v2\/bot\/group\/([^/]+)\/summary$/.exec(path);
    const profile = /^\/v2\/bot\/profile\/([^/]+)$/.exec(path);
    const id = decodeURIComponent((group ?? profile)?.[1] ?? '');
    if (method === 'GET' && group && fake.names.has(id)) return reply(200, { groupId: id, groupName: fake.names.get(id), pictureUrl: '' });
    if (method === 'GET' && profile && fake.names.has(id))
      return reply(200, { userId: id, displayName: fake.names.get(id), language: 'zh-TW' });
    return reply(404, { message: 'Not found' });
  }

  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      const recorded: TFakeLineRequest = { method: req.method ?? '', path: (req.url ?? '').split('?')[0], headers, body };
      fake.requests.push(recorded);
      json(res, ...answer(recorded));
      for (const w of waiters) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

/** The X-Line-Signature LINE would send for `body` under `channelSecret`. */
export const signLine = (body: string, channelSecret: string) => signLineBody(body, channelSecret);

let seq = 0;
const base = (type: string, source: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  type,
  mode: 'active',
  timestamp: Date.now(),
  webhookEventId: `01TEST${Date.now().toString(36).toUpperCase()}${(seq++).toString(36).toUpperCase().padStart(4, '0')}`,
  deliveryContext: { isRedelivery: false },
  source,
  ...extra,
});
const replyToken = () => randomBytes(16).toString('hex');

/** Webhook event objects as LINE sends them. */
export const lineEvents = {
  follow: (userId: string) => base('follow', { type: 'user', userId }, { replyToken: replyToken(), follow: { isUnblocked: false } }),
  unfollow: (userId: string) => base('unfollow', { type: 'user', userId }),
  join: (groupId: string) => base('join', { type: 'group', groupId }, { replyToken: replyToken() }),
  leave: (groupId: string) => base('leave', { type: 'group', groupId }),
  text: (userId: string, text: string) =>
    base(
      'message',
      { type: 'user', userId },
      { replyToken: replyToken(), message: { id: String(seq), type: 'text', quoteToken: 'q', text } },
    ),
  accountLink: (userId: string, nonce: string, result: 'ok' | 'failed' = 'ok') =>
    base('accountLink', { type: 'user', userId }, { replyToken: replyToken(), link: { result, nonce } }),
};

/** A webhook body of `events` for the bot `destination`. */
export const webhookBody = (events: unknown[], destination = 'Ubot0000000000000000000000000000') => JSON.stringify({ destination, events });
