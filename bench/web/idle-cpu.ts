/**
 * bench/web idle-cpu: what an open dashboard costs the viewer's computer while it only watches. Chromium (Debian's,
 * via playwright-core) opens the five-widget dashboard of dashboard-fixture.ts at 1440×900 against the real server over
 * the built console (PGlite); the three devices then publish every key (temperature, humidity, vibration, current)
 * once a second each over MQTT (mqtt.js), which the console receives on its live channel. After a warm-up, the page's
 * main-thread busy time over the window (DevTools' `Performance.getMetrics`: TaskDuration, with its script, layout and
 * style parts) is printed as a share of one core, with the live messages the page received (its WebSocket frames).
 *
 * Baseline in the same run: `BENCH_WEB_BASELINE_DIST` (a copy of an earlier build, e.g. `cp -r apps/web/dist
 * /tmp/console-base` before a change) is served by a second server and measured the same way, alternately.
 *
 * `BENCH_IDLE_DASHBOARD=gauges` opens twelve gauges instead (one per device and key, each redrawn by every message of
 * its key), to measure what a gauge costs per live message; the script time per live frame is printed too.
 *
 *   npm run build -w @tessera/web && npm run bench:web-idle -w @tessera/bench
 *   env: BENCH_WINDOW_S (30), BENCH_WARMUP_S (5), BENCH_RUNS (1 window per build), BENCH_WEB_DIST (apps/web/dist),
 *   BENCH_WEB_BASELINE_DIST (none), BENCH_IDLE_DASHBOARD (five | gauges; five), BENCH_VERBOSE=1 (the page's console
 *   messages), CHROMIUM_PATH (/usr/bin/chromium)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TTestServer } from '@tessera/server/testing';
import type { MqttClient } from 'mqtt';
import { type Browser, chromium } from 'playwright-core';
import { connectDevices } from '../support/devices';
import { cpuMsOfPid } from '../support/proc-cpu';
import { buildBenchDashboard, type TBenchDashboardKind } from './dashboard-fixture';

const WINDOW_S = Number(process.env.BENCH_WINDOW_S ?? 30);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const VERBOSE = process.env.BENCH_VERBOSE === '1';
const WEB_DIST = process.env.BENCH_WEB_DIST ?? fileURLToPath(new URL('../../apps/web/dist', import.meta.url));
const BASELINE_DIST = process.env.BENCH_WEB_BASELINE_DIST;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DASHBOARD: TBenchDashboardKind = process.env.BENCH_IDLE_DASHBOARD === 'gauges' ? 'gauges' : 'five';
const KEYS = [
  { key: 'temperature', values: 1 },
  { key: 'humidity', values: 1 },
  { key: 'vibration', values: 3 },
  { key: 'current', values: 1 },
] as const;

/** Main-thread busy seconds over one window, by kind, the browser's CPU seconds (all its processes), and the live frames received. */
interface TIdle {
  browserCpuS: number;
  taskS: number;
  scriptS: number;
  layoutS: number;
  styleS: number;
  frames: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Pids of every process below `root` (its children, theirs, …), from /proc's parent pids. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const c of children.get(pid) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(root);
  return out;
}

/** CPU used so far by the browser this bench started (every process under this one), ms. */
const browserCpuMs = () => descendants(process.pid).reduce((ms, pid) => ms + cpuMsOfPid(pid), 0);

/** Every device publishes every key once a second (QoS 0), with slowly wandering values, until stopped. */
function publishEverySecond(clients: MqttClient[], devices: { tangramId: string }[]): () => void {
  let tick = 0;
  const timer = setInterval(() => {
    tick += 1;
    devices.forEach((d, i) => {
      const ts = Date.now();
      const points = KEYS.map((k) => ({
        key: k.key,
        ts,
        vs: Array.from({ length: k.values }, (_, j) => 20 + i + j + Math.sin(tick / 7) * 5),
      }));
      for (const p of points) clients[i].publish(`devices/${d.tangramId}/telemetry`, JSON.stringify(p));
    });
  }, 1_000);
  return () => clearInterval(timer);
}

/** Opens the dashboard served by `server`, lets the devices publish, and measures one window. */
async function measureIdle(browser: Browser, server: TTestServer): Promise<TIdle> {
  const { widgetIds, session, devices } = await buildBenchDashboard(server, browser, DASHBOARD);
  const context = await browser.newContext({
    baseURL: server.httpUrl,
    locale: 'zh-TW',
    viewport: { width: 1440, height: 900 },
    storageState: JSON.parse(session),
  });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  if (VERBOSE) page.on('console', (m) => console.log(`  [page ${m.type()}] ${m.text()}`));
  let frames = 0;
  page.on('websocket', (ws) => ws.on('framereceived', () => (frames += 1)));
  await page.goto('/');
  for (const id of widgetIds) await page.getByTestId(`widget-${id}`).waitFor();
  // The devices publish before the first chart is awaited: a gauge draws nothing until its key has a value.
  const clients = await connectDevices(server.mqttPort as number, devices);
  const stop = publishEverySecond(clients, devices);
  try {
    await page.locator('[data-testid^="widget-"] canvas').first().waitFor();
    await sleep(WARMUP_S * 1000);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const read = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const m = new Map(metrics.map((x) => [x.name, x.value]));
      return {
        task: m.get('TaskDuration') ?? 0,
        script: m.get('ScriptDuration') ?? 0,
        layout: m.get('LayoutDuration') ?? 0,
        style: m.get('RecalcStyleDuration') ?? 0,
      };
    };
    const before = await read();
    const cpuBefore = browserCpuMs();
    const framesBefore = frames;
    await sleep(WINDOW_S * 1000);
    const after = await read();
    const browserCpuS = (browserCpuMs() - cpuBefore) / 1000;
    const shown = DASHBOARD === 'gauges' ? page.getByTestId('widget-gauge').first() : page.getByTestId('widget-latest-value');
    if (!(await shown.isVisible())) throw new Error('no widget shows a value: no live data arrived');
    return {
      browserCpuS,
      taskS: after.task - before.task,
      scriptS: after.script - before.script,
      layoutS: after.layout - before.layout,
      styleS: after.style - before.style,
      frames: frames - framesBefore,
    };
  } finally {
    stop();
    await Promise.all(clients.map((c) => c.endAsync()));
    await context.close();
  }
}

const pct = (s: number) => `${((s / WINDOW_S) * 100).toFixed(1).padStart(5)} %`;

async function main(): Promise<void> {
  const builds = [...(BASELINE_DIST ? [{ name: 'baseline', dist: BASELINE_DIST }] : []), { name: 'this build', dist: WEB_DIST }];
  for (const b of builds)
    if (!existsSync(`${b.dist}/index.html`)) throw new Error(`no console build at ${b.dist}: npm run build -w @tessera/web`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const servers = await Promise.all(builds.map((b) => startTestServer({ webDist: b.dist })));
  const results = builds.map(() => [] as TIdle[]);
  try {
    for (let run = 0; run < RUNS; run += 1) {
      for (const [i] of builds.entries()) results[i].push(await measureIdle(browser, servers[i]));
    }
  } finally {
    await browser.close();
    await Promise.all(servers.map((s) => s.stop()));
  }
  const what = DASHBOARD === 'gauges' ? `${3 * KEYS.length}-gauge` : 'five-widget';
  console.log(
    `web idle bench: an open ${what} dashboard at 1440×900, 3 devices × ${KEYS.length} keys publishing 1 msg/s each, ${WINDOW_S} s window after ${WARMUP_S} s`,
  );
  console.log('build        run  browser CPU (all processes)  main thread busy  script    layout    style   live frames  script ms/frame');
  builds.forEach((b, i) => {
    results[i].forEach((r, run) => {
      const perFrame = r.frames > 0 ? ((r.scriptS * 1000) / r.frames).toFixed(2) : '—';
      console.log(
        `${b.name.padEnd(12)} ${String(run + 1).padStart(3)}  ${pct(r.browserCpuS)}                      ${pct(r.taskS)}           ${pct(r.scriptS)}  ${pct(r.layoutS)}  ${pct(r.styleS)}  ${String(r.frames).padStart(6)}  ${perFrame.padStart(10)}`,
      );
    });
  });
}

await main();
