/** Polling for integration tests: wait for something the server does in the background (a worker, a broker). */

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
