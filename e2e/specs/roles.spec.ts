import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { after, before, describe, it } from '../lib/test';
import { appReady, newUser, registerViaApi, signIn } from '../lib/app';
import { launchBrowser, newContext } from '../lib/browser';
import { memberViaApi } from '../lib/invites';
import { APP_PAGES } from '../lib/pages';
import { startServer, type RunningServer } from '../lib/server';

/**
 * Issue 39 item 2: "the web app hides what a role cannot do, and the server refuses it". A member
 * of each role that is not an admin visits every signed-in page: no page asks the server for
 * something the role may not have (no 403 at all), a page the role cannot use says so instead of
 * failing, and every entry of the role's menu opens a page the role can use.
 */

let server: RunningServer;
let browser: Browser;

before(async () => {
  server = await startServer({ CAPTCHA: 'false' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The menu's entries (hrefs), the Settings group opened. */
async function menu(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await nav.getByRole('link', { name: 'Dashboard' }).waitFor();
  const settings = nav.getByRole('button', { name: 'Settings' });
  if ((await settings.count()) && (await settings.getAttribute('aria-expanded')) === 'false') {
    await settings.click();
    await nav.locator('a[href^="/settings"], a[href="/sender-id"]').first().waitFor();
  }
  return nav.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
}

/** Opens `path` and waits until its requests have settled. */
async function visit(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await appReady(page);
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle').catch(() => undefined);
}

describe('roles in the browser', () => {
  const owner = newUser({ name: 'Owen Owner' });
  before(async () => {
    await registerViaApi(server.baseUrl, owner);
  });

  for (const role of ['analyst', 'billing', 'sender', 'developer']) {
    it(`the ${role} role visits every page: no 403, and a page it cannot use says so`, async () => {
      const member = await memberViaApi(server, owner, role);
      const { page } = await newContext(browser, server.baseUrl);
      const refused: string[] = [];
      page.on('response', (res) => {
        const url = new URL(res.url());
        if (res.status() === 403 && url.pathname.startsWith('/api/'))
          refused.push(`${res.request().method()} ${url.pathname} (on ${new URL(page.url()).pathname})`);
      });
      await signIn(page, member);
      const entries = await menu(page);
      assert.ok(entries.includes('/dashboard'), entries.join(' '));

      const blocked: string[] = [];
      for (const path of APP_PAGES) {
        await visit(page, path);
        if (await page.getByTestId('no-permission').isVisible()) blocked.push(path);
      }
      // Every menu entry opens a page the role can use.
      for (const href of entries) {
        await visit(page, href);
        assert.equal(
          await page.getByTestId('no-permission').count(),
          0,
          `${role}: the menu's ${href} says the role cannot use it`,
        );
      }
      assert.deepEqual(refused, [], `${role}: requests the server refused`);
      // The check can tell: each of these roles lacks something (e.g. Team or API keys).
      assert.ok(blocked.length > 0, `${role}: no page was closed to it`);
      console.log(`${role}: menu ${entries.length} entries; closed to it: ${blocked.join(', ')}`);
    });
  }
});
