/**
 * Web app load benchmark: builds apps/web, serves it with the real server, and loads /dashboard cold
 * (a fresh browser context: empty HTTP cache, a signed-in session in localStorage) 5 times in headless
 * Chromium, for an account with messages, so the charts are drawn. Prints the JS bytes transferred
 * (compressed, as on the wire), the number of JS files, and the median LCP.
 *
 *   npm run bench:web [-- runs]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { REPO_ROOT, WEB_DIST } from '../e2e/lib/paths';
import { startServer } from '../e2e/lib/server';

const RUNS = Number(process.argv[2] ?? 5);
/** Another build to serve and measure (e.g. an older commit's apps/web/dist, for a before/after). */
const DIST = process.env.BENCH_WEB_DIST ?? WEB_DIST;
const VIEWPORT = { width: 1366, height: 900 };

interface Sample {
  /** Brotli bytes on the wire (the browser asks for br, gzip). */
  jsBytes: number;
  /** The same files as gzip -9 (the precompressed .gz copies the server sends to a gzip-only client). */
  jsGzip: number;
  jsFiles: number;
  jsRaw: number;
  lcp: number;
  /** Where the time before LCP goes (ms from navigation start). */
  ttfb: number;
  fcp: number;
  /** The last JS file fetched before LCP finished arriving. */
  jsDone: number;
  /** The first API call started, and the last one before LCP ended. */
  apiStart: number;
  apiDone: number;
  lcpElement: string;
  files: (readonly [string, number])[];
  /** Every request of the load: start and end (ms), path. */
  timeline: (readonly [number, number, string])[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** The page's globals, untyped: the bench is type-checked without the DOM library. */
type Globals = any;

/** Calls the API from inside the page, as the app does: its access token and its XSRF cookie. */
async function apiFromPage(page: Page, path: string, body: unknown): Promise<{ status: number; json: any }> {
  return page.evaluate(
    async ({ path, body }) => {
      const g: Globals = globalThis;
      const xsrf = decodeURIComponent(/(?:^|; )XSRF-TOKEN=([^;]*)/.exec(g.document.cookie)?.[1] ?? '');
      const token = g.localStorage.getItem('accessToken');
      const res = await fetch(path, {
        method: 'POST',
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          'x-xsrf-token': xsrf,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : null };
    },
    { path, body },
  );
}

/** Registers a new account and keeps its session in the page's localStorage, as a sign-in does. */
async function signUp(page: Page): Promise<void> {
  await page.goto('/auth/login');
  const id = Math.random().toString(16).slice(2, 10);
  const user = { username: `bench_${id}`, password: 'correct horse 42' };
  const reg = await apiFromPage(page, '/api/auth/register', {
    ...user,
    name: 'Bench User',
    email: `bench.${id}@example.com`,
    phone: '+14155552671',
  });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.json)}`);
  const login = await apiFromPage(page, '/api/auth/login', user);
  if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
  await page.evaluate((session) => {
    const g: Globals = globalThis;
    g.localStorage.setItem('accessToken', session.accessToken);
    g.localStorage.setItem('refreshToken', session.refreshToken);
    g.localStorage.setItem('user', JSON.stringify(session.user));
  }, login.json);
}

/** gzip -9 bytes of these built files (their .gz copy, or compressed here when it has none). */
function gzipBytes(files: string[]): number {
  let total = 0;
  for (const file of files) {
    const full = path.join(DIST, file);
    total += existsSync(`${full}.gz`)
      ? statSync(`${full}.gz`).size
      : gzipSync(readFileSync(full), { level: 9 }).length;
  }
  return total;
}

const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)]!;
};

async function coldLoad(browser: Browser, baseURL: string, storageState: string): Promise<Sample> {
  const context = await browser.newContext({
    baseURL,
    viewport: VIEWPORT,
    storageState: JSON.parse(storageState),
  });
  const page = await context.newPage();
  await page.addInitScript(() => {
    const g: Globals = globalThis;
    g.__lcp = 0;
    g.__lcpElement = '';
    new g.PerformanceObserver((list: Globals) => {
      for (const entry of list.getEntries()) {
        g.__lcp = entry.startTime;
        const el = entry.element;
        g.__lcpElement = el
          ? `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ')[0]}` : ''} "${String(el.textContent ?? '').slice(0, 40)}"`
          : '(removed)';
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  await page.goto('/dashboard', { waitUntil: 'networkidle' });
  await page.waitForSelector('#boot-overlay', { state: 'detached' });
  await page.locator('[data-testid="performance"] svg rect').first().waitFor({ timeout: 20_000 });
  await page.waitForLoadState('networkidle');
  // LCP is final once the user interacts; read it after the page has settled.
  const sample = await page.evaluate(() => {
    const g: Globals = globalThis;
    type Entry = {
      name: string;
      startTime: number;
      responseEnd: number;
      encodedBodySize: number;
      decodedBodySize: number;
    };
    const resources: Entry[] = g.performance.getEntriesByType('resource');
    const js = resources.filter((e) => /\.m?js(\?|$)/.test(e.name));
    const lcp = g.__lcp as number;
    const api = resources.filter((e) => new URL(e.name).pathname.startsWith('/api/'));
    const nav = g.performance.getEntriesByType('navigation')[0];
    const fcp = g.performance.getEntriesByName('first-contentful-paint')[0];
    return {
      jsBytes: js.reduce((n, e) => n + e.encodedBodySize, 0),
      jsRaw: js.reduce((n, e) => n + e.decodedBodySize, 0),
      jsFiles: js.length,
      files: js.map((e) => [new URL(e.name).pathname, e.encodedBodySize] as const),
      timeline: resources.map((e) => [e.startTime, e.responseEnd, new URL(e.name).pathname] as const),
      lcp,
      lcpElement: g.__lcpElement as string,
      ttfb: nav ? nav.responseStart : 0,
      fcp: fcp ? fcp.startTime : 0,
      jsDone: Math.max(0, ...js.filter((e) => e.responseEnd <= lcp).map((e) => e.responseEnd)),
      apiStart: Math.min(...api.map((e) => e.startTime)),
      apiDone: Math.max(0, ...api.filter((e) => e.responseEnd <= lcp).map((e) => e.responseEnd)),
    };
  });
  await context.close();
  return { ...sample, jsGzip: gzipBytes(sample.files.map(([file]) => file)) };
}

async function main() {
  if (process.env.BENCH_WEB_DIST) console.log(`Serving ${DIST} (BENCH_WEB_DIST).`);
  else if (process.env.BENCH_NO_BUILD) console.log('Using the existing apps/web/dist (BENCH_NO_BUILD).');
  else {
    console.log('Building apps/web…');
    execFileSync('npm', ['run', '-s', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
  }
  const server = await startServer({
    SIMULATOR_MIX: 'DELIVRD=100',
    SIMULATOR_DELAY_MS: '100',
    CAPTCHA: 'false',
    WEB_DIST: DIST,
  });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  try {
    const setup = await browser.newContext({ baseURL: server.baseUrl, viewport: VIEWPORT });
    const page = await setup.newPage();
    await signUp(page);
    const sent = await apiFromPage(page, '/api/sms/single', {
      recipients: ['+14155552671', '+442079460958'],
      text: 'Your Wren code is 481 516',
    });
    if (sent.status !== 202) throw new Error(`send failed: ${sent.status} ${JSON.stringify(sent.json)}`);
    const storageState = JSON.stringify(await setup.storageState());
    await setup.close();
    await coldLoad(browser, server.baseUrl, storageState); // warm the server, not the browser
    const samples: Sample[] = [];
    for (let i = 0; i < RUNS; i++) samples.push(await coldLoad(browser, server.baseUrl, storageState));
    for (const [i, s] of samples.entries()) {
      console.log(
        `run ${i + 1}: ${s.jsFiles} JS files, ${s.jsBytes.toLocaleString('en-US')} B br (${s.jsGzip.toLocaleString('en-US')} B gzip, ${s.jsRaw.toLocaleString('en-US')} B decoded), LCP ${Math.round(s.lcp)} ms` +
          ` (TTFB ${Math.round(s.ttfb)}, FCP ${Math.round(s.fcp)}, JS in ${Math.round(s.jsDone)}, API ${Math.round(s.apiStart)}–${Math.round(s.apiDone)}; LCP element ${s.lcpElement})`,
      );
    }
    if (process.env.BENCH_TIMELINE) {
      for (const [start, end, file] of samples[0]!.timeline) {
        console.log(
          `${Math.round(start).toString().padStart(6)} – ${Math.round(end).toString().padEnd(6)} ${file}`,
        );
      }
    }
    if (process.env.BENCH_FILES) {
      for (const [file, size] of [...samples[0]!.files].sort((a, b) => b[1] - a[1])) {
        console.log(`${size.toLocaleString('en-US').padStart(10)} B  ${file}`);
      }
    }
    const bytes = median(samples.map((s) => s.jsBytes));
    const gzip = median(samples.map((s) => s.jsGzip));
    const lcps = samples.map((s) => s.lcp);
    console.log(
      `\ncold /dashboard: JS ${(gzip / 1024).toFixed(1)} KB gzip (${gzip.toLocaleString('en-US')} B), ${(bytes / 1024).toFixed(1)} KB brotli as transferred (${bytes.toLocaleString('en-US')} B) in ${median(samples.map((s) => s.jsFiles))} files, ` +
        `${median(samples.map((s) => s.jsRaw)).toLocaleString('en-US')} B decoded; LCP median ${Math.round(median(lcps))} ms, p95 ${Math.round(p95(lcps))} ms (${RUNS} runs); ` +
        `load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
