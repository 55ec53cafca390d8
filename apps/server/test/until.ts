/** Polling for integration tests: wait for something the server does in the background (a worker, a broker). */
import { connect } from 'node:net';

/**
 * Calls `probe` every 50 ms until it answers something other than undefined, and answers that.
 * @throws Error after `timeoutMs` (default 10 s) without an answer.
 */
export async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What one TCP connection to 127.0.0.1:`port` meets: `accepted`, `refused` (ECONNREFUSED) or `failed` (another error). */
export function tcpProbe(port: number): Promise<'accepted' | 'refused' | 'failed'> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED' ? 'refused' : 'failed'));
  });
}
