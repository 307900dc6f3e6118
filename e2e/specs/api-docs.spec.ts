import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from '../lib/test';
import type { Browser, Page } from 'playwright-core';
import { apiCall, appReady, registerViaApi, signIn, type TestUser } from '../lib/app';
import { launchBrowser, newContext, screenshot } from '../lib/browser';
import { contrastOf } from '../lib/contrast';
import { startServer, type RunningServer } from '../lib/server';

// The API's documentation screens: the API reference (/api/doc), API detail and the quick start;
// the API key screens are in api-keys.spec.ts.

let server: RunningServer;
let sendKey = '';
let browser: Browser;
let user: TestUser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  user = await registerViaApi(server.baseUrl);
  // One call with a key, so API detail has a last call to show.
  const login = await apiCall(server.baseUrl, 'POST', '/api/auth/login', {
    username: user.username,
    password: user.password,
  });
  const token = String(login.body?.accessToken);
  const created = await apiCall(
    server.baseUrl,
    'POST',
    '/api/api-keys',
    { name: 'Docs', scopes: ['balance:read'] },
    token,
  );
  assert.equal(created.status, 201, `create key: ${JSON.stringify(created.body)}`);
  const balance = await fetch(`${server.baseUrl}/v1/balance`, {
    headers: { authorization: `Bearer ${String(created.body?.secret)}` },
  });
  assert.equal(balance.status, 200, `the key's first call: ${await balance.text()}`);
  const sender = await apiCall(
    server.baseUrl,
    'POST',
    '/api/api-keys',
    { name: 'Curl', scopes: ['sms:send'] },
    token,
  );
  assert.equal(sender.status, 201, JSON.stringify(sender.body));
  sendKey = String(sender.body?.secret);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const VIEWPORT = { width: 1280, height: 1000 };

async function settled(page: Page) {
  await appReady(page);
  await page.mouse.move(0, 0);
  await page.waitForTimeout(400);
}

/** Buttons whose box leaves the viewport or whose label is cut short. */
const cutButtons = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main button, main a.mantine-Button-root')]
      .filter((b) => b.getBoundingClientRect().width > 0)
      .flatMap((b) => {
        const r = b.getBoundingClientRect();
        const label = b.querySelector<HTMLElement>('.mantine-Button-label');
        const out: string[] = [];
        if (r.left < 0 || r.right > window.innerWidth) out.push(`${b.textContent} off-screen`);
        if (label && label.scrollWidth > label.clientWidth + 1) out.push(`${b.textContent} cut`);
        return out;
      }),
  );

/** Text nodes of the reference's table codes that wrap inside (a word broken mid-way). */
const brokenCodes = (page: Page) =>
  page.getByTestId('api-reference').evaluate((root) =>
    [...root.querySelectorAll('.markdown table code')].flatMap((code) =>
      [...code.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent)
        .filter((n) => {
          const range = document.createRange();
          range.selectNodeContents(n);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
        })
        .map((n) => `${code.textContent}: "${n.textContent}" wraps`),
    ),
  );

const DATE_TIME = /\b\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}\b/;

describe('API documentation', () => {
  it('API reference, API detail and quick start, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page } = await newContext(browser, server.baseUrl, { ...VIEWPORT, colorScheme });
      page.setDefaultTimeout(90_000);
      await signIn(page, user);
      await page.goto('/api/doc');
      const reference = page.getByTestId('api-reference');
      await reference.getByText('Send an SMS').first().waitFor({ timeout: 90_000 });
      await settled(page);
      // No AI chat or MCP generator, and the reference scrolls in its own frame: the page is no
      // taller than the window plus the footer (it was ~8,700 px of mostly empty space).
      assert.equal(await page.getByText(/Ask AI/).count(), 0);
      assert.equal(await page.getByText(/Generate MCP/).count(), 0);
      const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
      assert.ok(pageHeight < VIEWPORT.height + 200, `page height ${pageHeight}`);
      await screenshot(page, `api-${colorScheme}-doc`);

      await page.goto('/profile/api-detail');
      await page.getByText('Signing secret').waitFor();
      const base = await page.getByText(`${server.baseUrl}/v1`).first().innerText();
      assert.equal(base, `${server.baseUrl}/v1`);
      // The last call reads like every other time on the API screens: "29 Nov 2026, 14:05 from …".
      const lastCall = await page.getByText(/from 127\.0\.0\.1/).innerText();
      assert.match(lastCall, new RegExp(`^${DATE_TIME.source} from 127\\.0\\.0\\.1`));
      // In the dark scheme a disabled button (Save, nothing changed) stays legible (≥ 3:1).
      if (colorScheme === 'dark') {
        const save = await contrastOf(page, 'button:disabled', 'Save');
        assert.ok(save.text >= 3, `disabled Save contrast ${save.text.toFixed(2)}`);
      }
      await settled(page);
      await screenshot(page, `api-${colorScheme}-detail`);

      await page.goto('/profile/api-doc');
      // The meanings' `code` spans are <code>, with no raw backtick.
      const errorTable = page.getByRole('table', { name: 'Error codes' });
      await errorTable.getByRole('row', { name: /parameter_invalid/ }).waitFor();
      assert.doesNotMatch(await errorTable.innerText(), /`/);
      assert.equal(
        await errorTable
          .getByRole('row', { name: /parameter_invalid/ })
          .locator('code', { hasText: /^param$/ })
          .count(),
        1,
      );
      await page.getByRole('tab', { name: 'Python' }).click();
      await page.getByText(`${server.baseUrl}/v1/messages`).first().waitFor();
      await settled(page);
      await screenshot(page, `api-${colorScheme}-quick-start`);
    }
  });

  it("the quick start's curl sample runs on a bare Debian (no uuidgen) and sends a fresh Idempotency-Key", async () => {
    // Issue 47 item 3: "$(uuidgen)" is empty where uuidgen is missing, and the send then had no key.
    const { page, context } = await newContext(browser, server.baseUrl, VIEWPORT);
    await signIn(page, user);
    await page.goto('/profile/api-doc');
    await appReady(page);
    const sample = await page.getByRole('region', { name: 'Send an SMS in curl' }).innerText();
    await context.close();
    assert.match(sample, /^curl /m);
    // uuidgen made absent even where it is installed; curl records what it was given.
    const script = `uuidgen() { echo "uuidgen: command not found" >&2; return 127; }
curl() { printf '%s\\n' "$@" > "$ARGS"; command curl -s -o /dev/null -w '%{http_code}' "$@"; }
${sample}`;
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) {
      const args = `/tmp/curl-args-${process.pid}-${i}`;
      const status = execFileSync('bash', ['-c', script], {
        env: { PATH: process.env.PATH, WREN_API_KEY: sendKey, ARGS: args },
        encoding: 'utf8',
      });
      assert.equal(status, '202');
      const header = execFileSync('cat', [args], { encoding: 'utf8' })
        .split('\n')
        .find((a) => a.startsWith('Idempotency-Key:'));
      assert.match(header ?? '', /^Idempotency-Key: [0-9a-f]{32}$/);
      keys.push(header!);
    }
    assert.notEqual(keys[0], keys[1], 'a new key for each request');
  });

  it('API reference: a loading state until it renders, no key filled in, codes wrap only at underscores', async () => {
    const { page } = await newContext(browser, server.baseUrl, { width: 375, height: 812 });
    page.setDefaultTimeout(90_000);
    await signIn(page, user);
    // The document comes late: the script is there, the reference is not rendered yet.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/v1/openapi.json', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/api/doc');
    await appReady(page);
    await page.waitForFunction(() => 'Scalar' in window);
    const loading = page.getByTestId('api-reference-loading');
    assert.ok(await loading.isVisible(), 'the loading state shows while the reference renders');
    assert.match(await loading.innerText(), /Loading the API reference…/);
    const box = await loading.boundingBox();
    const frame = await page.getByTestId('api-reference').boundingBox();
    assert.ok(box && frame && box.y >= frame.y - 1 && box.y < frame.y + frame.height, 'in the frame');
    release();
    const reference = page.getByTestId('api-reference');
    await reference.locator('h1').first().waitFor();
    await loading.waitFor({ state: 'detached' });

    // The try-it console: no key filled in, and the page says what to paste.
    await page
      .getByText('Paste one of your API keys (shown once when created) into Authentication')
      .waitFor();
    const values = await reference.evaluate((el) =>
      [...el.querySelectorAll('input')].map((i) => i.value).filter((v) => /wren_live_/.test(v)),
    );
    assert.deepEqual(values, [], "no key in the reference's fields");

    // The error codes at 375 px: no code broken mid-word, the page does not scroll sideways.
    await reference.locator('.markdown table code').first().waitFor();
    assert.deepEqual(await brokenCodes(page), []);
    assert.ok(
      (await reference.locator('.markdown table wbr').count()) > 0,
      'long codes may wrap after an underscore',
    );
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
  });

  it('at 375 px, API detail and the quick start fit: Copy buttons whole, nothing cut off', async () => {
    const { page } = await newContext(browser, server.baseUrl, { width: 375, height: 812 });
    page.setDefaultTimeout(90_000);
    await signIn(page, user);
    for (const path of ['/profile/api-detail', '/profile/api-doc']) {
      await page.goto(path);
      await appReady(page);
      await page.getByRole('button', { name: /^Copy/ }).first().waitFor();
      await settled(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${path} scrolls sideways by ${overflow}px`);
      assert.deepEqual(await cutButtons(page), [], path);
      if (path === '/profile/api-doc') {
        // Every cell of the error table is inside the screen.
        const outside = await page
          .getByRole('table', { name: 'Error codes' })
          .evaluate((t) =>
            [...t.querySelectorAll('td')]
              .filter((td) => td.getBoundingClientRect().right > window.innerWidth + 0.5)
              .map((td) => td.textContent),
          );
        assert.deepEqual(outside, []);
        // A code sample wider than the screen scrolls inside its block, with a visible scrollbar.
        const bar = page
          .locator('.mantine-ScrollArea-scrollbar[data-orientation="horizontal"][data-state="visible"]')
          .first();
        await bar.waitFor();
        const barBox = await bar.boundingBox();
        assert.ok(barBox && barBox.width > 0 && barBox.height > 0, 'a visible scrollbar under the sample');
      }
      await screenshot(page, `api-mobile-${path.split('/').pop()}`);
    }
  });
});
