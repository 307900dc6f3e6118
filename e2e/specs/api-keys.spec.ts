import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from '../lib/test';
import type { Browser, Page } from 'playwright-core';
import { appReady, pathOf, registerViaApi, signIn, type TestUser } from '../lib/app';
import { launchBrowser, newContext, screenshot } from '../lib/browser';
import { contrastOf } from '../lib/contrast';
import { startServer, type RunningServer } from '../lib/server';

// The API key screens (list, create, view, edit, report, revoke) and the key on /v1; the API's
// documentation screens are in api-docs.spec.ts.
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

  it('in the dark scheme, the revoked key is legible in the list, and its report', async () => {
    const { page } = await newContext(browser, server.baseUrl, { ...VIEWPORT, colorScheme: 'dark' });
    page.setDefaultTimeout(90_000);
    await signIn(page, user);
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
