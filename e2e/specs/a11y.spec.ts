import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { after, before, describe, it } from '../lib/test';
import { appReady, registerViaApi, signIn, type TestUser } from '../lib/app';
import { describeViolations, seriousViolations, type AxeViolation } from '../lib/axe';
import { launchBrowser, newContext } from '../lib/browser';
import { APP_PAGES, AUTH_PAGES } from '../lib/pages';
import { startServer, type RunningServer } from '../lib/server';

/** axe-core on every working route (issue #15): no serious or critical violations. */

let server: RunningServer;
let browser: Browser;
let user: TestUser;

before(async () => {
  server = await startServer({ CAPTCHA: 'false' });
  browser = await launchBrowser();
  user = await registerViaApi(server.baseUrl);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('accessibility (axe-core)', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`every signed-in page and the 404 page (${scheme}): no serious or critical violations`, async () => {
      const { page, context } = await newContext(browser, server.baseUrl, {
        width: 1366,
        height: 900,
        colorScheme: scheme,
      });
      await signIn(page, user);
      const found: string[] = [];
      for (const path of [...APP_PAGES, '/404']) {
        await page.goto(path);
        await appReady(page);
        await page.waitForLoadState('networkidle');
        const vs: AxeViolation[] = await seriousViolations(page);
        if (vs.length) found.push(describeViolations(path, vs));
      }
      await context.close();
      assert.deepEqual(found, [], found.join('\n'));
    });
  }

  it('the visitor pages, at 390 px too: no serious or critical violations', async () => {
    const found: string[] = [];
    for (const width of [1366, 390]) {
      const { page, context } = await newContext(browser, server.baseUrl, { width, height: 844 });
      for (const path of AUTH_PAGES) {
        await page.goto(path);
        await appReady(page);
        const vs = await seriousViolations(page);
        if (vs.length) found.push(describeViolations(`${path} @${width}`, vs));
      }
      await context.close();
    }
    assert.deepEqual(found, [], found.join('\n'));
  });
});
