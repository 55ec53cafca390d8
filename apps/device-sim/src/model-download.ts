/**
 * The HTTP side of a simulated device installing an AI model (docs/protocol.md "AI models"): the device's own
 * short-lived token, then the file streamed through SHA-256 — never held whole in memory — and resumed with `Range`
 * after a dropped connection, the hash carrying on from the bytes already received.
 */
import { createHash } from 'node:crypto';
import { ZDeviceToken } from '@tessera/contracts';

/** How many times a dropped download is resumed (`Range: bytes=<have>-`) before the device gives up. */
export const MODEL_DOWNLOAD_RESUMES = 3;
/** A request that receives nothing for this long is dropped as a network error, in milliseconds. */
export const MODEL_DOWNLOAD_IDLE_MS = 30_000;

/** A failed token request or download; `message` is the reason the device reports (`token refused: HTTP 401`). */
export class ModelDownloadError extends Error {
  override name = 'ModelDownloadError';
}

/** What a download received: its length in bytes and the hex SHA-256 of those bytes. */
export interface TDownloadedFile {
  bytes: number;
  sha256: string;
}

/** How a download runs. */
export interface TDownloadOptions {
  /** The bearer token from {@link requestDeviceToken}. */
  token: string;
  /** The expected hex SHA-256; sent as `If-Range: "<sha256>"` when resuming. */
  sha256: string;
  signal?: AbortSignal;
  /** Called after each chunk with the bytes received so far. */
  onBytes?: (bytes: number) => void;
  /** Flips the file's first byte before it is hashed, as corruption on the way would (fault injection). */
  corruptFirstByte?: boolean;
}

/**
 * POSTs `tokenUrl` with HTTP Basic `tangramId:secret` and returns the bearer token of the answer
 * (`{ token, expires_in_s }`).
 * @throws ModelDownloadError `token refused: HTTP <status>` for any answer but 200, `token refused: unreadable
 * answer`, or `network error: …`; the abort reason when `signal` aborts.
 */
export async function requestDeviceToken(tokenUrl: string, tangramId: string, secret: string, signal?: AbortSignal): Promise<string> {
  const basic = Buffer.from(`${tangramId}:${secret}`).toString('base64');
  try {
    return await withIdleTimeout(signal, async (requestSignal) => {
      const res = await fetch(tokenUrl, { method: 'POST', headers: { authorization: `Basic ${basic}` }, signal: requestSignal });
      if (res.status !== 200) {
        await res.body?.cancel();
        throw new ModelDownloadError(`token refused: HTTP ${res.status}`);
      }
      const token = ZDeviceToken.safeParse(await res.json().catch(() => null));
      if (!token.success) throw new ModelDownloadError('token refused: unreadable answer');
      return token.data.token;
    });
  } catch (err) {
    if (signal?.aborted || err instanceof ModelDownloadError) throw err;
    throw new ModelDownloadError(`network error: ${describeNetworkError(err)}`);
  }
}

/**
 * GETs `url` with the bearer token and hashes the body as it streams. A connection dropped mid-way is resumed up to
 * {@link MODEL_DOWNLOAD_RESUMES} times with `Range: bytes=<have>-` and `If-Range: "<sha256>"`: a 206 continues the
 * hash, a 200 (the file changed) starts it again.
 * @throws ModelDownloadError `download failed: HTTP <status>` for any answer but 200 (or 206 when resuming), or
 * `network error: …` once the resumes are spent; the abort reason when `signal` aborts.
 */
export async function downloadHashed(url: string, o: TDownloadOptions): Promise<TDownloadedFile> {
  let hash = createHash('sha256');
  let bytes = 0;
  for (let resumes = 0; ; resumes += 1) {
    try {
      await withIdleTimeout(o.signal, async (requestSignal, touch) => {
        const headers: Record<string, string> = { authorization: `Bearer ${o.token}` };
        if (bytes > 0) Object.assign(headers, { range: `bytes=${bytes}-`, 'if-range': `"${o.sha256}"` });
        const res = await fetch(url, { headers, signal: requestSignal });
        if (bytes > 0 && res.status === 200) {
          hash = createHash('sha256');
          bytes = 0;
        } else if (res.status !== 200 && !(bytes > 0 && res.status === 206 && rangeStart(res) === bytes)) {
          await res.body?.cancel();
          throw new ModelDownloadError(`download failed: HTTP ${res.status}`);
        }
        if (!res.body) return;
        const reader = res.body.getReader();
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
          touch();
          let data = chunk.value;
          if (o.corruptFirstByte && bytes === 0 && data.length > 0) {
            data = Uint8Array.from(data);
            data[0] ^= 0xff;
          }
          hash.update(data);
          bytes += data.length;
          o.onBytes?.(bytes);
        }
      });
      return { bytes, sha256: hash.digest('hex') };
    } catch (err) {
      if (o.signal?.aborted || err instanceof ModelDownloadError) throw err;
      if (resumes >= MODEL_DOWNLOAD_RESUMES) throw new ModelDownloadError(`network error: ${describeNetworkError(err)}`);
    }
  }
}

/** The first byte of a 206's `Content-Range: bytes <first>-<last>/<size>`, or null. */
function rangeStart(res: Response): number | null {
  const match = /^bytes (\d+)-/.exec(res.headers.get('content-range') ?? '');
  return match ? Number(match[1]) : null;
}

/**
 * Runs one request with a signal that aborts with `signal` or after {@link MODEL_DOWNLOAD_IDLE_MS} without a
 * `touch()`, so that a server that stops sending cannot hold the device forever.
 */
async function withIdleTimeout<T>(
  signal: AbortSignal | undefined,
  run: (requestSignal: AbortSignal, touch: () => void) => Promise<T>,
): Promise<T> {
  const idle = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(new Error(`nothing received for ${MODEL_DOWNLOAD_IDLE_MS} ms`)), MODEL_DOWNLOAD_IDLE_MS);
  };
  touch();
  try {
    return await run(signal ? AbortSignal.any([signal, idle.signal]) : idle.signal, touch);
  } catch (err) {
    if (signal?.aborted || err instanceof ModelDownloadError) throw err;
    throw idle.signal.aborted ? idle.signal.reason : err;
  } finally {
    clearTimeout(timer);
  }
}

/** The useful part of a fetch failure: undici wraps the socket's error (`other side closed`) in `cause`. */
function describeNetworkError(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  return cause instanceof Error ? cause.message : String(cause);
}
