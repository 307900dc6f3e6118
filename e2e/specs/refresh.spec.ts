import assert from 'node:assert/strict';
import { after, before, describe, it } from '../lib/test';
import type { Browser, Page, Request } from 'playwright-core';
import { appReady, registerViaApi, signIn, storageKeys, type TestUser } from '../lib/app';
import { launchBrowser, newContext } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';
import { expireAccessToken } from '../lib/tokens';

/** Tokens the server issues stay valid through a test; only the expired copies below are refused. */
const TTL_SECONDS = 900;
let server: RunningServer;
let browser: Browser;
let user: TestUser;

before(async () => {
  server = await startServer({ ACCESS_TOKEN_TTL_SECONDS: String(TTL_SECONDS) });
  browser = await launchBrowser();
  user = await registerViaApi(server.baseUrl);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * Instead of waiting out the token (its lifetime plus the server's 5 s tolerance), the page gets an
 * expired copy of it, signed with the server's key: the server refuses it as it would the original.
 */
const expireTheToken = (page: Page) => expireAccessToken(page, TTL_SECONDS);

describe('expired access token', () => {
  it('is refreshed silently while a page loads, once, and the page shows', async () => {
    const { page, errors } = await newContext(browser, server.baseUrl);
    await signIn(page, user);
    const before = await expireTheToken(page);

    const calls: Request[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/')) calls.push(request);
    });
    await page.goto('/profile');
    await appReady(page);
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
    await page.getByText(user.email).waitFor();

    const paths = calls.map((r) => `${r.method()} ${new URL(r.url()).pathname}`);
    assert.equal(paths.filter((p) => p === 'POST /api/auth/refreshToken').length, 1, paths.join('\n'));
    const me = paths.filter((p) => p === 'GET /api/me');
    assert.equal(me.length, 2, 'GET /api/me failed with 401 and was retried once');
    const after = await page.evaluate(() => localStorage.getItem('accessToken'));
    assert.notEqual(after, before);
    assert.deepEqual(await storageKeys(page), ['accessToken', 'refreshToken', 'user']);
    assert.deepEqual(errors, []);
  });

  it('lets a form sent after the token expired go through', async () => {
    const { page } = await newContext(browser, server.baseUrl);
    await signIn(page, user, '/auth/login?returnUrl=%2Fprofile%2Fupdate');
    await page.getByLabel('Phone').fill('+14155552672');
    await expireTheToken(page);
    let refreshes = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/auth/refreshToken')) refreshes++;
    });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('.mantine-Notification-root', { hasText: 'Your profile has been updated.' }).waitFor();
    assert.equal(refreshes, 1);
  });

  it('signs out and reloads to the login page when the refresh fails', async () => {
    const { page } = await newContext(browser, server.baseUrl);
    await signIn(page, user);
    await page.evaluate(() => localStorage.setItem('refreshToken', 'revoked-or-forged'));
    await expireTheToken(page);
    await page.goto('/reports/sms-log');
    await page.waitForURL('**/auth/login?returnUrl=%2Freports%2Fsms-log');
    await appReady(page);
    assert.deepEqual(await storageKeys(page), []);
  });
});
