/**
 * A simulated device installing AI models (docs/protocol.md "AI models") against a real node:http server that plays
 * the platform's device side: the token route checks HTTP Basic, the file route the bearer token, and answers
 * `Range` with 206. No fetch mocks; every published state is asserted as it went on the wire.
 */
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { modelDeploymentPaths, ZDeviceModelState, type TDeviceModelMessage, type TDeviceModelState } from '@tessera/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MODEL_DOWNLOAD_RESUMES } from './model-download.js';
import { MODEL_PROGRESS_MIN_INTERVAL_MS } from './model-install.js';
import { ModelReceiver, type TModelFault } from './model-receiver.js';

const ID = '5400010100002A1A2B0000000000FF';
const SECRET = 'device-secret';
const TOKEN = 'device-token-1';

/** A file the server holds for a deployment: sent in `chunks` pieces `chunkDelayMs` apart; `drops` GETs cut midway. */
interface TServedFile {
  body: Buffer;
  chunks?: number;
  chunkDelayMs?: number;
  drops?: number;
}
const files = new Map<number, TServedFile>();
const hits: { method: string; url: string; range?: string; ifRange?: string }[] = [];
let server: Server;
let base: string;

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const gets = () => hits.filter((h) => h.method === 'GET');

async function serveFile(req: IncomingMessage, res: ServerResponse, file: TServedFile): Promise<void> {
  const etag = `"${sha256(file.body)}"`;
  const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  const start = range && req.headers['if-range'] === etag ? Number(range[1]) : 0;
  if (start >= file.body.length && start > 0) return void res.writeHead(416).end();
  const body = file.body.subarray(start);
  res.writeHead(start > 0 ? 206 : 200, {
    etag,
    'content-length': body.length,
    ...(start > 0 ? { 'content-range': `bytes ${start}-${file.body.length - 1}/${file.body.length}` } : {}),
  });
  if (file.drops && file.drops > 0) {
    file.drops -= 1;
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
    return;
  }
  const size = Math.ceil(body.length / (file.chunks ?? 1));
  for (let at = 0; at < body.length && !res.destroyed; at += size) {
    res.write(body.subarray(at, at + size));
    if (file.chunkDelayMs) await sleep(file.chunkDelayMs);
  }
  res.end();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push({ method: req.method ?? '', url: req.url ?? '', range: req.headers.range, ifRange: req.headers['if-range']?.toString() });
    if (req.method === 'POST' && req.url === modelDeploymentPaths.deviceToken) {
      if (req.headers.authorization !== `Basic ${Buffer.from(`${ID}:${SECRET}`).toString('base64')}`) return void res.writeHead(401).end();
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token: TOKEN, expires_in_s: 600 }));
    }
    const id = Number(/^\/device\/v1\/model-deployments\/(\d+)\/file$/.exec(req.url ?? '')?.[1]);
    if (req.method !== 'GET' || !id) return void res.writeHead(404).end();
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end();
    const file = files.get(id);
    if (!file) return void res.writeHead(404).end();
    void serveFile(req, res, file);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  files.clear();
  hits.length = 0;
});

function message(deploymentId: number, attempt: number, body: Buffer, over: Partial<TDeviceModelMessage> = {}): TDeviceModelMessage {
  return {
    deploymentId,
    attempt,
    modelId: 7,
    modelName: 'vibration-anomaly',
    framework: 'onnx',
    revision: 3,
    fileName: 'model.onnx',
    sizeBytes: body.length,
    sha256: sha256(body),
    url: `${base}${modelDeploymentPaths.deviceModelFile(deploymentId)}`,
    tokenUrl: `${base}${modelDeploymentPaths.deviceToken}`,
    ...over,
  };
}

/** A receiver whose published states (and when each went) are recorded. */
function device(o: { fault?: TModelFault; secret?: string; progressMinIntervalMs?: number } = {}) {
  const states: TDeviceModelState[] = [];
  const publishedAt: number[] = [];
  const counters = { modelsInstalled: 0, modelsFailed: 0 };
  const receiver = new ModelReceiver({
    tangramId: ID,
    secret: o.secret ?? SECRET,
    counters,
    fault: o.fault,
    // Tests that assert exact sequences keep progress reports out, unless they set the interval.
    progressMinIntervalMs: o.progressMinIntervalMs ?? 60_000,
    publishState: (s) => {
      states.push(s);
      publishedAt.push(Date.now());
    },
  });
  const send = (m: TDeviceModelMessage) => receiver.receive(Buffer.from(JSON.stringify(m)));
  return { receiver, states, publishedAt, counters, send };
}

async function waitFor(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(10);
  }
}

const started = (deploymentId: number, attempt: number) => ({ deploymentId, attempt, state: 'downloading', progress: 0 });
const installed = (deploymentId: number, attempt: number) => ({ deploymentId, attempt, state: 'installed', progress: 1 });
const failed = (deploymentId: number, attempt: number, reason: string) => ({ deploymentId, attempt, state: 'failed', reason });

describe('model install (docs/protocol.md "AI models")', () => {
  it('fetches a token with Basic auth, downloads with the bearer token, verifies and reports installed', async () => {
    const body = randomBytes(200_000);
    files.set(1, { body });
    const d = device();
    await d.send(message(1, 1, body));
    expect(d.states).toEqual([started(1, 1), installed(1, 1)]);
    expect(d.states.every((s) => ZDeviceModelState.safeParse(s).success)).toBe(true);
    expect(hits.map((h) => `${h.method} ${h.url}`)).toEqual(['POST /device/v1/token', 'GET /device/v1/model-deployments/1/file']);
    expect(d.receiver.installedModel()).toEqual({
      deploymentId: 1,
      attempt: 1,
      modelId: 7,
      revision: 3,
      sha256: sha256(body),
      bytes: 200_000,
    });
    expect(d.counters).toEqual({ modelsInstalled: 1, modelsFailed: 0 });
  });

  it('corrupt-once: the first download fails with sha256 mismatch, the next attempt installs', async () => {
    const body = randomBytes(10_000);
    files.set(1, { body });
    const d = device({ fault: 'corrupt-once' });
    await d.send(message(1, 1, body));
    expect(d.states).toEqual([started(1, 1), failed(1, 1, 'sha256 mismatch')]);
    expect(d.receiver.installedModel()).toBeNull();
    await d.send(message(1, 2, body));
    expect(d.states.slice(2)).toEqual([started(1, 2), installed(1, 2)]);
    expect(d.receiver.installedModel()).toMatchObject({ deploymentId: 1, attempt: 2 });
    expect(d.counters).toEqual({ modelsInstalled: 1, modelsFailed: 1 });
  });

  it('corrupt-always: every attempt fails with sha256 mismatch', async () => {
    const body = randomBytes(10_000);
    files.set(1, { body });
    const d = device({ fault: 'corrupt-always' });
    await d.send(message(1, 1, body));
    await d.send(message(1, 2, body));
    expect(d.states).toEqual([started(1, 1), failed(1, 1, 'sha256 mismatch'), started(1, 2), failed(1, 2, 'sha256 mismatch')]);
    expect(d.receiver.installedModel()).toBeNull();
    expect(d.counters).toEqual({ modelsInstalled: 0, modelsFailed: 2 });
  });

  it('reports why it failed: a refused token, a missing file, a wrong length', async () => {
    const body = randomBytes(1_000);
    files.set(1, { body });
    const wrongSecret = device({ secret: 'not-the-secret' });
    await wrongSecret.send(message(1, 1, body));
    expect(wrongSecret.states).toEqual([started(1, 1), failed(1, 1, 'token refused: HTTP 401')]);
    expect(gets()).toHaveLength(0);

    const d = device();
    await d.send(message(2, 1, body));
    expect(d.states).toEqual([started(2, 1), failed(2, 1, 'download failed: HTTP 404')]);
    await d.send(message(1, 2, body, { sizeBytes: 1_001 }));
    expect(d.states.slice(2)).toEqual([started(1, 2), failed(1, 2, 'size mismatch: got 1000 bytes, expected 1001')]);
    expect(d.counters).toEqual({ modelsInstalled: 0, modelsFailed: 2 });
  });

  it('reports progress rising by at least 10 % each time, then the final state last', async () => {
    const body = randomBytes(100_000);
    files.set(1, { body, chunks: 50, chunkDelayMs: 10 });
    const d = device({ progressMinIntervalMs: 0 });
    await d.send(message(1, 1, body));
    const progress = d.states.slice(0, -1).map((s) => (s.state === 'downloading' ? (s.progress ?? Number.NaN) : Number.NaN));
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.length).toBeLessThanOrEqual(11);
    expect(progress[0]).toBe(0);
    for (let i = 1; i < progress.length; i += 1) expect(progress[i] - progress[i - 1]).toBeGreaterThanOrEqual(0.1);
    expect(progress.at(-1)).toBeLessThan(1);
    expect(d.states.at(-1)).toEqual(installed(1, 1));
  });

  it(`reports progress at most every ${MODEL_PROGRESS_MIN_INTERVAL_MS} ms`, async () => {
    const body = randomBytes(100_000);
    files.set(1, { body, chunks: 50, chunkDelayMs: 20 });
    const d = device({ progressMinIntervalMs: MODEL_PROGRESS_MIN_INTERVAL_MS });
    await d.send(message(1, 1, body));
    const reports = d.publishedAt.slice(0, -1);
    expect(reports.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < reports.length; i += 1) expect(reports[i] - reports[i - 1]).toBeGreaterThanOrEqual(MODEL_PROGRESS_MIN_INTERVAL_MS);
    expect(d.states.at(-1)).toEqual(installed(1, 1));
  });

  it('the same pair again re-publishes the final state without downloading; while downloading it is ignored', async () => {
    const body = randomBytes(50_000);
    files.set(1, { body, chunks: 20, chunkDelayMs: 25 });
    const d = device();
    const first = d.send(message(1, 1, body));
    await waitFor(() => gets().length === 1);
    await d.send(message(1, 1, body));
    await first;
    expect(d.states).toEqual([started(1, 1), installed(1, 1)]);
    await d.send(message(1, 1, body));
    expect(d.states).toEqual([started(1, 1), installed(1, 1), installed(1, 1)]);
    expect(gets()).toHaveLength(1);

    files.delete(1);
    await d.send(message(1, 2, body));
    await d.send(message(1, 2, body));
    expect(d.states.slice(3)).toEqual([
      started(1, 2),
      failed(1, 2, 'download failed: HTTP 404'),
      failed(1, 2, 'download failed: HTTP 404'),
    ]);
    expect(d.counters).toEqual({ modelsInstalled: 1, modelsFailed: 1 });
  });

  it('a new pair mid-download aborts the first without reporting it, and installs the new one', async () => {
    const slow = randomBytes(100_000);
    const fast = randomBytes(10_000);
    files.set(1, { body: slow, chunks: 100, chunkDelayMs: 20 });
    files.set(2, { body: fast });
    const d = device({ progressMinIntervalMs: 0 });
    const first = d.send(message(1, 1, slow));
    await waitFor(() => d.states.length >= 2);
    await d.send(message(2, 1, fast));
    await first;
    expect(d.states.filter((s) => s.deploymentId === 1).every((s) => s.state === 'downloading')).toBe(true);
    expect(d.states.filter((s) => s.deploymentId === 2)).toEqual([started(2, 1), installed(2, 1)]);
    expect(d.receiver.installedModel()).toMatchObject({ deploymentId: 2, sha256: sha256(fast) });
    expect(d.counters).toEqual({ modelsInstalled: 1, modelsFailed: 0 });
  });

  it('resumes a dropped download with Range and If-Range, hashing on from where it stopped', async () => {
    const body = randomBytes(300_000);
    files.set(1, { body, drops: 1 });
    const d = device();
    await d.send(message(1, 1, body));
    expect(d.states).toEqual([started(1, 1), installed(1, 1)]);
    expect(gets().map((h) => [h.range, h.ifRange])).toEqual([
      [undefined, undefined],
      [`bytes=${body.length / 2}-`, `"${sha256(body)}"`],
    ]);
  });

  it(`gives up with a network error after ${MODEL_DOWNLOAD_RESUMES} resumes`, async () => {
    const body = randomBytes(8_000);
    files.set(1, { body, drops: MODEL_DOWNLOAD_RESUMES + 1 });
    const d = device();
    await d.send(message(1, 1, body));
    expect(d.states.at(-1)).toMatchObject({
      deploymentId: 1,
      attempt: 1,
      state: 'failed',
      reason: expect.stringMatching(/^network error: /),
    });
    expect(gets()).toHaveLength(MODEL_DOWNLOAD_RESUMES + 1);
  });

  it('an empty payload removes the model silently; an unreadable one is ignored', async () => {
    const body = randomBytes(1_000);
    files.set(1, { body });
    const d = device();
    await d.send(message(1, 1, body));
    await d.receiver.receive(Buffer.from('not a model'));
    expect(d.receiver.installedModel()).not.toBeNull();
    await d.receiver.receive(Buffer.alloc(0));
    expect(d.receiver.installedModel()).toBeNull();
    expect(d.states).toEqual([started(1, 1), installed(1, 1)]);
    await d.send(message(1, 1, body));
    expect(gets()).toHaveLength(2);
  });
});
