/**
 * bench/qr-login, the stream holder (a child process, so its CPU is not the server's): opens `streams` QR-login event
 * streams (`GET login/session`, real HTTP) spread over loopback source addresses, `perAddress` each (127.0.0.0/8 is
 * all loopback on Linux, and the server counts and rate-limits each address on its own), waits for each one's
 * `session` event, then tries one more stream from the first address (over its cap) and reports over IPC. It holds
 * the streams until told `close`.
 */
import { type ClientRequest, request } from 'node:http';

/** The order this process receives from run.ts. */
export interface TStreamsOrder {
  /** http://127.0.0.1:<port> of the server. */
  baseUrl: string;
  streams: number;
  perAddress: number;
}

/** What it reports once every stream is open or refused. */
export interface TStreamsReport {
  type: 'opened';
  opened: number;
  addresses: number;
  /** Count of refusals by `status code` (e.g. `429 RATE_LIMITED`). */
  refused: Record<string, number>;
  openMs: number;
  /** The answer to one stream more from an address at its cap. */
  overCap: string;
}

const PATH = '/authorization/v1/login/session?platform=aiot';
/** Streams being opened at once. */
const CONCURRENCY = 50;

/** The i-th loopback address after 127.0.1.0 (127.0.1.1, …, 127.0.1.250, 127.0.2.1, …). */
export function loopbackAddress(i: number): string {
  return `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`;
}

/** Opens one stream from `from`; resolves when its first event arrived (held open) or with the refusal. */
function open(baseUrl: string, from: string, held: ClientRequest[]): Promise<string | null> {
  return new Promise((resolve) => {
    const req = request(new URL(PATH, baseUrl), { localAddress: from, headers: { 'user-agent': 'bench/qr-login' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (res.statusCode === 200 && text.includes('event: session')) {
          held.push(req);
          resolve(null);
        }
      });
      res.on('end', () => {
        if (res.statusCode === 200) return resolve('200 ended');
        let code = '';
        try {
          code = (JSON.parse(text) as { code?: string }).code ?? '';
        } catch {
          code = text.slice(0, 40);
        }
        resolve(`${res.statusCode} ${code}`);
      });
    });
    req.on('error', (err) => resolve(`error ${err.message}`));
    req.end();
  });
}

async function run(order: TStreamsOrder): Promise<{ report: TStreamsReport; held: ClientRequest[] }> {
  const held: ClientRequest[] = [];
  const refused: Record<string, number> = {};
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < order.streams) {
      const i = next++;
      const outcome = await open(order.baseUrl, loopbackAddress(Math.floor(i / order.perAddress)), held);
      if (outcome) refused[outcome] = (refused[outcome] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const openMs = performance.now() - started;
  const overCap = (await open(order.baseUrl, loopbackAddress(0), held)) ?? '200 (not capped)';
  const addresses = Math.ceil(order.streams / order.perAddress);
  return { report: { type: 'opened', opened: held.length, addresses, refused, openMs, overCap }, held };
}

process.once('message', (order: TStreamsOrder) => {
  run(order).then(
    ({ report, held }) => {
      process.on('message', (m: unknown) => {
        if (m !== 'close') return;
        for (const req of held) req.destroy();
        process.disconnect();
      });
      process.send?.(report);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
});
