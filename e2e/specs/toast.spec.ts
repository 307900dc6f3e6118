import assert from 'node:assert/strict';
import { after, before, describe, it } from '../lib/test';
import type { Browser, Page } from 'playwright-core';
import { registerViaApi, signIn, type TestUser } from '../lib/app';
import { launchBrowser, newContext } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';

let server: RunningServer;
let browser: Browser;
let taken: TestUser;
let user: TestUser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  taken = await registerViaApi(server.baseUrl);
  user = await registerViaApi(server.baseUrl);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const toasts = (page: Page) => page.locator('.mantine-Notification-root');

/**
 * Signs in on the profile form. The live-update hub greets every sign-in with its own toast
 * ("Connected to server!", SPEC.md §4); a tap dismisses it so these tests start with none showing.
 */
async function signInToProfileForm(page: Page): Promise<void> {
  await signIn(page, user, '/auth/login?returnUrl=%2Fprofile%2Fupdate');
  const hubToast = toasts(page).filter({ hasText: 'Connected to server!' });
  await hubToast.click();
  await hubToast.waitFor({ state: 'detached' });
}

/** Saving another account's email fails with 409 and an Application-Error message: an error toast. */
async function saveTakenEmail(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.waitForFunction(() => !document.querySelector('.wren-overlay.is-visible'));
}

describe('toasts', () => {
  it('appear bottom-right; a duplicate is suppressed and restarts the time-out; a tap dismisses', async () => {
    const { page } = await newContext(browser, server.baseUrl);
    await signInToProfileForm(page);
    await page.getByLabel('Email').fill(taken.email);

    await saveTakenEmail(page);
    await toasts(page).first().waitFor();
    const message = (await toasts(page).first().innerText()).trim();
    assert.match(message, /email/i);
    const box = await toasts(page).first().boundingBox();
    const viewport = page.viewportSize();
    assert.ok(
      box && viewport && box.x + box.width > viewport.width - 40 && box.y + box.height > viewport.height - 60,
    );

    await page.waitForTimeout(3000);
    await saveTakenEmail(page);
    assert.equal(await toasts(page).count(), 1, 'the duplicate was not shown again');
    await page.waitForTimeout(3000); // 6 s after the first: still up, because the duplicate restarted it
    assert.equal(await toasts(page).count(), 1);
    await toasts(page).first().waitFor({ state: 'detached', timeout: 4000 });

    await saveTakenEmail(page);
    await toasts(page).first().waitFor();
    await toasts(page).first().click();
    await toasts(page).first().waitFor({ state: 'detached', timeout: 2000 });
  });

  it('stay open while hovered and close about a second after the pointer leaves', async () => {
    const { page } = await newContext(browser, server.baseUrl);
    await signInToProfileForm(page);
    await page.getByLabel('Email').fill(taken.email);
    await saveTakenEmail(page);
    const toast = toasts(page).first();
    await toast.waitFor();
    await toast.hover();
    await page.waitForTimeout(6000);
    assert.equal(await toasts(page).count(), 1, 'hovering holds the toast');
    await page.mouse.move(5, 5);
    const left = Date.now();
    await toast.waitFor({ state: 'detached', timeout: 3000 });
    const closedAfter = Date.now() - left;
    assert.ok(closedAfter >= 900 && closedAfter < 2000, `closed ${closedAfter} ms after the pointer left`);
  });
});
