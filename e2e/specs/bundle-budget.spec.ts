import assert from 'node:assert/strict';
import { after, before, describe, it } from '../lib/test';
import type { Browser } from 'playwright-core';
import {
  COLD_DASHBOARD_BUDGET_GZIP,
  coldDashboardChunks,
  gzipSize,
  readManifest,
} from '../../apps/web/build/cold-load';
import { appReady, newUser, registerViaApi, signIn } from '../lib/app';
import { launchBrowser, newContext } from '../lib/browser';
import { WEB_DIST } from '../lib/paths';
import { startServer, type RunningServer } from '../lib/server';

let server: RunningServer;
let browser: Browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('bundle budget in the browser', () => {
  it('a cold /dashboard loads exactly the JS the budget test counts, within the budget', async () => {
    const user = await registerViaApi(server.baseUrl, newUser());
    const signedIn = await newContext(browser, server.baseUrl);
    await signIn(signedIn.page, user);
    const storageState = await signedIn.context.storageState();
    await signedIn.context.close();

    // A fresh context: an empty HTTP cache, the session in localStorage.
    const context = await browser.newContext({
      baseURL: server.baseUrl,
      viewport: { width: 1366, height: 900 },
      storageState,
    });
    const page = await context.newPage();
    await page.goto('/dashboard');
    await appReady(page);
    // The hub's library loads with its first connection: wait for it, then for quiet.
    await page.locator('[data-hub-state="Connected"]').waitFor({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    const loaded = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => new URL(entry.name).pathname)
        .filter((pathname) => pathname.endsWith('.js'))
        .map((pathname) => pathname.slice(1)),
    );
    await context.close();

    const counted = coldDashboardChunks(readManifest(WEB_DIST));
    assert.deepEqual([...new Set(loaded)].sort(), counted, 'the browser loads what the budget counts');
    const total = counted.reduce((n, file) => n + gzipSize(WEB_DIST, file), 0);
    assert.ok(
      total <= COLD_DASHBOARD_BUDGET_GZIP,
      `cold /dashboard JS ${(total / 1024).toFixed(1)} KB gzip > ${COLD_DASHBOARD_BUDGET_GZIP / 1024} KB`,
    );
  });
});
