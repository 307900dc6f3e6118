import assert from 'node:assert/strict';
import { after, before, describe, it } from '../lib/test';
import type { Browser, Page } from 'playwright-core';
import { appReady, fillLogin, pathOf, registerViaApi, signIn, type TestUser } from '../lib/app';
import { launchBrowser, newContext } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';
import { APP_PAGES } from '../lib/pages';

let server: RunningServer;
let browser: Browser;
let user: TestUser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  user = await registerViaApi(server.baseUrl);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function visitor(): Promise<Page> {
  return (await newContext(browser, server.baseUrl)).page;
}

async function member(): Promise<Page> {
  const page = await visitor();
  await signIn(page, user);
  return page;
}

/** Records whether an element matching `selector` is ever attached while the page loads. */
async function watchFor(page: Page, selector: string): Promise<void> {
  await page.addInitScript((sel) => {
    const w = window as unknown as { __seen?: boolean };
    w.__seen = false;
    new MutationObserver(() => {
      if (document.querySelector(sel)) w.__seen = true;
    }).observe(document, { childList: true, subtree: true });
  }, selector);
}
const wasSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { __seen?: boolean }).__seen === true);

describe('guards and redirects', () => {
  it('sends a visitor to the login page, remembering the address, and returns there after login', async () => {
    const page = await visitor();
    await watchFor(page, 'nav[aria-label="Main menu"]');
    await page.goto('/reports/sms-log?page=2#top');
    await appReady(page);
    assert.equal(pathOf(page), '/auth/login?returnUrl=%2Freports%2Fsms-log%3Fpage%3D2');
    assert.equal(await wasSeen(page), false, 'the protected layout flashed before the redirect');
    await fillLogin(page, user);
    await page.waitForURL('**/reports/sms-log?page=2');
    await page.getByRole('heading', { name: 'SMS log', level: 1 }).waitFor();
  });

  it('returns to / (the dashboard) after a login with nothing remembered', async () => {
    const page = await visitor();
    await page.goto('/auth/login');
    await appReady(page);
    await fillLogin(page, user);
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  });

  it('redirects the empty path to /dashboard', async () => {
    const page = await member();
    await page.goto('/');
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  });

  it('keeps a signed-in user out of /auth, without showing the login page first', async () => {
    const page = await member();
    await watchFor(page, 'form[aria-label="Sign in"]');
    for (const path of [
      '/auth/login',
      '/auth/register',
      '/auth/forgot-password',
      '/auth/reset-password',
      '/auth',
    ]) {
      await page.goto(path);
      await page.waitForURL('**/dashboard');
      await appReady(page);
    }
    assert.equal(await wasSeen(page), false, 'the login form flashed for a signed-in user');
  });

  it('redirects unknown addresses to /404, a designed page with a way home', async () => {
    const page = await visitor();
    for (const path of ['/no/such/page', '/sms', '/auth/nope', '/groups/1']) {
      await page.goto(path);
      await page.waitForURL('**/404');
    }
    await appReady(page);
    await page.getByRole('heading', { name: 'We can’t find that page', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await page.waitForURL('**/auth/login?returnUrl=%2Fdashboard');
  });

  it("answers any unknown /v1 address in the API's own 404 shape, never with the web app", async () => {
    for (const [method, path] of [
      ['GET', '/v1'],
      ['GET', '/v1/nope'],
      ['GET', '/v1/balance/'],
      ['GET', '/v1/messages/a/b'],
      ['POST', '/v1/nope'],
    ] as const) {
      const res = await fetch(`${server.baseUrl}${path}`, { method, headers: { accept: '*/*' } });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.match(res.headers.get('content-type') ?? '', /application\/json/, `${method} ${path}`);
      const body = (await res.json()) as { error?: { type?: string; code?: string } };
      assert.equal(body.error?.code, 'not_found', `${method} ${path}: ${JSON.stringify(body)}`);
    }
  });

  it('opens every page of the route table by its address, with its title and breadcrumbs', async () => {
    const page = await member();
    const failures: string[] = [];
    for (const path of APP_PAGES) {
      await page.goto(path);
      const title = await page
        .locator('h1')
        .first()
        .innerText({ timeout: 5000 })
        .catch(() => '');
      if (!title) {
        failures.push(
          `${path}: no page (the server answered ${(await page.innerText('body')).slice(0, 80)})`,
        );
        continue;
      }
      await appReady(page);
      assert.equal(pathOf(page), path, `${path} was redirected`);
      assert.equal(await page.title(), `${title} · Wren`, path);
      const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
      const last = (await crumbs.locator('[aria-current="page"]').innerText()).trim();
      assert.equal(last, title, `${path}: the last breadcrumb is the title`);
    }
    assert.deepEqual(failures, []);
  });

  it('scrolls to the top on navigation, and to the target of an anchor', async () => {
    const { page } = await newContext(browser, server.baseUrl, { height: 360 });
    await signIn(page, user);
    await page.goto('/profile#app-footer');
    await appReady(page);
    await page.waitForFunction(() => window.scrollY > 0);
    const footer = await page.locator('#app-footer').evaluate((el) => el.getBoundingClientRect());
    // The footer's top is in view. Its bottom may sit a few pixels lower when a
    // part of the page above it settles after the scroll (CI saw 362 of 360).
    assert.ok(
      footer.top >= 0 && footer.top <= 360 - 40,
      `the footer is in view (${footer.top}–${footer.bottom})`,
    );
    await page.getByRole('link', { name: 'Bulk SMS' }).click();
    await page.waitForURL('**/sms/bulk');
    await page.waitForFunction(() => window.scrollY === 0);
  });
});
