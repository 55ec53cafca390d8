/**
 * A CPU profile of this process over a window (V8's sampling profiler through node:inspector, as `node --cpu-prof`
 * records), summarised as self time by function and by where the code lives: a package under node_modules, Tessera's
 * own sources, Node's internals, or V8's pseudo-nodes (`(garbage collector)`, `(program)`, `(idle)`).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

/** The parts of a V8 `.cpuprofile` the summary reads. */
interface TProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A running profile; `stop` ends it and answers its summary. */
export interface TProfiling {
  stop(file?: string): Promise<TProfileSummary>;
}

/** Self time by function and by place, in ms, largest first. */
export interface TProfileSummary {
  totalMs: number;
  byPlace: [string, number][];
  byFunction: [string, number][];
}

/** Summarises the `.cpuprofile` JSON text `json` (another thread's profile, e.g. `worker.startCpuProfile()`'s), writing it to `file` too. */
export function summariseText(json: string, file?: string): TProfileSummary {
  if (file) writeFileSync(file, json);
  return summarise(JSON.parse(json) as TProfile);
}

/** Starts sampling every `intervalUs` µs. */
export async function startProfiling(intervalUs = 100): Promise<TProfiling> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = (await session.post('Profiler.stop')) as { profile: TProfile };
      session.disconnect();
      if (file) writeFileSync(file, JSON.stringify(profile));
      return summarise(profile);
    },
  };
}

/** Where a frame's code lives: `pkg:<name>`, `tessera:<path>`, `node:<module>`, or V8's pseudo-node name. */
function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return `pkg:${rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  if (url.startsWith('node:')) return url;
  const src = url.indexOf('/apps/');
  if (src >= 0) return `tessera:${url.slice(src + 1)}`;
  const pkg = url.indexOf('/packages/');
  if (pkg >= 0) return `tessera:${url.slice(pkg + 1)}`;
  return url.replace(/^file:\/\//, '');
}

/** Self time per place and per function (ms), from the samples and their time deltas. */
export function summarise(profile: TProfile): TProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const place = new Map<string, number>();
  const fn = new Map<string, number>();
  let totalUs = 0;
  for (let i = 0; i < profile.samples.length; i += 1) {
    const node = byId.get(profile.samples[i] as number);
    // A sample's time is the delta to the next one.
    const us = profile.timeDeltas[i + 1] ?? 0;
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') continue;
    totalUs += us;
    const p = placeOf(url, functionName);
    place.set(p, (place.get(p) ?? 0) + us);
    const name = `${functionName || '(anonymous)'} ${p}:${lineNumber + 1}`;
    fn.set(name, (fn.get(name) ?? 0) + us);
  }
  const sorted = (m: Map<string, number>): [string, number][] =>
    [...m.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, v / 1000] as [string, number]);
  return { totalMs: totalUs / 1000, byPlace: sorted(place), byFunction: sorted(fn) };
}

/** Prints the top `n` places and functions of `s`, each as ms and µs per request of `requests`. */
export function printSummary(title: string, s: TProfileSummary, requests: number, n = 25): void {
  const perReq = (ms: number) => ((ms * 1000) / Math.max(1, requests)).toFixed(1);
  console.log(`\n${title}: ${s.totalMs.toFixed(0)} ms sampled (not idle), ${perReq(s.totalMs)} µs/request over ${requests} requests`);
  console.log('  self time by place (µs/request):');
  for (const [k, v] of s.byPlace.slice(0, n)) console.log(`    ${perReq(v).padStart(8)}  ${k}`);
  console.log('  self time by function (µs/request):');
  for (const [k, v] of s.byFunction.slice(0, n)) console.log(`    ${perReq(v).padStart(8)}  ${k}`);
}
