import assert from 'node:assert/strict';
import { after, before, describe, it } from '../lib/test';
import type { Browser } from 'playwright-core';
import { appReady, registerViaApi, signIn, type TestUser } from '../lib/app';
import { launchBrowser, newContext } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';

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

const SPEC_MENU = [
  ['Dashboard', '/dashboard'],
  ['Single SMS', '/sms/single'],
  ['Bulk SMS', '/sms/bulk'],
  ['Personalised SMS', '/sms/personalised-bulk'],
  ['Conversations', '/messaging/conversations'],
  ['SMS Log', '/reports/sms-log'],
  ['Campaign Report', '/reports/bulk-sms-report'],
  ['Scheduled SMS', '/reports/scheduled-sms'],
  // Billing (issue 39 item 5): balance, top-up and monthly statements.
  ['Billing', '/billing'],
  ['SMS & OTP API', '/api'],
  ['Sender ID', '/sender-id'],
  ['Numbers', '/settings/numbers'],
  ['Contact Group', '/groups'],
  ['Saved Messages', '/templates'],
  // Settings -> Send window (issue 41): the account's default hours for campaigns.
  ['Send window', '/settings/send-window'],
  // Settings -> Team (issue 39): members and invites; an owner's menu shows it.
  ['Team', '/settings/team'],
  // Settings -> Sub-accounts (issue 39 item 4): an owner of an account that is not a child.
  ['Sub-accounts', '/settings/sub-accounts'],
];

describe('main layout', () => {
  it('serves a loading page titled for OTP, single and bulk SMS, with a "Loading..." overlay', async () => {
    const html = await (await fetch(`${server.baseUrl}/sms/single`)).text();
    assert.match(html, /<title>Wren — OTP, single SMS and bulk SMS messaging<\/title>/);
    assert.match(html, /id="boot-overlay"[^>]*>[\s\S]*Loading\.\.\./);
  });

  it('has the sidebar menu of the spec, the brand, and a header with the user menu', async () => {
    const { page } = await newContext(browser, server.baseUrl);
    await signIn(page, user);
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await nav.getByRole('button', { name: 'Settings' }).click();
    // The group's links mount as its collapse opens.
    await nav.getByRole('link', { name: 'Saved Messages' }).waitFor();
    const links = await nav
      .getByRole('link')
      .evaluateAll((els) => els.map((el) => [el.textContent?.trim() ?? '', el.getAttribute('href') ?? '']));
    assert.deepEqual(links, SPEC_MENU);
    for (const caption of ['Messaging', 'Reports', 'Config.'])
      await nav.getByText(caption, { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Wren, go to dashboard' }).first().waitFor();
    await page.getByText('Wren SMS platform © 2023 · Powered by Wren Labs').waitFor();

    await page.getByRole('button', { name: `Account menu for ${user.name}` }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).waitFor();
    await page.getByRole('menuitem', { name: 'Sign out' }).waitFor();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Notifications' }).click();
    const events = page.getByRole('dialog', { name: 'Recent activity' });
    await events.waitFor();
    // The list loads after the dialog opens: wait for its empty state or its first entry.
    await events
      .getByText(/No recent activity/)
      .or(events.locator('li').first())
      .first()
      .waitFor();
    const text = await events.innerText();
    assert.ok(/No recent activity/.test(text) || (await events.locator('li').count()) > 0, text);
  });

  it('folds the sidebar to icons and unfolds it', async () => {
    const { page } = await newContext(browser, server.baseUrl);
    await signIn(page, user);
    const sidebar = page.locator('#sidebar');
    const wide = (await sidebar.boundingBox())?.width ?? 0;
    await page.getByRole('button', { name: 'Fold menu' }).click();
    await page.waitForFunction(
      () => (document.querySelector('#sidebar')?.getBoundingClientRect().width ?? 0) < 100,
    );
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await nav.getByRole('link', { name: 'Saved Messages' }).hover();
    await page.getByRole('tooltip', { name: 'Saved Messages' }).waitFor();
    await page.getByRole('button', { name: 'Unfold menu' }).click();
    await page.waitForFunction(
      (w) => document.querySelector('#sidebar')?.getBoundingClientRect().width === w,
      wide,
    );
  });

  it('turns the sidebar into a drawer below 768 px', async () => {
    const { page } = await newContext(browser, server.baseUrl, { width: 390, height: 844 });
    await signIn(page, user);
    assert.equal(await page.locator('#sidebar').isVisible(), false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('link', { name: 'Scheduled SMS' }).click();
    await page.waitForURL('**/reports/scheduled-sms');
    await drawer.waitFor({ state: 'detached' });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `no horizontal scroll (${width}px)`);
  });

  it('switches between light and dark, and keeps the choice', async () => {
    const { page } = await newContext(browser, server.baseUrl);
    await signIn(page, user);
    const scheme = () =>
      page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
    assert.equal(await scheme(), 'light');
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    assert.equal(await scheme(), 'dark');
    await page.reload();
    await appReady(page);
    assert.equal(await scheme(), 'dark');
    await page.getByRole('button', { name: 'Switch to light mode' }).click();
    assert.equal(await scheme(), 'light');
    const keys = await page.evaluate(() => Object.keys(localStorage).sort());
    assert.deepEqual(keys, ['accessToken', 'refreshToken', 'user']);
  });

  it('shows the busy overlay while a request is in flight and hides it after', async () => {
    const { page } = await newContext(browser, server.baseUrl);
    await signIn(page, user);
    // The request is held until the overlay has been checked (not delayed by a guessed time).
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/me/events', async (route) => {
      await released;
      await route.continue().catch(() => undefined);
    });
    await page.getByRole('button', { name: 'Notifications' }).click();
    const overlay = page.locator('.wren-overlay.is-visible');
    await overlay.waitFor();
    assert.equal((await overlay.innerText()).trim(), 'Loading...');
    const style = await overlay.evaluate((el) => {
      const s = getComputedStyle(el);
      return { z: s.zIndex, bg: s.backgroundColor, color: s.color };
    });
    assert.deepEqual(style, { z: '99999', bg: 'rgba(0, 0, 0, 0.8)', color: 'rgb(255, 255, 255)' });
    release();
    await overlay.waitFor({ state: 'detached' });
  });
});
