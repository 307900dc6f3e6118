import assert from 'node:assert/strict';
import { after, before, describe, it } from '../lib/test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiCall, appReady, registerViaApi, signIn, type TestUser } from '../lib/app';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { launchBrowser, newContext, screenshot } from '../lib/browser';
import { SCREENSHOT_DIR } from '../lib/paths';
import { startServer, type RunningServer } from '../lib/server';

/**
 * Issue #15 leftovers, in the browser: the length limit of a message (defect 2), the sender ID form
 * and its approval banner (defect 5), and the sidebar on a page taller than the window (11.6).
 */

let server: RunningServer;
let browser: Browser;
let user: TestUser;

before(async () => {
  server = await startServer({ CAPTCHA: 'false' }); // SENDER_ID_APPROVAL stays manual (the default)
  browser = await launchBrowser();
  user = await registerViaApi(server.baseUrl);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function tokenOf(u: TestUser): Promise<string> {
  const login = await apiCall(server.baseUrl, 'POST', '/api/auth/login', {
    username: u.username,
    password: u.password,
  });
  return String(login.body?.accessToken);
}

/** GET an API list as the user: its items, and the rest of the body. */
async function getList(path: string): Promise<{ items: { segments?: number }[]; approval?: string }> {
  const res = await apiCall(server.baseUrl, 'GET', path, undefined, await tokenOf(user));
  assert.equal(res.status, 200);
  return res.body as { items: { segments?: number }[]; approval?: string };
}

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await appReady(page);
}

/** A 24-segment Unicode text with placeholders, longer than 1,600 characters (the old cut). */
const LONG_TEXT = 'Привет {{name}}, ваш заказ готов. '.repeat(50);

describe('defect 2: a message longer than 10 segments', () => {
  it('a template form keeps the whole paste, shows the limit, and saves nothing', async () => {
    const { page } = await newContext(browser, server.baseUrl, { width: 1280, height: 900 });
    await signIn(page, user);
    await open(page, '/templates');
    await page.getByRole('button', { name: 'New template', exact: true }).first().click();
    const form = page.getByRole('dialog', { name: 'New template' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Too long');
    const text = form.getByRole('textbox', { name: 'Message', exact: true });
    await text.focus();
    await page.keyboard.insertText(LONG_TEXT); // what a paste does: no silent cut
    assert.equal(await text.inputValue(), LONG_TEXT);
    await form.getByText(/The message is too long: more than 10 segments/).waitFor();
    await screenshot(page, 'web-quality-template-too-long');
    await form.getByRole('button', { name: 'Save template', exact: true }).click();
    await page.waitForTimeout(500);
    assert.ok(await form.isVisible(), 'the form stays open');
    assert.equal(await text.getAttribute('aria-invalid'), 'true');

    // 11 segments (under 1,600 characters): the same, with the count the server would give.
    await text.fill('ж'.repeat(700));
    await form.getByText('The message is too long: 11 segments (at most 10)').waitFor();
    await form.getByRole('button', { name: 'Save template', exact: true }).click();
    await page.waitForTimeout(300);
    assert.deepEqual((await getList('/api/templates')).items, [], 'nothing was saved');

    // Ten segments save.
    await text.fill('ж'.repeat(670));
    await form.getByRole('button', { name: 'Save template', exact: true }).click();
    await form.waitFor({ state: 'hidden' });
    assert.equal((await getList('/api/templates')).items[0]?.segments, 10);
  });

  it('the Single SMS message box keeps a long paste whole and says it is too long', async () => {
    const { page } = await newContext(browser, server.baseUrl, { width: 1280, height: 900 });
    await signIn(page, user);
    await open(page, '/sms/single');
    const text = page.getByRole('textbox', { name: 'Message' });
    await text.focus();
    await page.keyboard.insertText(LONG_TEXT);
    assert.equal(await text.inputValue(), LONG_TEXT);
    await page.getByTestId('sms-counter').getByText('(at most 10)').waitFor();
  });
});

describe('defect 5: sender ID rules and the approval banner', () => {
  it('explains the rules, names a bad character, and shows the review banner under manual approval', async () => {
    const { page } = await newContext(browser, server.baseUrl, { width: 1280, height: 900 });
    await signIn(page, user);
    await open(page, '/sender-id');
    await page.getByText(/checked by our team/).waitFor();
    await page.getByRole('button', { name: 'Request sender ID', exact: true }).first().click();
    const form = page.getByRole('dialog', { name: 'Request sender ID' });
    await form
      .getByTestId('sender-id-rules')
      .getByText(/at least one letter/)
      .waitFor();
    const field = form.getByRole('textbox', { name: 'Sender ID' });
    await field.fill("Nadia's Shop! 🌻");
    await form
      .getByText('A sender ID can use only letters, digits, spaces and common punctuation; remove "🌻"')
      .waitFor();
    await screenshot(page, 'web-quality-sender-id-rules');
    await form.getByRole('textbox', { name: 'Purpose' }).fill('Order updates for our customers');
    await form.getByRole('textbox', { name: 'Sample message' }).fill('Your order has shipped.');
    await form.getByRole('button', { name: 'Send request', exact: true }).click();
    await page.waitForTimeout(300);
    assert.ok(await form.isVisible(), 'the request was not sent');
    const list = await getList('/api/sender-ids');
    assert.deepEqual(list.items, []);
    assert.equal(list.approval, 'manual');
  });
});

/** A region of the whole page, drawn beyond the window as a full-page capture draws it. */
async function capture(
  context: BrowserContext,
  page: Page,
  x: number,
  y: number,
  width: number,
  height: number,
) {
  const cdp = await context.newCDPSession(page);
  const shot = await cdp.send('Page.captureScreenshot', {
    format: 'png',
    captureBeyondViewport: true,
    clip: { x, y, width, height, scale: 1 },
  });
  await cdp.detach();
  return shot.data;
}

describe('11.6: the sidebar on a page taller than the window', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`its background and border reach the bottom of the page (${colorScheme})`, async () => {
      const { page, context } = await newContext(browser, server.baseUrl, {
        width: 1366,
        // Tall enough that the menu (with Billing and Settings, ~660 px) leaves part of the sidebar empty.
        height: 800,
        colorScheme,
      });
      await signIn(page, user);
      await open(page, '/dashboard');
      // A page three windows tall (as the dashboard with data, the SMS log, a long table).
      await page.evaluate(() => {
        const spacer = document.createElement('div');
        spacer.style.height = '1500px';
        document.querySelector('#main-content')?.append(spacer);
      });
      const { docHeight, sidebarWidth, menuBottom } = await page.evaluate(() => ({
        docHeight: document.documentElement.scrollHeight,
        sidebarWidth: Math.round(document.querySelector('#sidebar')!.getBoundingClientRect().width),
        menuBottom: Math.max(
          ...Array.from(document.querySelectorAll('#sidebar a, #sidebar button')).map(
            (el) => el.getBoundingClientRect().bottom,
          ),
        ),
      }));
      assert.ok(docHeight > 2000, `page height ${docHeight}`);
      const whole = await capture(context, page, 0, 0, 1366, docHeight);
      writeFileSync(
        path.join(SCREENSHOT_DIR, `web-quality-sidebar-tall-${colorScheme}.png`),
        Buffer.from(whole, 'base64'),
      );
      assert.ok(menuBottom < 740, `the sidebar's empty part is in view (menu ends at ${menuBottom})`);
      // The sidebar's empty part and its right border, in the window...
      const x = sidebarWidth - 24;
      const inWindow = await capture(context, page, x, 760, 40, 20);
      // ...look the same at the foot of the page, far below the window.
      const atBottom = await capture(context, page, x, docHeight - 24, 40, 20);
      assert.equal(atBottom, inWindow, 'the sidebar column at the bottom of the page matches the sidebar');
      // And the check can tell: the main area beside it is another colour.
      const mainArea = await capture(context, page, sidebarWidth + 40, docHeight - 24, 40, 20);
      assert.notEqual(mainArea, inWindow);
    });
  }
});
