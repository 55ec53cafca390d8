/**
 * QR-login test fixtures: the real event stream over HTTP from a chosen loopback source address (127.0.0.0/8 is all
 * loopback on Linux; the server's per-address rate limit and stream cap see each as its own client), and a count of
 * the queries that touch the QR sessions table, observed on the database driver the server uses.
 */
import { request } from 'node:http';
import { qrLoginPaths } from '@tessera/contracts';
import { vi } from 'vitest';
import type { Database } from '../../db/client.js';

/** One Server-Sent Event: its `event:` name and its `data:` parsed as JSON. */
export type TSseEvent = { event: string; data: unknown };

/** An open stream (status 200), or a refused one (`body` is the parsed error body). */
export interface TQrStream {
  status: number;
  type: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body of a refusal (status ≠ 200); null for a stream. */
  body: { code: string; message: string } | null;
  /** The next event (WHATWG SSE: blank-line separated blocks; comment lines skipped), or null once the stream ended. */
  next(): Promise<TSseEvent | null>;
  close(): void;
}

/** Opens `GET login/session` on `baseUrl` from source address `from` (default 127.0.0.1). */
export function openQrStream(baseUrl: string, opts: { from?: string; userAgent?: string } = {}): Promise<TQrStream> {
  const url = new URL(qrLoginPaths.session, baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress: opts.from, headers: { 'user-agent': opts.userAgent ?? 'QR test screen' } }, (res) => {
      res.setEncoding('utf8');
      const chunks = res[Symbol.asyncIterator]() as AsyncIterator<string>;
      let buffer = '';
      const next = async (): Promise<TSseEvent | null> => {
        for (;;) {
          const end = buffer.indexOf('\n\n');
          if (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const lines = block.split('\n').filter((l) => !l.startsWith(':'));
            if (lines.length === 0) continue;
            const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
            const data = lines.find((l) => l.startsWith('data: '))?.slice(6) ?? 'null';
            return { event, data: JSON.parse(data) };
          }
          const chunk = await chunks.next().catch(() => ({ done: true, value: '' }));
          if (chunk.done) return null;
          buffer += chunk.value;
        }
      };
      const base = { status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), headers: res.headers };
      const close = () => req.destroy();
      if (res.statusCode === 200) return resolve({ ...base, body: null, next, close });
      let text = '';
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => resolve({ ...base, body: JSON.parse(text), next: async () => null, close }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The SQL text of a driver call's first argument (a string, or pg's `{ text }` query config). */
function sqlOf(arg: unknown): string {
  if (typeof arg === 'string') return arg;
  return typeof (arg as { text?: unknown })?.text === 'string' ? (arg as { text: string }).text : '';
}

/**
 * Starts counting the queries on `qr_login_sessions` that `database`'s driver runs outside transactions (PGlite's
 * `query`, the pg pool's `query`: the paths every stream check takes); `stop()` answers the count and stops counting.
 */
export function countQrQueries(database: Database): { stop(): number } {
  const driver = (database.kind === 'pglite' ? database.pglite : database.pool) as unknown as { query: (...args: unknown[]) => unknown };
  const spy = vi.spyOn(driver, 'query');
  return {
    stop() {
      const n = spy.mock.calls.filter(([q]) => sqlOf(q).includes('qr_login_sessions')).length;
      spy.mockRestore();
      return n;
    },
  };
}
