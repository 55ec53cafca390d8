/**
 * The HTTP client of bench/views/dashboard.ts, run as a child process so that its CPU (fetch, sockets) is not the
 * server's: on 2 cores a client in the server's process measured itself as much as the server.
 *
 * Protocol over the IPC channel: the parent sends a {@link TPageLoadJob}; the child loads the page `warmup` times,
 * then `runs` times timed (every request of a page at once, until the last answered), and answers a
 * {@link TPageLoadResult}; it stays up for the next job until the parent disconnects.
 */

/** One request of a page: its URL and the type it is counted under (none: not counted by type). */
export interface TPageRequest {
  url: string;
  type?: string;
}

/** A figure to take: the page's requests, with a bearer token, `warmup` untimed loads then `runs` timed. */
export interface TPageLoadJob {
  requests: TPageRequest[];
  token: string;
  warmup: number;
  runs: number;
}

/** Each timed page load's duration (ms), and each request type's durations (ms) during those loads. */
export interface TPageLoadResult {
  times: number[];
  byType: Record<string, number[]>;
}

async function load(job: TPageLoadJob, byType: Record<string, number[]> | null): Promise<void> {
  const headers = { authorization: `Bearer ${job.token}` };
  await Promise.all(
    job.requests.map(async ({ url, type }) => {
      const start = performance.now();
      const res = await fetch(url, { headers });
      if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      if (!byType || !type) return;
      const times = byType[type] ?? [];
      times.push(performance.now() - start);
      byType[type] = times;
    }),
  );
}

async function measure(job: TPageLoadJob): Promise<TPageLoadResult> {
  for (let i = 0; i < job.warmup; i++) await load(job, null);
  const byType: Record<string, number[]> = {};
  const times: number[] = [];
  for (let i = 0; i < job.runs; i++) {
    const start = performance.now();
    await load(job, byType);
    times.push(performance.now() - start);
  }
  return { times, byType };
}

process.on('message', (job: TPageLoadJob) => {
  measure(job).then(
    (result) => process.send?.(result),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
});
process.on('disconnect', () => process.exit(0));
