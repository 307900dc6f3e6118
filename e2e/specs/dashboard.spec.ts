import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from '../lib/test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { appReady, newUser, registerViaApi, signIn, storageKeys, type TestUser } from '../lib/app';
import { launchBrowser, newContext, screenshot } from '../lib/browser';
import { expectProblems } from '../lib/page-health';
import { WEB_DIST } from '../lib/paths';
import { startServer, type RunningServer } from '../lib/server';

let server: RunningServer;
let browser: Browser;

before(async () => {
  // Every message is delivered 300 ms after it is submitted: the live figures are predictable.
  server = await startServer({ SIMULATOR_MIX: 'DELIVRD=100', SIMULATOR_DELAY_MS: '300' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Tall enough for the whole dashboard in one full-page screenshot. */
const VIEWPORT = { width: 1280, height: 1100 };

const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text });
const hubState = (page: Page) => page.locator('[data-hub-state]').getAttribute('data-hub-state');

async function waitConnected(page: Page): Promise<void> {
  await page.locator('[data-hub-state="Connected"]').waitFor({ timeout: 15_000 });
}

/** Sends SMS from inside the page, as the app does: its access token and its XSRF cookie. */
async function sendFromPage(page: Page, body: Record<string, unknown>): Promise<number> {
  return page.evaluate(async (payload) => {
    const xsrf = decodeURIComponent(/(?:^|; )XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '');
    const res = await fetch('/api/sms/single', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${localStorage.getItem('accessToken') ?? ''}`,
        'x-xsrf-token': xsrf,
        'content-type': 'application/json',
      },
      body: JSON.stringify(payload),
    });
    return res.status;
  }, body);
}

/** Leaves a marker in the page's window: it survives everything except a reload. */
const markDocument = (page: Page) =>
  page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

async function waitForText(page: Page, testId: string, expected: string | RegExp, timeout = 20_000) {
  await page.waitForFunction(
    ([id, source, flags]) => {
      const text = document.querySelector(`[data-testid="${id}"]`)?.textContent ?? '';
      return new RegExp(source, flags).test(text);
    },
    [
      testId,
      typeof expected === 'string' ? expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : expected.source,
      typeof expected === 'string' ? '' : expected.flags,
    ] as const,
    { timeout },
  );
}

/** How long a toast stays up (apps/web/src/lib/toast.ts). */
const TOAST_TIME_OUT_MS = 5000;

/**
 * Settles transitions and moves the pointer away before a screenshot. Toasts (the hub's
 * "Connected to server!") are closed by running the page's clock (page.clock, installed before
 * sign-in) past their time-out instead of waiting for it.
 */
async function shoot(page: Page, name: string): Promise<void> {
  await page.mouse.move(0, 0);
  await page.clock.fastForward(TOAST_TIME_OUT_MS);
  await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached', timeout: 5_000 });
  await page.waitForTimeout(300);
  await screenshot(page, name);
}

describe('dashboard', () => {
  let user: TestUser;

  it('a new account sees the empty state; a sent SMS updates balance, charts and activity live, without a reload', async () => {
    user = await registerViaApi(server.baseUrl, newUser());
    const { page, errors } = await newContext(browser, server.baseUrl, VIEWPORT);
    await page.clock.install();
    await signIn(page, user);
    await page.goto('/dashboard');
    await appReady(page);

    // The hub connects after the header loads: warning while connecting, success once connected.
    await toast(page, 'Connected to server!').waitFor();
    await waitConnected(page);

    // A new account: the balance and a friendly empty state.
    await page.getByText('No messages yet').waitFor();
    await waitForText(page, 'balance-value', '$5.00');
    const cta = page.getByRole('link', { name: 'Send your first SMS' });
    assert.equal(await cta.getAttribute('href'), '/sms/single');
    await shoot(page, 'dashboard-light-empty');

    await markDocument(page);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}`));

    assert.equal(
      await sendFromPage(page, {
        recipients: ['+14155552671', '+442079460958', '+4930901820'],
        text: 'Your Wren code is 481 516',
      }),
      202,
    );

    // Live: the empty state gives way to the charts and the activity list, the balance drops
    // (3 s after the push), and the statuses move on to delivered.
    await page.getByTestId('delivery-status').waitFor({ timeout: 20_000 });
    await page.getByTestId('recent-activity').getByText('+442079460958').waitFor({ timeout: 20_000 });
    await page.waitForFunction(
      () => {
        const text = document.querySelector('[data-testid="balance-value"]')?.textContent ?? '';
        return /^\$\d/.test(text) && text !== '$5.00';
      },
      undefined,
      { timeout: 20_000 },
    );
    await waitForText(page, 'status-count-delivered', /^3$/);
    await waitForText(page, 'messages-today-value', '3');
    await waitForText(page, 'performance-rate', '100%');
    await page
      .getByTestId('recent-activity')
      .locator('[data-status="delivered"]')
      .nth(2)
      .waitFor({ timeout: 20_000 });

    assert.ok(await sameDocument(page), 'the page was not reloaded');
    assert.equal(
      requests.filter((r) => r === 'GET /api/dashboard/summary').length,
      0,
      'live figures came from the hub, not the HTTP fallback',
    );
    assert.equal(await hubState(page), 'Connected');

    // The period control picks another window of the same counts.
    await page.getByTestId('delivery-status').getByText('30 days').click();
    await waitForText(page, 'status-count-delivered', /^3$/);
    await page.getByTestId('delivery-status').getByText('Today').click();

    // A scheduled message adds a status to the chart, for the screenshots.
    assert.equal(
      await sendFromPage(page, {
        recipients: ['+14155552672'],
        text: 'Your order ships tomorrow.',
        scheduleAt: new Date(Date.now() + 2 * 86_400_000).toISOString(),
        timezone: 'UTC',
      }),
      202,
    );
    await page.getByTestId('status-count-scheduled').waitFor({ timeout: 20_000 });
    await shoot(page, 'dashboard-light');
    assert.deepEqual(errors, []);
  });

  it('looks right in the dark colour scheme and on a phone', async () => {
    const dark = await newContext(browser, server.baseUrl, { ...VIEWPORT, colorScheme: 'dark' });
    await dark.page.clock.install();
    await signIn(dark.page, user);
    await dark.page.goto('/dashboard');
    await appReady(dark.page);
    await waitConnected(dark.page);
    await dark.page.getByTestId('status-count-delivered').waitFor();
    assert.match(await dark.page.getByTestId('status-count-delivered').innerText(), /^\d+$/);
    assert.equal(
      await dark.page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme')),
      'dark',
    );
    await shoot(dark.page, 'dashboard-dark');

    assert.deepEqual(dark.errors, []);

    const fresh = await newContext(browser, server.baseUrl, { ...VIEWPORT, colorScheme: 'dark' });
    await fresh.page.clock.install();
    await signIn(fresh.page, await registerViaApi(server.baseUrl, newUser()));
    await fresh.page.goto('/dashboard');
    await appReady(fresh.page);
    await fresh.page.getByText('No messages yet').waitFor();
    await waitConnected(fresh.page);
    assert.ok(await fresh.page.getByRole('link', { name: 'Send your first SMS' }).isVisible());
    await shoot(fresh.page, 'dashboard-dark-empty');
    assert.deepEqual(fresh.errors, []);

    const phone = await newContext(browser, server.baseUrl, { width: 390, height: 1700 });
    await phone.page.clock.install();
    await signIn(phone.page, user);
    await phone.page.goto('/dashboard');
    await appReady(phone.page);
    await waitConnected(phone.page);
    await phone.page.getByTestId('status-count-delivered').waitFor();
    const scrollWidth = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scrollWidth <= 390, `no sideways scroll on a phone (${scrollWidth}px)`);
    await shoot(phone.page, 'dashboard-mobile');
    assert.deepEqual(phone.errors, []);
  });
});

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
};

/**
 * Once `down()` is true the API is refused and the built app is served from disk, as a static
 * host in front of a stopped API would: the reload that follows a failed sign-out can load.
 */
async function serveAppWhenApiDown(context: BrowserContext, down: () => boolean): Promise<void> {
  await context.route('**/*', async (route) => {
    if (!down()) return route.continue();
    const { pathname } = new URL(route.request().url());
    if (pathname.startsWith('/api/') || pathname.startsWith('/hub')) return route.abort('connectionrefused');
    let file = path.join(WEB_DIST, decodeURIComponent(pathname));
    if (!file.startsWith(WEB_DIST) || !existsSync(file) || statSync(file).isDirectory())
      file = path.join(WEB_DIST, 'index.html');
    return route.fulfill({
      status: 200,
      contentType: CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
      body: readFileSync(file),
    });
  });
}

describe('dashboard: connection lost', () => {
  it('stopping the server: the hub retries, gives up and signs the user out to the login page', async () => {
    const own = await startServer();
    try {
      const user = await registerViaApi(own.baseUrl, newUser());
      const { context, page } = await newContext(browser, own.baseUrl, VIEWPORT);
      // The API and the hub are stopped on purpose: their requests fail (and only theirs may).
      expectProblems(context, /^requestfailed: \w+ http:\/\/127\.0\.0\.1:\d+\/(api|hub)\//);
      // Every state the connection badge shows, across the reload that ends the test.
      const states: string[] = [];
      await page.exposeFunction('__recordHubState', (state: string) => states.push(state));
      await context.addInitScript(() => {
        const record = (window as unknown as { __recordHubState: (s: string) => void }).__recordHubState;
        let last = '';
        new MutationObserver(() => {
          const state = document.querySelector('[data-hub-state]')?.getAttribute('data-hub-state') ?? '';
          if (state && state !== last) record((last = state));
        }).observe(document, { subtree: true, childList: true, attributes: true });
      });
      let apiDown = false;
      await serveAppWhenApiDown(context, () => apiDown);

      await signIn(page, user);
      await page.goto('/dashboard');
      await appReady(page);
      await waitConnected(page);

      apiDown = true;
      const stoppedAt = Date.now();
      await own.stop();
      await page.waitForURL('**/auth/login**', { timeout: 20_000 });
      await appReady(page);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      assert.deepEqual(await storageKeys(page), []);
      assert.ok(states.includes('Reconnecting'), `states seen: ${states.join(' → ')}`);
      assert.ok(Date.now() - stoppedAt < 20_000);
    } finally {
      await own.stop();
    }
  });
});
