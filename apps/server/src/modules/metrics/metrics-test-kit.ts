/** Test helpers for the Prometheus text: scrape a server, read one sample, check the text with promtool. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

/** GETs `url` with `token` as bearer; answers status, content type and body. */
export async function scrape(url: string, token?: string): Promise<{ status: number; type: string; text: string }> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

/**
 * The value of the sample `name` whose labels include `labels` (exact `key="value"` pairs) in exposition `text`, or
 * undefined when none.
 */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    const set = m[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => set.includes(`${k}="${v}"`))) return Number(m[3]);
  }
  return undefined;
}

/** The metric names (`# TYPE` lines) of exposition `text`, with their histogram and summary series names. */
export function exposedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(m[1]);
    if (m[2] === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(m[1] + s);
    if (m[2] === 'summary') for (const s of ['_sum', '_count']) names.add(m[1] + s);
  }
  return names;
}

/** Where Debian's prometheus package puts promtool and prometheus; null when absent. */
export function prometheusTools(): { promtool: string; prometheus: string } | null {
  const promtool = '/usr/bin/promtool';
  const prometheus = '/usr/bin/prometheus';
  return existsSync(promtool) && existsSync(prometheus) ? { promtool, prometheus } : null;
}

/** Runs `promtool check metrics` on `text`; answers its exit code and output (lint problems). */
export function promtoolCheckMetrics(promtool: string, text: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(promtool, ['check', 'metrics'], (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
    child.stdin?.end(text);
  });
}
