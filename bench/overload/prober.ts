/**
 * bench/overload, the health prober (a child process, so the server's event loop does not delay its clock):
 * GET /healthz every PROBE_EVERY_MS, one at a time, each answer's latency recorded with its wall-clock time, until
 * run.ts sends 'stop'; then it reports every sample over IPC.
 */
import { request } from 'node:http';

/** One probe: wall-clock start (epoch ms), latency (ms), HTTP status (0 when it failed). */
export interface TProbe {
  at: number;
  ms: number;
  status: number;
}

const PROBE_EVERY_MS = 100;
const PROBE_TIMEOUT_MS = 30_000;

function probe(url: string): Promise<TProbe> {
  const at = Date.now();
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { timeout: PROBE_TIMEOUT_MS }, (res) => {
      res.resume();
      res.on('end', () => resolve({ at, ms: performance.now() - t0, status: res.statusCode ?? 0 }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ at, ms: performance.now() - t0, status: 0 }));
    req.end();
  });
}

process.once('message', async (url: string) => {
  const samples: TProbe[] = [];
  let running = true;
  process.once('message', () => {
    running = false;
  });
  while (running) {
    const p = await probe(url);
    samples.push(p);
    await new Promise((r) => setTimeout(r, Math.max(0, PROBE_EVERY_MS - p.ms)));
  }
  process.send?.(samples, () => process.disconnect());
});
