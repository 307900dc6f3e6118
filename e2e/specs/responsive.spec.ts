import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { after, before, describe, it } from '../lib/test';
import { apiCall, appReady, registerViaApi, signIn, type TestUser } from '../lib/app';
import { launchBrowser, newContext, screenshot } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';

/**
 * One responsive table pattern (issue #15): at 390 px the lists of contact groups, contacts, sender
 * IDs and the dashboard's recent activity are cards (no sideways scrolling, actions and status
 * badges whole on screen); at 1366 px they stay tables. Screenshots in light and dark.
 */

let server: RunningServer;
let browser: Browser;
let user: TestUser;
let groupId = '';

before(async () => {
  // CAPTCHA=false: registration through the API, without the proof-of-work.
  server = await startServer({ SENDER_ID_APPROVAL: 'auto', SIMULATOR_MIX: 'DELIVRD=100', CAPTCHA: 'false' });
  browser = await launchBrowser();
  user = await registerViaApi(server.baseUrl);
  const login = await apiCall(server.baseUrl, 'POST', '/api/auth/login', {
    username: user.username,
    password: user.password,
  });
  const token = String(login.body?.accessToken);
  const post = async (path: string, body: unknown) => {
    const res = await apiCall(server.baseUrl, 'POST', path, body, token);
    assert.ok(res.status < 300, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body!;
  };
  groupId = String((await post('/api/groups', { name: 'VIP customers with a long group name' })).id);
  await post('/api/groups', { name: 'Suppliers' });
  for (const [phone, name] of [
    ['+14155550101', 'Ada Lovelace'],
    ['+442079460958', 'Grace Hopper'],
  ]) {
    await post(`/api/groups/${groupId}/contacts`, { phone, name, fields: { city: 'London' } });
  }
  await post('/api/sender-ids', {
    value: 'WrenShop',
    purpose: 'Order confirmations and shipping notices',
    sampleMessage: 'Your order has shipped.',
  });
  await post('/api/sms/single', { recipients: ['+14155550101', '+442079460958'], text: 'Your code is 1234' });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const PAGES = [
  { path: '/groups', name: 'groups', rows: '[data-testid="group-row"]' },
  { path: () => `/groups/${groupId}/contacts`, name: 'group-contacts', rows: '[data-testid="contact-row"]' },
  { path: '/sender-id', name: 'sender-ids', rows: '[data-testid="sender-id-row"]' },
  { path: '/dashboard', name: 'dashboard', rows: '[data-testid="recent-activity"] tbody tr' },
] as const;

async function open(page: Page, path: string, rows: string) {
  await page.goto(path);
  await appReady(page);
  await page.locator(rows).first().waitFor();
}

/** Everything the page draws fits the viewport's width: no sideways scrolling. */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Elements (buttons, badges) inside rows that are cut off or out of the viewport. */
const clipped = (page: Page, rows: string) =>
  page.evaluate((selector) => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(
      `${selector} button, ${selector} .mantine-Badge-root, ${selector} a`,
    )) {
      const r = el.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.left < 0 || r.right > window.innerWidth) out.push(`${el.textContent ?? el.ariaLabel} off-screen`);
      const label = el.querySelector<HTMLElement>('.mantine-Badge-label') ?? null;
      if (label && label.scrollWidth > label.clientWidth + 1) out.push(`${label.textContent} truncated`);
    }
    return out;
  }, rows);

describe('responsive lists', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`at 390 px (${scheme}) every list is cards, whole on screen, and the Connected dot shows`, async () => {
      const { page, context, errors } = await newContext(browser, server.baseUrl, {
        width: 390,
        height: 844,
        colorScheme: scheme,
      });
      await signIn(page, user);
      for (const p of PAGES) {
        const path = typeof p.path === 'function' ? p.path() : p.path;
        await open(page, path, p.rows);
        assert.equal(await overflow(page), 0, `${path} scrolls sideways`);
        assert.deepEqual(await clipped(page, p.rows), [], path);
        // Cards: the column names are on the cells, the header row is hidden.
        const display = await page
          .locator(p.rows)
          .first()
          .evaluate((el) => getComputedStyle(el).display);
        assert.equal(display, 'block', `${path} rows are cards`);
        await screenshot(page, `responsive-mobile-${scheme}-${p.name}`);
      }
      const hub = page.locator('[data-hub-state="Connected"]');
      await hub.waitFor();
      const dot = await hub.boundingBox();
      assert.ok(dot && dot.width >= 10 && dot.width <= 30, `the live dot is a dot: ${JSON.stringify(dot)}`);
      assert.equal(await hub.getAttribute('aria-label'), 'Live updates: Connected');
      assert.deepEqual(errors, []);
      await context.close();
    });

    it(`at 1366 px (${scheme}) the lists stay tables`, async () => {
      const { page, context, errors } = await newContext(browser, server.baseUrl, {
        width: 1366,
        height: 900,
        colorScheme: scheme,
      });
      await signIn(page, user);
      for (const p of PAGES) {
        const path = typeof p.path === 'function' ? p.path() : p.path;
        await open(page, path, p.rows);
        const display = await page
          .locator(p.rows)
          .first()
          .evaluate((el) => getComputedStyle(el).display);
        assert.equal(display, 'table-row', `${path} rows are table rows`);
        assert.deepEqual(await clipped(page, p.rows), [], path);
        await screenshot(page, `responsive-desktop-${scheme}-${p.name}`);
      }
      await page.getByText('Connected', { exact: true }).waitFor();
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
});
