import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { after, before, describe, it } from '../lib/test';
import { launchBrowser, newContext } from '../lib/browser';
import { checkPageHealth, expectProblems } from '../lib/page-health';
import { E2E_DIR } from '../lib/paths';

/** The checks every test runs (lib/page-health), proven on a fake site: no server needed. */

const SITE = 'http://wren.test';
let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

/** A context on the fake site: `/` is a blank page, `/api/refused` is refused, `/api/boom` is a 500. */
async function fakeSite(html = '<h1>Fake</h1>'): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await newContext(browser, SITE);
  await context.route(`${SITE}/**`, async (route) => {
    const { pathname } = new URL(route.request().url());
    if (pathname === '/api/refused') return route.abort('connectionrefused');
    if (pathname === '/api/boom') return route.fulfill({ status: 500, body: 'Internal failure' });
    if (pathname === '/api/missing') return route.fulfill({ status: 404, body: 'Not found' });
    if (pathname === '/api/slow') {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      return route.fulfill({ status: 200, body: 'late' }).catch(() => undefined);
    }
    return route.fulfill({ status: 200, contentType: 'text/html', body: html });
  });
  await page.goto('/');
  return { context, page };
}

const fetchIn = (page: Page, url: string) =>
  page.evaluate(
    (u) =>
      fetch(u).then(
        (r) => r.status,
        () => 'failed',
      ),
    url,
  );

describe('page health (every test fails on page errors, failed requests and 5xx responses)', () => {
  it('fails a test whose page throws an uncaught error', async () => {
    const { context, page } = await fakeSite();
    await assert.rejects(
      checkPageHealth(async () => {
        await Promise.all([
          page.waitForEvent('pageerror'),
          page.evaluate(() =>
            setTimeout(() => {
              throw new Error('boom from the page');
            }),
          ),
        ]);
      }),
      /1 page problem\(s\) during the test:\n {2}- pageerror: boom from the page/,
    );
    await context.close();
  });

  it('fails a test with a failed request, and one with a 5xx response', async () => {
    const { context, page } = await fakeSite();
    await assert.rejects(
      checkPageHealth(async () => {
        await Promise.all([context.waitForEvent('requestfailed'), fetchIn(page, '/api/refused')]);
      }),
      /requestfailed: GET http:\/\/wren\.test\/api\/refused \(net::ERR_CONNECTION_REFUSED\)/,
    );
    await assert.rejects(
      checkPageHealth(async () => {
        await Promise.all([context.waitForEvent('response'), fetchIn(page, '/api/boom')]);
      }),
      /HTTP 500: GET http:\/\/wren\.test\/api\/boom/,
    );
    await context.close();
  });

  it('passes a healthy test: 4xx answers and requests the page cancels itself are not problems', async () => {
    const { context, page } = await fakeSite();
    await checkPageHealth(async () => {
      assert.equal(await fetchIn(page, '/api/missing'), 404);
      const aborted = await page.evaluate(async () => {
        const controller = new AbortController();
        const pending = fetch('/api/slow', { signal: controller.signal }).catch((e: Error) => e.name);
        setTimeout(() => controller.abort(), 100);
        return pending;
      });
      assert.equal(aborted, 'AbortError');
    });
    await context.close();
  });

  it('lets a test expect problems it causes on purpose, in that context only', async () => {
    const { context, page } = await fakeSite();
    const other = await fakeSite();
    expectProblems(context, /ERR_CONNECTION_REFUSED/);
    await checkPageHealth(async () => {
      await Promise.all([context.waitForEvent('requestfailed'), fetchIn(page, '/api/refused')]);
    });
    await assert.rejects(
      checkPageHealth(async () => {
        await Promise.all([other.context.waitForEvent('requestfailed'), fetchIn(other.page, '/api/refused')]);
      }),
      /ERR_CONNECTION_REFUSED/,
    );
    await context.close();
    await other.context.close();
  });

  it('adds the page problems to the message of a test that failed anyway', async () => {
    const { context, page } = await fakeSite();
    await assert.rejects(
      checkPageHealth(async () => {
        await Promise.all([context.waitForEvent('response'), fetchIn(page, '/api/boom')]);
        assert.equal(await page.locator('h1').innerText(), 'Something else');
      }),
      (error: Error) => /Something else/.test(error.message) && /HTTP 500: GET/.test(error.message),
    );
    await context.close();
  });

  it('is used by every spec: tests come from lib/test, never straight from node:test', async () => {
    const specs = readdirSync(path.join(E2E_DIR, 'specs')).filter((f) => f.endsWith('.spec.ts'));
    assert.ok(specs.length > 5, specs.join(', '));
    for (const file of specs) {
      const source = readFileSync(path.join(E2E_DIR, 'specs', file), 'utf8');
      assert.doesNotMatch(source, /^import .* from 'node:test';$/m, `${file} imports node:test directly`);
      assert.match(
        source,
        /import \{[^}]*\bit\b[^}]*\} from '\.\.\/lib\/test'/,
        `${file} uses lib/test's it`,
      );
    }
  });
});
