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
 * The page's clock is Playwright's (page.clock): it runs on its own, and a test jumps it forward
 * or stops it instead of waiting for the toasts' timers in real time.
 */
async function pageNow(page: Page): Promise<number> {
  return page.evaluate(() => Date.now());
}

/**
 * Runs the page's timers `ms` forward (a closing toast's 300 ms transition included), then lets React
 * render what they changed: it renders from a MessageChannel task, which the page's clock does not own.
 */
async function runTimers(page: Page, ms: number): Promise<void> {
  await page.clock.runFor(ms);
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      }),
  );
}

/**
 * Signs in on the profile form. The live-update hub greets every sign-in with its own toast
 * ("Connected to server!", SPEC.md §4); a tap dismisses it so these tests start with none showing.
 */
async function signInToProfileForm(page: Page): Promise<void> {
  await page.clock.install();
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

    await page.clock.fastForward(3000);
    await saveTakenEmail(page);
    assert.equal(await toasts(page).count(), 1, 'the duplicate was not shown again');
    await page.clock.fastForward(3000); // 6 s after the first: still up, because the duplicate restarted it
    await runTimers(page, 400); // a toast closed by the first time-out would be gone by now
    assert.equal(await toasts(page).count(), 1);
    await page.clock.fastForward(2000); // 5.4 s after the duplicate: closed
    await toasts(page).first().waitFor({ state: 'detached', timeout: 2000 });

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
    await page.clock.fastForward(6000);
    await runTimers(page, 400);
    assert.equal(await toasts(page).count(), 1, 'hovering holds the toast');
    // Stop the page's clock, so the time after the pointer leaves is exactly what the test runs.
    await page.clock.pauseAt((await pageNow(page)) + 10);
    await page.mouse.move(5, 5);
    await runTimers(page, 900);
    assert.equal(await toasts(page).count(), 1, 'still there 900 ms after the pointer left');
    await runTimers(page, 500); // it closes at 1000 ms, and its 300 ms transition ends
    await page.clock.resume();
    await toast.waitFor({ state: 'detached', timeout: 2000 });
  });
});
