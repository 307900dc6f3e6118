import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from '../lib/test';
import type { Browser, Page } from 'playwright-core';
import { appReady, pathOf, registerViaApi, signIn, type TestUser } from '../lib/app';
import { launchBrowser, newContext, screenshot } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';

let server: RunningServer;
let browser: Browser;
let user: TestUser;
let receiver: Server;
let hookUrl = '';
const received: string[] = [];

before(async () => {
  // The webhook receiver of this spec listens on 127.0.0.1 (the SSRF guard is off for it).
  server = await startServer({
    SIMULATOR_MIX: 'DELIVRD=100',
    SIMULATOR_DELAY_MS: '100',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  browser = await launchBrowser();
  user = await registerViaApi(server.baseUrl);
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(body);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise<void>((r) => receiver?.close(() => r()));
});

const VIEWPORT = { width: 1280, height: 1000 };

/** Badges whose word is cut short (an ellipsis in a squeezed column), and visible "Actions" headers. */
async function cutOrStray(page: Page) {
  return page.evaluate(() => [
    ...[...document.querySelectorAll<HTMLElement>('.mantine-Badge-label')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => `badge cut: ${el.textContent}`),
    ...[...document.querySelectorAll<HTMLElement>('th')]
      .filter((th) => th.textContent === 'Actions' && th.getBoundingClientRect().width > 0)
      .filter((th) => [...th.querySelectorAll<HTMLElement>('*')].some((e) => e.offsetWidth > 2))
      .map(() => 'an "Actions" header is visible'),
  ]);
}

async function settled(page: Page) {
  await appReady(page);
  await page.mouse.move(0, 0);
  await page.waitForTimeout(400);
}

const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
const opaque = (c: number[]) => c.length === 3 || (c[3] ?? 0) > 0.9;
const luminance = (c: number[]) =>
  c
    .slice(0, 3)
    .map((v) => v / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i]!, 0);
const ratio = (a: number[], b: number[]) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

/**
 * WCAG contrast of an element's text on its background (the first opaque one up its ancestors), and
 * whether that background is at least as light as the surface it sits on.
 */
async function contrastOf(page: Page, selector: string, text: string) {
  const { color, backgrounds } = await page.evaluate(
    ([sel, label]) => {
      const el = [...document.querySelectorAll(sel)].find((e) => e.textContent?.trim() === label);
      if (!el) throw new Error(`no ${sel} with text ${label}`);
      const backgrounds: string[] = [];
      for (let e: Element | null = el; e; e = e.parentElement)
        backgrounds.push(getComputedStyle(e).backgroundColor);
      return { color: getComputedStyle(el).color, backgrounds };
    },
    [selector, text] as const,
  );
  const layers = backgrounds.map(rgb);
  const own = layers.findIndex(opaque);
  const bg = own >= 0 ? layers[own]! : [255, 255, 255];
  const surface = layers.slice(own + 1).find(opaque) ?? [255, 255, 255];
  return { text: ratio(rgb(color), bg), lighterThanSurface: luminance(bg) >= luminance(surface) };
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

let secret = '';
let keyId = '';

describe('API keys', () => {
  it('create (secret once, copy) → call /v1 with it → list, view, report with the webhook log and replay', async () => {
    const { page, context } = await newContext(browser, server.baseUrl, VIEWPORT);
    page.setDefaultTimeout(90_000); // the shared CI machine can be slow
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, user);
    await page.goto('/api');
    await page.getByText('No API keys yet').waitFor();
    await settled(page);
    await screenshot(page, 'api-light-list-empty');

    await page.getByRole('link', { name: 'Create API key' }).first().click();
    await page.waitForURL('**/api/create');
    await page.getByRole('textbox', { name: 'Name' }).fill('Order system');
    await page.getByRole('textbox', { name: 'Default delivery webhook URL' }).fill(hookUrl);
    await page.getByRole('combobox', { name: 'Allowed IP addresses' }).fill('127.0.0.1');
    await page.keyboard.press('Enter');
    await settled(page);
    await screenshot(page, 'api-light-create');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const shown = page.getByTestId('api-key-secret');
    await shown.waitFor();
    secret = (await shown.innerText()).trim();
    assert.match(secret, /^wren_live_[0-9A-Za-z]{40}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
    await settled(page);
    await screenshot(page, 'api-light-created-secret');

    // The key works on /v1 (the peer-bench shape), and its final status reaches the webhook.
    const res = await fetch(`${server.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to: user.phone, text: 'Hello from the API' }),
    });
    assert.equal(res.status, 202);
    const messageId = ((await res.json()) as { data: { id: string }[] }).data[0]!.id;
    const until = Date.now() + 60_000;
    while (!received.length && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    if (!received.length) {
      const m = await fetch(`${server.baseUrl}/v1/messages/${messageId}`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      assert.fail(`no delivery webhook; the message: ${await m.text()}`);
    }
    assert.equal(received.length, 1, 'the delivery webhook arrived once');
    assert.match(received[0]!, /"status":"delivered"/);

    await page.getByRole('button', { name: /I have copied it/ }).click();
    await page.waitForURL(/\/api\/[0-9a-f-]{36}\/view$/);
    keyId = pathOf(page).split('/')[2] ?? '';
    // The router changes the address first and keeps the create page up while the view page's code
    // loads (a transition); once the view page shows, the secret is never shown again.
    await page.getByText('127.0.0.1', { exact: false }).first().waitFor();
    assert.equal(await page.getByTestId('api-key-secret').count(), 0);
    await settled(page);
    await screenshot(page, 'api-light-view');

    await page.goto('/api');
    const row = page.getByRole('row', { name: /Order system/ });
    await row.waitFor();
    assert.match(await row.innerText(), /wren_live_/);
    assert.match(await row.innerText(), /active/i);
    await settled(page);
    assert.deepEqual(await cutOrStray(page), []);
    await screenshot(page, 'api-light-list');

    await page.goto(`/api/${keyId}/report`);
    await page.getByText('Webhook deliveries').waitFor();
    await page.getByRole('cell', { name: '204' }).first().waitFor();
    await settled(page);
    assert.deepEqual(await cutOrStray(page), []);
    await screenshot(page, 'api-light-report');
    await page
      .getByRole('button', { name: /^Replay/ })
      .first()
      .click();
    await page.getByText(/Delivered again: HTTP 204/).waitFor();
    assert.equal(received.length, 2, 'the replay arrived');

    await page.goto(`/api/${keyId}/edit`);
    const name = page.getByRole('textbox', { name: 'Name' });
    await name.waitFor();
    assert.equal(await name.inputValue(), 'Order system');
    await name.fill('Order system (prod)');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`**/api/${keyId}/view`);
    await page.getByRole('heading', { name: 'Order system (prod)' }).waitFor();

    // Revoke asks first; the key stops working.
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog', { name: 'Revoke API key' }).waitFor();
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('Revoked', { exact: true }).first().waitFor();
    const refused = await fetch(`${server.baseUrl}/v1/balance`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    assert.equal(refused.status, 401);
  });

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

      if (colorScheme === 'dark') {
        await page.goto('/api');
        await page.getByRole('row', { name: /Order system/ }).waitFor();
        await settled(page);
        // The revoked key's badge: legible text on a badge that does not sink below the card.
        const revoked = await contrastOf(page, '.mantine-Badge-root', 'Revoked');
        assert.ok(revoked.text >= 4.5, `Revoked badge text contrast ${revoked.text.toFixed(2)}`);
        assert.ok(revoked.lighterThanSurface, 'the Revoked badge is not darker than the card it is on');
        await screenshot(page, 'api-dark-list');
        await page.goto(`/api/${keyId}/report`);
        await page.getByText('Webhook deliveries').waitFor();
        await settled(page);
        await screenshot(page, 'api-dark-report');
      }
    }
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

  it('an unknown key id: "does not exist" with the way back to the list', async () => {
    const { page } = await newContext(browser, server.baseUrl, VIEWPORT);
    page.setDefaultTimeout(90_000);
    await signIn(page, user);
    for (const action of ['view', 'edit', 'report']) {
      await page.goto(`/api/${randomUUID()}/${action}`);
      await appReady(page);
      await page.getByText('This API key does not exist (or was deleted)').waitFor();
      const back = page.getByRole('link', { name: 'Back to API keys' });
      assert.ok(await back.isVisible(), `${action}: a visible way back`);
      if (action === 'report') {
        await back.click();
        await page.waitForURL((url) => url.pathname === '/api');
        await page.getByRole('row', { name: /Order system/ }).waitFor();
      }
    }
    // The list's times use the same format as the other API screens.
    const lastUsed = await page.getByRole('row', { name: /Order system/ }).innerText();
    assert.match(lastUsed, DATE_TIME);
  });
});
