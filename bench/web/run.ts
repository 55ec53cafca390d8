/**
 * bench/web: what the console costs a browser on a phone's connection. Chromium (Debian's, via playwright-core) opens
 * the login page and a cold dashboard (empty HTTP cache, logged in, a page of five widgets: latest value, gauge, line
 * chart, alerts, devices table) against the real server serving the built console (apps/web/dist, PGlite). For each
 * page: bytes on the wire (every response's encoded body and headers, from the DevTools protocol) and the time until
 * the page is usable (login form shown; every widget drawn, the line chart's canvas included) under an emulated fast
 * 4G link (DevTools' preset: 9 Mbit/s down, 1.5 Mbit/s up, 60 ms latency).
 *
 * Baseline, in the same run: the same pages with the browser asking for `accept-encoding: identity`, i.e. what the
 * console cost while the server sent it uncompressed. Targets (issue "console on a phone"): login ≤ 250 KB and cold
 * dashboard ≤ 500 KB on the wire.
 *
 *   npm run build -w @tessera/web && npm run bench:web -w @tessera/bench
 *   env: BENCH_RUNS (3 loads of each page per figure; the median is printed), BENCH_VERBOSE=1 (every response's
 *   bytes, to see which chunks a page loads), CHROMIUM_PATH (/usr/bin/chromium), BENCH_WEB_DIST (another build of
 *   the console to serve, e.g. a copy of an earlier build to compare with; apps/web/dist by default)
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startTestServer } from '@tessera/server/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { buildBenchDashboard } from './dashboard-fixture';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const VERBOSE = process.env.BENCH_VERBOSE === '1';
const WEB_DIST = process.env.BENCH_WEB_DIST ?? fileURLToPath(new URL('../../apps/web/dist', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** DevTools' "Fast 4G" preset, in the units of Network.emulateNetworkConditions (bytes per second, ms). */
const FAST_4G = { offline: false, latency: 60, downloadThroughput: (9_000 * 1000) / 8, uploadThroughput: (1_500 * 1000) / 8 };
const LIMIT_KB = { login: 250, dashboard: 500 } as const;
/**
 * What the browser asks for. Chromium offers br (and zstd) only over HTTPS, as a phone reaches a deployed console;
 * the bench server is plain HTTP on loopback, so the header is set to what Chromium sends over HTTPS.
 */
const ACCEPT_ENCODING = { compressed: 'gzip, deflate, br, zstd', identity: 'identity' } as const;

type TPageName = keyof typeof LIMIT_KB;
type TEncoding = 'compressed' | 'identity';
interface TLoad {
  bytes: number;
  ms: number;
  requests: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kb = (bytes: number) => (bytes / 1000).toFixed(0).padStart(6);

/**
 * Loads `url` in `page` and resolves with the bytes received (encoded, headers included) and the milliseconds until
 * `ready` resolved, on the emulated 4G link.
 */
async function measure(page: Page, url: string, ready: (page: Page) => Promise<unknown>): Promise<TLoad> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', FAST_4G);
  let bytes = 0;
  let requests = 0;
  const urls = new Map<string, string>();
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
  cdp.on('Network.loadingFinished', (e) => {
    bytes += e.encodedDataLength;
    requests += 1;
    if (VERBOSE) console.log(`  ${kb(e.encodedDataLength)} KB  ${urls.get(e.requestId)}`);
  });
  const t0 = performance.now();
  await page.goto(url);
  await ready(page);
  const ms = performance.now() - t0;
  // Requests the page started before it was usable and finish just after still count towards its bytes.
  await page.waitForLoadState('networkidle');
  await cdp.detach();
  return { bytes, ms, requests };
}

async function openContext(browser: Browser, baseURL: string, encoding: TEncoding, storageState?: string) {
  const context = await browser.newContext({
    baseURL,
    locale: 'zh-TW',
    viewport: { width: 390, height: 844 },
    ...(storageState ? { storageState: JSON.parse(storageState) } : {}),
    extraHTTPHeaders: { 'accept-encoding': ACCEPT_ENCODING[encoding] },
  });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  return { context, page };
}

const loginReady = (page: Page) => page.getByTestId('login-submit').waitFor();
/** Every widget of `ids` shown, and the line chart drawn on its canvas. */
const dashboardReady = (ids: number[]) => async (page: Page) => {
  for (const id of ids) await page.getByTestId(`widget-${id}`).waitFor();
  await page.locator('[data-testid^="widget-"] canvas').first().waitFor();
};

async function main(): Promise<void> {
  if (!existsSync(`${WEB_DIST}/index.html`)) throw new Error(`build the console first: npm run build -w @tessera/web (${WEB_DIST})`);
  const server = await startTestServer({ webDist: WEB_DIST });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const { widgetIds, session } = await buildBenchDashboard(server, browser);

    const results = new Map<string, TLoad[]>();
    for (let run = 0; run < RUNS; run += 1) {
      for (const encoding of ['identity', 'compressed'] as const) {
        for (const name of ['login', 'dashboard'] as const) {
          const { context, page } = await openContext(browser, server.httpUrl, encoding, name === 'dashboard' ? session : undefined);
          const load = await measure(page, name === 'login' ? '/login' : '/', name === 'login' ? loginReady : dashboardReady(widgetIds));
          await context.close();
          const key = `${name} ${encoding}`;
          results.set(key, [...(results.get(key) ?? []), load]);
        }
      }
    }

    console.log(`web bench: median of ${RUNS} cold loads each, Chromium at 390×844 on emulated fast 4G (9 Mbit/s, 60 ms)`);
    console.log('page       served as              KB on wire  requests  ms until usable   target');
    for (const name of ['login', 'dashboard'] as TPageName[]) {
      for (const encoding of ['identity', 'compressed'] as const) {
        const loads = results.get(`${name} ${encoding}`) ?? [];
        const bytes = median(loads.map((l) => l.bytes));
        const label = encoding === 'identity' ? 'uncompressed (baseline)' : 'br/gzip (this build)';
        const verdict =
          encoding === 'compressed' ? (bytes <= LIMIT_KB[name] * 1000 ? `≤ ${LIMIT_KB[name]} KB ok` : `> ${LIMIT_KB[name]} KB MISSED`) : '';
        console.log(
          `${name.padEnd(10)} ${label.padEnd(23)} ${kb(bytes)}      ${String(median(loads.map((l) => l.requests))).padStart(4)}  ${median(
            loads.map((l) => l.ms),
          )
            .toFixed(0)
            .padStart(9)}        ${verdict}`,
        );
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
