/**
 * THE HTTP client of the console (spec §7 bearer token, §8 error policy, §9 timeout and retries). Every feature
 * calls it through TanStack Query hooks; no component calls fetch.
 *
 * Policy, per response:
 * - UAE0004 / AUTHZ-E001 while logged in → refresh the token once (one refresh shared by concurrent requests),
 *   retry at once, then retry again every RETRY_DELAY_MS, at most MAX_RETRIES retries in all;
 * - UAE0007, a failed refresh, or 401 → clear the session and emit `logout` (the shell goes to /login?msg=token_out);
 * - 403 to a write (POST, PUT, DELETE: something the person did) and 5xx → emit `error-dialog` (status text +
 *   confirm button); a 403 to a read is the page's to show (`components/PageState`), not a dialog the person did not
 *   cause (docs/decisions/console.md "Pages a role may not open");
 * - network failure → emit `offline` (a connection note);
 * - anything else (and everything above) is logged and thrown as an {@link HttpError}.
 */
import { ErrorCode, MAX_RETRIES, paths, REQUEST_TIMEOUT_MS, RETRY_DELAY_MS, type TErrorBody } from '@tessera/contracts';
import { emitHttpEvent } from './httpEvents';
import { clearSession, getLanguage, getSession, saveTokens } from './session';
import { saveBlob } from './saveFile';

/**
 * A failed call: HTTP `status` (0 when no response: `OFFLINE`, `TIMEOUT`), the server's `code` and message, and its
 * `details` when it named fields or lines (`[{ path, message }]`).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly statusText = '',
    readonly details: TErrorBody['details'] = undefined,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** Query string values; `undefined` ones are left out. */
export type TQuery = Record<string, string | number | boolean | undefined>;

/** Per-call options. `quiet`: the caller shows the error itself (auth forms) — no dialog, no logout on a plain 401. */
export interface TCallOptions {
  quiet?: boolean;
}

/**
 * Options of an upload ({@link THttp.upload}): `onProgress` hears the bytes sent of the request body (the multipart
 * body, a little more than the file); `signal` cancels (the call fails with code `CANCELLED`).
 */
export interface TUploadOptions extends TCallOptions {
  onProgress?: (sentBytes: number, totalBytes: number) => void;
  signal?: AbortSignal;
}

/** Client settings; the defaults are the spec's, tests shorten the timings and point at a local server. */
export interface THttpSettings {
  baseUrl?: string;
  timeoutMs?: number;
  retryDelayMs?: number;
  maxRetries?: number;
}

interface TRaw {
  ok: boolean;
  status: number;
  statusText: string;
  headers: Headers;
  data: unknown;
}

const RETRY_CODES: readonly string[] = [ErrorCode.TokenExpired, ErrorCode.AuthzExpired];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function toQueryString(query?: TQuery): string {
  if (!query) return '';
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * The HttpError of an error answer. Its body is checked with ZErrorBody, loaded with the first error (lib/errorBody)
 * so that drawing the login page needs no zod; should that chunk not load (a tab older than a deploy), the body's
 * `code` and `message` are read as they are, so a 401 still refreshes or logs out.
 */
async function toError(raw: TRaw): Promise<HttpError> {
  const schema = await import('./errorBody').then(
    (m) => m.ZErrorBody,
    () => null,
  );
  const body = schema?.safeParse(raw.data);
  if (body?.success) return new HttpError(raw.status, body.data.code, body.data.message, raw.statusText, body.data.details);
  const loose = !schema && typeof raw.data === 'object' && raw.data !== null ? (raw.data as Record<string, unknown>) : null;
  if (typeof loose?.code === 'string' && typeof loose.message === 'string')
    return new HttpError(raw.status, loose.code, loose.message, raw.statusText);
  return new HttpError(raw.status, `HTTP_${raw.status}`, raw.statusText || `HTTP ${raw.status}`, raw.statusText);
}

/** Builds a client; {@link http} is the console's instance with the spec's settings. */
export function createHttp(settings: THttpSettings = {}) {
  const baseUrl = settings.baseUrl ?? '';
  const timeoutMs = settings.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const retryDelayMs = settings.retryDelayMs ?? RETRY_DELAY_MS;
  const maxRetries = settings.maxRetries ?? MAX_RETRIES;
  let refreshing: Promise<boolean> | null = null;

  /**
   * An upload's round trip through XMLHttpRequest, the one browser API that reports how much of a request body went
   * out (fetch does not). The timeout counts from the last progress, so a large file on a slow link is not cut off
   * while it moves.
   */
  function sendWithProgress(
    method: string,
    url: string,
    body: FormData,
    headers: Record<string, string>,
    opts: TUploadOptions,
  ): Promise<TRaw> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      let stopped: 'timeout' | 'cancelled' | null = null;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          stopped = 'timeout';
          xhr.abort();
        }, timeoutMs);
      };
      const cancel = () => {
        stopped = 'cancelled';
        xhr.abort();
      };
      const done = () => {
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', cancel);
      };
      xhr.open(method, `${baseUrl}${url}`);
      for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (e) => {
        arm();
        opts.onProgress?.(e.loaded, e.lengthComputable ? e.total : 0);
      };
      xhr.onprogress = arm;
      xhr.onload = () => {
        done();
        const text = xhr.responseText;
        const type = xhr.getResponseHeader('content-type') ?? '';
        const data = xhr.status !== 204 && type.includes('json') && text ? JSON.parse(text) : text || undefined;
        const responseHeaders = new Headers();
        for (const line of xhr.getAllResponseHeaders().trim().split(/\r?\n/)) {
          const at = line.indexOf(':');
          if (at > 0) responseHeaders.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
        }
        resolve({
          ok: xhr.status >= 200 && xhr.status < 300,
          status: xhr.status,
          statusText: xhr.statusText,
          headers: responseHeaders,
          data,
        });
      };
      xhr.onerror = () => {
        done();
        emitHttpEvent({ type: 'offline' });
        reject(new HttpError(0, 'OFFLINE', `connection problem: ${method} ${url}`));
      };
      xhr.onabort = () => {
        done();
        if (stopped === 'timeout') reject(new HttpError(0, 'TIMEOUT', `no progress within ${timeoutMs} ms: ${method} ${url}`));
        else reject(new HttpError(0, 'CANCELLED', `cancelled: ${method} ${url}`));
      };
      if (opts.signal?.aborted) return cancel();
      opts.signal?.addEventListener('abort', cancel, { once: true });
      arm();
      xhr.send(body);
    });
  }

  /** One round trip, body read included, under the timeout; an upload with progress goes through {@link sendWithProgress}. */
  async function send(
    method: string,
    url: string,
    body: unknown,
    token: string | null,
    asBlob = false,
    upload?: TUploadOptions,
  ): Promise<TRaw> {
    if (upload) {
      const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': getLanguage() };
      if (token) headers.Authorization = `Bearer ${token}`;
      return sendWithProgress(method, url, body as FormData, headers, upload);
    }
    const ctrl = new AbortController();
    const timer = setTimeout(() => ctrl.abort(), timeoutMs);
    const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': getLanguage() };
    if (token) headers.Authorization = `Bearer ${token}`;
    // A FormData body (file uploads) sets its own multipart boundary; everything else is JSON.
    const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
    if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
    try {
      const res = await fetch(`${baseUrl}${url}`, {
        method,
        headers,
        body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
        signal: ctrl.signal,
      });
      let data: unknown;
      if (res.ok && asBlob) data = await res.blob();
      else if (res.status !== 204) {
        const text = await res.text();
        data = (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text || undefined;
      }
      return { ok: res.ok, status: res.status, statusText: res.statusText, headers: res.headers, data };
    } catch (e) {
      if (ctrl.signal.aborted) throw new HttpError(0, 'TIMEOUT', `no answer within ${timeoutMs} ms: ${method} ${url}`);
      emitHttpEvent({ type: 'offline' });
      throw new HttpError(0, 'OFFLINE', `connection problem: ${method} ${url}: ${(e as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Single-flight refresh; true when new tokens are stored. A request sent with an older token just retries. */
  function refresh(usedToken: string | null): Promise<boolean> {
    if (getSession().token !== usedToken && getSession().token) return Promise.resolve(true);
    refreshing ??= (async () => {
      const refreshToken = getSession().refreshToken;
      if (!refreshToken) return false;
      try {
        const raw = await send('POST', paths.refreshToken, { refresh_token: refreshToken, platform: 'aiot' }, null);
        const data = raw.data as { token?: unknown; refresh_token?: unknown } | undefined;
        if (!raw.ok || typeof data?.token !== 'string' || typeof data.refresh_token !== 'string') return false;
        saveTokens(data.token, data.refresh_token);
        return true;
      } catch {
        return false;
      }
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  function logout(): void {
    clearSession();
    emitHttpEvent({ type: 'logout' });
  }

  /** Applies the §8 reaction to a final failure of a `method` call, logs it, and returns it for throwing. */
  function fail(err: HttpError, hadToken: boolean, opts: TCallOptions, method: string): HttpError {
    const sessionDead = err.code === ErrorCode.RefreshInvalid || RETRY_CODES.includes(err.code);
    if (hadToken && err.status === 401 && (!opts.quiet || sessionDead)) logout();
    else if (hadToken && err.code === ErrorCode.RefreshInvalid) logout();
    else if (!opts.quiet && ((err.status === 403 && method !== 'GET') || err.status >= 500)) {
      emitHttpEvent({ type: 'error-dialog', status: err.status, statusText: err.statusText, message: err.message });
    }
    console.warn(`[http] ${err.status} ${err.code}: ${err.message}`);
    return err;
  }

  async function request(
    method: string,
    path: string,
    body: unknown,
    opts: TCallOptions,
    asBlob = false,
    upload?: TUploadOptions,
  ): Promise<TRaw> {
    const hadToken = Boolean(getSession().token);
    let refreshed = false;
    let retries = 0;
    for (;;) {
      const token = getSession().token;
      const raw = await send(method, path, body, token, asBlob, upload).catch((e: HttpError) => {
        throw fail(e, hadToken, opts, method);
      });
      if (raw.ok) return raw;
      const err = await toError(raw);
      if (hadToken && RETRY_CODES.includes(err.code)) {
        if (!refreshed) {
          refreshed = true;
          if (await refresh(token)) continue;
          logout();
          throw err;
        }
        if (retries < maxRetries - 1) {
          retries++;
          await sleep(retryDelayMs);
          continue;
        }
      }
      throw fail(err, hadToken, opts, method);
    }
  }

  return {
    /** GET `path?query` → parsed JSON. */
    get: async <T>(path: string, query?: TQuery, opts: TCallOptions = {}): Promise<T> =>
      (await request('GET', path + toQueryString(query), undefined, opts)).data as T,
    /** POST a JSON body, or a FormData (multipart upload) → parsed JSON (undefined for 204). */
    post: async <T>(path: string, body?: unknown, opts: TCallOptions = {}): Promise<T> =>
      (await request('POST', path, body, opts)).data as T,
    /**
     * POST a FormData (a file upload) reporting its progress (`opts.onProgress`), cancellable (`opts.signal`) →
     * parsed JSON. The same policy as every call (refresh and retry, dialogs, logout); a cancel fails with `CANCELLED`.
     */
    upload: async <T>(path: string, body: FormData, opts: TUploadOptions = {}): Promise<T> =>
      (await request('POST', path, body, opts, false, opts)).data as T,
    /** PUT a JSON body → parsed JSON (undefined for 204). */
    put: async <T>(path: string, body?: unknown, opts: TCallOptions = {}): Promise<T> => (await request('PUT', path, body, opts)).data as T,
    /** DELETE → parsed JSON (undefined for 204). */
    del: async <T>(path: string, opts: TCallOptions = {}): Promise<T> => (await request('DELETE', path, undefined, opts)).data as T,
    /** GET a file (CSV) with the bearer token and save it under the server's file name; returns the file. */
    download: async (path: string, query?: TQuery): Promise<Blob> => {
      const raw = await request('GET', path + toQueryString(query), undefined, {}, true);
      const blob = raw.data as Blob;
      const name = /filename="?([^";]+)"?/.exec(raw.headers.get('content-disposition') ?? '')?.[1] ?? 'download';
      if (typeof document !== 'undefined') saveBlob(name, blob);
      return blob;
    },
  };
}

/** The client's type, for code that receives one. */
export type THttp = ReturnType<typeof createHttp>;

/** The console's client: relative paths, spec timings. */
export const http: THttp = createHttp();
