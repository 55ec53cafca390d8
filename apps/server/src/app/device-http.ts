/**
 * The device HTTP port (DEVICE_HTTP_PORT, docs/deployment.md "The device HTTP port"): device-facing HTTP on a
 * thread of its own. The thread (device-http-thread.ts) runs a Fastify app with the routes' own parameters, body
 * parser, rate limit, headers and connection limits, and hands each parsed request to this thread over its message
 * port; this thread answers it with the same handler as on the main port, and the thread writes the answer. What the
 * main thread is spared per request is the HTTP server's work: the socket, the parser, the routing and hooks, the
 * answer. Today the port takes the LoRaWAN uplink webhook (`POST /lorawan/v1/{integrationId}/{networkServer}`).
 *
 * Requests in flight when the server stops are answered (ingest drains before the thread is ended); new connections
 * are refused from the first step of the stop, as on the main port.
 */
import type { EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { TConfig } from '../core/config.js';
import { settlesWithin } from '../core/deadline.js';
import { errorReplyOf, INTERNAL_ERROR_REPLY, type TErrorReply } from '../core/error-reply.js';
import type { TUplinkReply, TUplinkRequest } from '../modules/lorawan/receive-uplink.js';
import type { TUplinkHandler } from '../modules/lorawan/webhook-route.js';

/** What the thread is started with (its `workerData`): the listener's address and the main app's HTTP settings. */
export interface TDeviceHttpThreadData {
  port: number;
  host: string;
  trustProxy: string[] | undefined;
  pagesOrigin: string | undefined;
  logLevel: string;
  maxConnections: number;
  maxConnectionsPerIp: number;
  /** Whether the thread keeps `tessera_device_http_request_duration_seconds` (METRICS_TOKEN is set). */
  observeHttp: boolean;
}

/**
 * A webhook request as it crosses the message port: the body's bytes as a Latin-1 string, one character per byte. A
 * string is copied as it is; a Buffer's view would carry its whole backing store across (Node reads a socket into 64 KiB
 * of memory, and small Buffers share an 8 KiB pool), and each message would allocate one off the heap.
 */
export type TUplinkRequestMessage = Omit<TUplinkRequest, 'body'> & { bodyLatin1: string };

/** What the thread tells this one: requests go in batches ({@link batchedPost}). */
export type TFromDeviceHttpThread =
  | { kind: 'listening'; port: number }
  | { kind: 'uplinks'; requests: { id: number; request: TUplinkRequestMessage }[] }
  /** The thread's metrics in the Prometheus text format, answering `{kind: 'metrics', id}`. */
  | { kind: 'metrics'; id: number; text: string }
  | { kind: 'closed' };

/** A request's answer, or its error's. */
export type TDeviceHttpAnswer = { id: number; reply: TUplinkReply } | { id: number; error: TErrorReply };

/** What this thread tells the device HTTP thread: answers in batches, to stop accepting, or to send its metrics. */
export type TToDeviceHttpThread =
  | { kind: 'answers'; answers: TDeviceHttpAnswer[] }
  | { kind: 'stop-accepting' }
  | { kind: 'metrics'; id: number };

/**
 * Items handed to `post` together: those added in one turn of the event loop go in one message, sent once the turn's
 * I/O callbacks have run (`setImmediate`). A message costs both threads a few microseconds whatever it holds; under
 * load one turn parses or answers many requests.
 */
export function batchedPost<T>(post: (items: T[]) => void): (item: T) => void {
  let items: T[] = [];
  const flush = () => {
    const taken = items;
    items = [];
    post(taken);
  };
  return (item) => {
    items.push(item);
    if (items.length === 1) setImmediate(flush);
  };
}

/** The handlers of the device HTTP port's routes: the modules' own (modules/lorawan/webhook-routes.ts). */
export interface TDeviceHttpHandlers {
  uplink: TUplinkHandler;
}

/** The running thread: its bound port, its state, and its two steps of the server's stop. */
export interface TDeviceHttpThread {
  port: number;
  /** Whether a thread listens on the port now (false from an unexpected exit until the restart listens). */
  isUp(): boolean;
  /** How many times the thread was started again after it ended unexpectedly. */
  restarts(): number;
  /** Closes the listener and idle connections; requests in flight are still answered. */
  stopAccepting(): void;
  /** Waits until the thread's requests are answered (at most `withinMs`), then ends the thread. */
  close(withinMs: number): Promise<void>;
  /** The current thread's event loop utilisation since it started (`performance.eventLoopUtilization()`, for benches). */
  eventLoopUtilization(): EventLoopUtilization;
  /** Ends the thread as a crash would, without stopping the port (tests and diagnostics): it is started again. */
  terminateThread(): Promise<void>;
  /**
   * The thread's metrics in the Prometheus text format (its request latency histogram, which starts again from zero
   * when the thread does), or null when it keeps none, is down, or does not answer within `withinMs`.
   */
  metricsText(withinMs: number): Promise<string | null>;
  /**
   * Starts V8's CPU profiler in the current thread (benches: `worker.startCpuProfile()`); `stop` answers the profile as
   * a `.cpuprofile` JSON text.
   */
  startCpuProfile(): Promise<{ stop(): Promise<string> }>;
}

/** How long the first restart after an unexpected exit waits, in milliseconds; each failed one waits twice as long. */
export const DEVICE_HTTP_RESTART_FIRST_MS = 500;
/** The longest wait between restarts, in milliseconds. */
export const DEVICE_HTTP_RESTART_MAX_MS = 30_000;
/** A thread that ran this long before it ended starts the waits again from the first, in milliseconds. */
const DEVICE_HTTP_STABLE_MS = 60_000;

/**
 * The thread's entry: the TypeScript source under tsx and vitest (the thread loads tsx: a worker started from a test
 * runner's module graph has no loader of its own), the bundle's sibling in a build (scripts/build.mjs bundles both;
 * the bundle's `import.meta.url` is rewritten to this source file's address, so the path goes from here to dist/).
 */
function threadEntry(): { url: URL; execArgv: string[] | undefined } {
  const bundled = typeof TESSERA_BUNDLED !== 'undefined' && TESSERA_BUNDLED;
  if (bundled) return { url: new URL('../../dist/device-http-thread.js', import.meta.url), execArgv: undefined };
  const hasTsx = process.execArgv.some((arg, i, all) => arg === '--import=tsx' || (arg === '--import' && all[i + 1] === 'tsx'));
  return {
    url: new URL('./device-http-thread.ts', import.meta.url),
    execArgv: hasTsx ? undefined : [...process.execArgv, '--import', 'tsx'],
  };
}

declare const TESSERA_BUNDLED: boolean | undefined;

/** One thread: its Worker, when it listens (its bound port), and when it is gone. */
interface TSpawnedThread {
  worker: Worker;
  startedAt: number;
  listening: Promise<number>;
  exited: Promise<number>;
  /** Resolves once the thread said it closed, or exited. */
  closed: Promise<void>;
  /** Asks the thread for its metrics text: null when it does not answer within `withinMs` or exits first. */
  metricsText(withinMs: number): Promise<string | null>;
}

/**
 * Starts a thread on `data.port`; its requests are answered by `handlers` and the answers go back to that thread (a
 * request of a thread that ended is answered to no one: its connection ended with it).
 */
function spawnThread(data: TDeviceHttpThreadData, handlers: TDeviceHttpHandlers, log: Logger): TSpawnedThread {
  const entry = threadEntry();
  const worker = new Worker(entry.url, { workerData: data, execArgv: entry.execArgv });
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  const closed = new Promise<void>((resolve) => {
    worker.on('message', (m: TFromDeviceHttpThread) => m.kind === 'closed' && resolve());
    void exited.then(() => resolve());
  });
  const send = batchedPost<TDeviceHttpAnswer>((answers) => worker.postMessage({ kind: 'answers', answers } satisfies TToDeviceHttpThread));
  const answer = (id: number, request: TUplinkRequestMessage) => {
    const { bodyLatin1, ...rest } = request;
    handlers.uplink({ ...rest, body: Buffer.from(bodyLatin1, 'latin1') }).then(
      (reply) => send({ id, reply }),
      (err: unknown) => {
        const error = errorReplyOf(err);
        if (!error) log.error({ err }, 'device HTTP: unhandled error');
        send({ id, error: error ?? INTERNAL_ERROR_REPLY });
      },
    );
  };
  const metricsAsked = new Map<number, (text: string | null) => void>();
  let lastMetricsId = 0;
  void exited.then(() => {
    for (const settle of metricsAsked.values()) settle(null);
    metricsAsked.clear();
  });
  const metricsText = (withinMs: number) =>
    new Promise<string | null>((resolve) => {
      lastMetricsId += 1;
      const id = lastMetricsId;
      const timer = setTimeout(() => {
        metricsAsked.delete(id);
        resolve(null);
      }, withinMs);
      metricsAsked.set(id, (text) => {
        clearTimeout(timer);
        resolve(text);
      });
      worker.postMessage({ kind: 'metrics', id } satisfies TToDeviceHttpThread);
    });
  const listening = new Promise<number>((resolve, reject) => {
    worker.on('message', (m: TFromDeviceHttpThread) => {
      if (m.kind === 'uplinks') for (const { id, request } of m.requests) answer(id, request);
      else if (m.kind === 'metrics') {
        metricsAsked.get(m.id)?.(m.text);
        metricsAsked.delete(m.id);
      } else if (m.kind === 'listening') resolve(m.port);
    });
    worker.once('error', reject);
    void exited.then((code) => reject(new Error(`the device HTTP thread exited (code ${code}) before it listened`)));
  });
  // After it listened, an error ends the thread: its exit is what the supervisor acts on.
  worker.on('error', (err) => log.error({ err }, 'device HTTP: the thread failed'));
  return { worker, startedAt: Date.now(), listening, exited, closed, metricsText };
}

/**
 * Starts the thread and waits until it listens on `port` (DEVICE_HTTP_PORT; 0: a free port) of `config.host`. A thread
 * that ends unexpectedly later (an uncaught error, out of memory) is started again on the same port, after
 * DEVICE_HTTP_RESTART_FIRST_MS, then twice as long after each failed start up to DEVICE_HTTP_RESTART_MAX_MS; each exit
 * and restart is logged.
 * @throws when the first thread fails before it listens (the port taken: its error's `code` is EADDRINUSE).
 */
export async function startDeviceHttpThread(
  config: TConfig,
  port: number,
  handlers: TDeviceHttpHandlers,
  log: Logger,
): Promise<TDeviceHttpThread> {
  const data: TDeviceHttpThreadData = {
    port,
    host: config.host,
    trustProxy: config.trustProxy,
    pagesOrigin: config.pagesOrigin,
    logLevel: config.logLevel,
    maxConnections: config.httpMaxConnections,
    maxConnectionsPerIp: config.httpMaxConnectionsPerIp,
    // Without a token no one may read the metrics, so none are kept (as on the main port).
    observeHttp: Boolean(config.metricsToken),
  };
  let current = spawnThread(data, handlers, log);
  const boundPort = await current.listening;
  let stopping = false;
  let up = true;
  let restarts = 0;
  let waitMs = DEVICE_HTTP_RESTART_FIRST_MS;
  let restartTimer: NodeJS.Timeout | undefined;

  const restart = () => {
    restartTimer = undefined;
    if (stopping) return;
    const next = spawnThread({ ...data, port: boundPort }, handlers, log);
    current = next;
    next.listening.then(
      () => {
        restarts += 1;
        up = !stopping;
        log.warn({ port: boundPort, restarts }, 'device HTTP: the thread was started again; DEVICE_HTTP_PORT is open');
        watch(next);
      },
      (err: unknown) => {
        log.error({ err, retryInMs: waitMs }, 'device HTTP: the thread did not start again');
        void next.worker.terminate();
        schedule();
      },
    );
  };
  const schedule = () => {
    if (stopping) return;
    restartTimer = setTimeout(restart, waitMs);
    waitMs = Math.min(waitMs * 2, DEVICE_HTTP_RESTART_MAX_MS);
  };
  const watch = (thread: TSpawnedThread) => {
    void thread.exited.then((code) => {
      if (stopping || thread !== current) return;
      up = false;
      if (Date.now() - thread.startedAt >= DEVICE_HTTP_STABLE_MS) waitMs = DEVICE_HTTP_RESTART_FIRST_MS;
      log.error({ code, retryInMs: waitMs }, 'device HTTP: the thread exited; DEVICE_HTTP_PORT is closed until it starts again');
      schedule();
    });
  };
  watch(current);

  return {
    port: boundPort,
    isUp: () => up,
    restarts: () => restarts,
    stopAccepting() {
      stopping = true;
      clearTimeout(restartTimer);
      current.worker.postMessage({ kind: 'stop-accepting' } satisfies TToDeviceHttpThread);
    },
    eventLoopUtilization: () => current.worker.performance.eventLoopUtilization(),
    async terminateThread() {
      await current.worker.terminate();
    },
    metricsText: (withinMs) => (up && data.observeHttp ? current.metricsText(withinMs) : Promise.resolve(null)),
    async startCpuProfile() {
      const handle = await current.worker.startCpuProfile();
      return { stop: async () => String(await handle.stop()) };
    },
    async close(withinMs) {
      stopping = true;
      up = false;
      clearTimeout(restartTimer);
      current.worker.postMessage({ kind: 'stop-accepting' } satisfies TToDeviceHttpThread);
      await settlesWithin(current.closed, withinMs);
      await current.worker.terminate();
    },
  };
}
