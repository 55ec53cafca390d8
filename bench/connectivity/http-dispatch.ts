/**
 * The load's cheapest HTTP POST: undici's keep-alive Pool at its lowest level (`dispatch()` with a handler — no
 * response object or body stream, the answer's bytes dropped as they come). Used by the connectivity load (load.ts)
 * and the HTTP floor (http-floor.ts) alike, so both put the same requests on the wire at the same client cost.
 */
import type { Pool } from 'undici';

/**
 * POSTs `body` (JSON) to `path` through `pool` with `headers` added.
 * @returns resolves on a 200 answer's end; rejects with `HTTP {status}` for any other status, or the connection's error.
 */
export function postDispatch(pool: Pool, path: string, body: string, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    let status = 0;
    pool.dispatch(
      { path, method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } },
      {
        onRequestStart: () => undefined,
        onResponseStart: (_controller, statusCode) => {
          status = statusCode;
        },
        onResponseData: () => undefined,
        onResponseEnd: () => (status === 200 ? resolve() : reject(new Error(`HTTP ${status}`))),
        onResponseError: (_controller, err) => reject(err),
      },
    );
  });
}
