import assert from 'node:assert/strict';
import { after, before, describe, it } from '../lib/test';
import type { Browser } from 'playwright-core';
import { appReady, newUser, storageKeys } from '../lib/app';
import { launchBrowser, newContext } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';

// Issue #14: the ALTCHA proof-of-work runs invisibly in the browser (a worker under the app's CSP)
// and the server, with CAPTCHA on, accepts register and forgot-password only with its solution.
let server: RunningServer;
let browser: Browser;

before(async () => {
  server = await startServer({ CAPTCHA: 'true' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('captcha', () => {
  it('register and forgot-password pass the invisible proof-of-work; the API refuses without it', async () => {
    const { page } = await newContext(browser, server.baseUrl);
    const user = newUser();
    await page.goto('/auth/register');
    await appReady(page);
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Full name').fill(user.name);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Phone').fill(user.phone);
    await page.getByLabel(/^Password/).fill(user.password);
    await page.getByLabel('Confirm password').fill(user.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/dashboard', { timeout: 30_000 });
    assert.deepEqual(await storageKeys(page), ['accessToken', 'refreshToken', 'user']);

    const forgot = (await newContext(browser, server.baseUrl)).page;
    await forgot.goto('/auth/forgot-password');
    await appReady(forgot);
    await forgot.getByLabel('Email').fill(user.email);
    await forgot.getByRole('button', { name: 'Send reset link' }).click();
    await forgot.getByText('Check your email').waitFor({ timeout: 30_000 });

    const xsrf = await fetch(`${server.baseUrl}/api/auth/xsrf`);
    const cookie = xsrf.headers.getSetCookie()[0]!.split(';')[0]!;
    const res = await fetch(`${server.baseUrl}/api/auth/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'x-xsrf-token': cookie.split('=')[1]! },
      body: JSON.stringify({ email: user.email }),
    });
    assert.equal(res.status, 400);
  });
});
