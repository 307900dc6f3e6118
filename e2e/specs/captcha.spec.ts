import assert from 'node:assert/strict';
import { after, before, describe, it } from '../lib/test';
import type { Browser } from 'playwright-core';
import { appReady, newUser, storageKeys, submitRegisterForm } from '../lib/app';
import { launchBrowser, newContext } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';

// Issue #14: the ALTCHA proof-of-work runs invisibly in the browser (a worker under the app's CSP)
// and the server, with CAPTCHA on, accepts register and forgot-password only with its solution.
let server: RunningServer;
let browser: Browser;
let registered: ReturnType<typeof newUser> | undefined;

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
    registered = user;
    await page.goto('/auth/register');
    await appReady(page);
    // Invisible means nothing drawn: without the widget's stylesheet it showed a raw checkbox, a
    // stray tick and a plain link (issue 47, defect 1).
    const box = page.locator('altcha-widget .altcha');
    await box.waitFor({ state: 'attached' });
    assert.equal(await box.evaluate((el) => getComputedStyle(el).display), 'none');
    assert.equal(
      await page.locator('altcha-widget input, altcha-widget a').filter({ visible: true }).count(),
      0,
    );
    await submitRegisterForm(page, user);
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

  it('a submit before the proof-of-work has loaded waits for it, and the reset link is sent', async () => {
    // A slow network (or a slow machine) delivers the widget's chunk after a quick user submits:
    // the form must wait for the work, not send without it and show a refusal.
    const { page } = await newContext(browser, server.baseUrl);
    let delayed = 0;
    await page.route('**/assets/altcha-*.js', async (route) => {
      delayed += 1;
      await new Promise((r) => setTimeout(r, 2_500));
      await route.continue();
    });
    await page.goto('/auth/forgot-password');
    await appReady(page);
    await page.getByLabel('Email').fill(newUser().email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Check your email').waitFor({ timeout: 30_000 });
    assert.equal(delayed, 1);
  });

  it('a refused register is tried again with a new proof-of-work, which passes', async () => {
    assert.ok(registered, 'the first test registers a user');
    const { page } = await newContext(browser, server.baseUrl);
    const user = { ...newUser(), username: registered.username };
    let challenges = 0;
    page.on('response', (r) => {
      if (r.url().endsWith('/api/auth/captcha')) challenges += 1;
    });
    await page.goto('/auth/register');
    await appReady(page);
    // Invisible means nothing drawn: without the widget's stylesheet it showed a raw checkbox, a
    // stray tick and a plain link (issue 47, defect 1).
    const box = page.locator('altcha-widget .altcha');
    await box.waitFor({ state: 'attached' });
    assert.equal(await box.evaluate((el) => getComputedStyle(el).display), 'none');
    assert.equal(
      await page.locator('altcha-widget input, altcha-widget a').filter({ visible: true }).count(),
      0,
    );
    await submitRegisterForm(page, user);
    await page.getByText('This username or email cannot be used', { exact: false }).first().waitFor();
    await page.getByLabel('Username').fill(newUser().username);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/dashboard', { timeout: 30_000 });
    assert.equal(challenges, 2); // one for each submit: a solution is used once
  });
});
