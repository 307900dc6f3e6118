/**
 * Web app load benchmark: builds apps/web, serves it with the real server, and loads /dashboard cold
 * (a fresh browser context: empty HTTP cache, a signed-in session in localStorage) 5 times in headless
 * Chromium, for an account with messages, so the charts are drawn. Prints the JS bytes transferred
 * (compressed, as on the wire), the number of JS files, and the median LCP.
 *
 *   npm run bench:web [-- runs]
 */
import { execFileSync } from 'node:child_process';
import { chromium, type Browser, type Page } from 'playwright-core';
import { REPO_ROOT } from '../e2e/lib/paths';
import { startServer } from '../e2e/lib/server';

const RUNS = Number(process.argv[2] ?? 5);
const VIEWPORT = { width: 1366, height: 900 };

interface Sample {
  jsBytes: number;
  jsFiles: number;
  jsRaw: number;
  lcp: number;
  files: (readonly [string, number])[];
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
    new g.PerformanceObserver((list: Globals) => {
      for (const entry of list.getEntries()) g.__lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  await page.goto('/dashboard', { waitUntil: 'networkidle' });
  await page.waitForSelector('#boot-overlay', { state: 'detached' });
  await page.locator('[data-testid="performance"] svg rect').first().waitFor({ timeout: 20_000 });
  await page.waitForLoadState('networkidle');
  // LCP is final once the user interacts; read it after the page has settled.
  const sample = await page.evaluate(() => {
    const g: Globals = globalThis;
    const js: { name: string; encodedBodySize: number; decodedBodySize: number }[] = g.performance
      .getEntriesByType('resource')
      .filter((e: { name: string }) => /\.m?js(\?|$)/.test(e.name));
    return {
      jsBytes: js.reduce((n, e) => n + e.encodedBodySize, 0),
      jsRaw: js.reduce((n, e) => n + e.decodedBodySize, 0),
      jsFiles: js.length,
      files: js.map((e) => [new URL(e.name).pathname, e.encodedBodySize] as const),
      lcp: g.__lcp as number,
    };
  });
  await context.close();
  return sample;
}

async function main() {
  console.log('Building apps/web…');
  execFileSync('npm', ['run', '-s', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
  const server = await startServer({
    SIMULATOR_MIX: 'DELIVRD=100',
    SIMULATOR_DELAY_MS: '100',
    CAPTCHA: 'false',
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
        `run ${i + 1}: ${s.jsFiles} JS files, ${s.jsBytes.toLocaleString('en-US')} B transferred (${s.jsRaw.toLocaleString('en-US')} B decoded), LCP ${Math.round(s.lcp)} ms`,
      );
    }
    if (process.env.BENCH_FILES) {
      for (const [file, size] of [...samples[0]!.files].sort((a, b) => b[1] - a[1])) {
        console.log(`${size.toLocaleString('en-US').padStart(10)} B  ${file}`);
      }
    }
    const bytes = median(samples.map((s) => s.jsBytes));
    console.log(
      `\ncold /dashboard: JS ${bytes.toLocaleString('en-US')} B transferred (${(bytes / 1024).toFixed(1)} KB) in ${median(samples.map((s) => s.jsFiles))} files, ` +
        `${median(samples.map((s) => s.jsRaw)).toLocaleString('en-US')} B decoded; LCP median ${Math.round(median(samples.map((s) => s.lcp)))} ms (${RUNS} runs)`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
