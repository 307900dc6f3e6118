import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from '../lib/test';
import type { Browser, Page } from 'playwright-core';
import { appReady, registerViaApi, signIn, type TestUser } from '../lib/app';
import { describeViolations, seriousViolations } from '../lib/axe';
import { launchBrowser, newContext, screenshot } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';

// SMPP accounts in the browser (issue 37 item 2): a developer's account creates one, sees its
// password once, the list shows it, and a real SMPP client (the `smpp` npm package) binds with that
// password and shows up in the account's live binds.
const require = createRequire(import.meta.url);
const smpp = require('smpp') as {
  connect: (options: { url: string }) => SmppSession;
};
interface SmppSession {
  on: (event: string, fn: (...args: unknown[]) => void) => void;
  bind_transceiver: (pdu: object, cb: (pdu: { command_status: number }) => void) => void;
  unbind: (pdu?: object, cb?: () => void) => void;
  close: () => void;
}

let server: RunningServer;
let browser: Browser;
let user: TestUser;
let smppPort = 0;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

before(async () => {
  smppPort = await freePort();
  server = await startServer({ SMPP_SERVER_PORT: String(smppPort), SMPP_SERVER_TLS_PORT: 'off' });
  browser = await launchBrowser();
  user = await registerViaApi(server.baseUrl);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function settled(page: Page) {
  await appReady(page);
  await page.mouse.move(0, 0);
  await page.waitForTimeout(400);
}

/** Nothing on the page wider than the window (no sideways scroll on a phone). */
async function noSidewaysScroll(page: Page, what: string) {
  const width = page.viewportSize()?.width ?? 0;
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollWidth <= width, `${what}: no sideways scroll at ${width}px (content is ${scrollWidth}px)`);
}

function bindWith(systemId: string, password: string): Promise<{ status: number; session: SmppSession }> {
  return new Promise((resolve, reject) => {
    const session = smpp.connect({ url: `smpp://127.0.0.1:${smppPort}` });
    session.on('error', (e) => reject(e as Error));
    session.on('connect', () =>
      session.bind_transceiver({ system_id: systemId, password }, (pdu) =>
        resolve({ status: pdu.command_status, session }),
      ),
    );
  });
}

let password = '';
let viewUrl = '';

describe('SMPP accounts', () => {
  it('create in the browser → the password once → the list shows it → a client binds and is listed live', async () => {
    const { page } = await newContext(browser, server.baseUrl, { width: 1280, height: 1000 });
    page.setDefaultTimeout(90_000);
    await signIn(page, user);
    await page.goto('/api');
    await appReady(page);
    await page.getByRole('link', { name: 'SMPP accounts' }).click();
    await page.waitForURL('**/api/smpp');
    await page.getByText('No SMPP accounts yet').waitFor();
    await page.getByTestId('smpp-server-endpoints').getByText(`127.0.0.1:${smppPort}`).waitFor();
    await settled(page);
    await screenshot(page, 'smpp-light-list-empty');

    await page.getByRole('link', { name: 'Create SMPP account' }).first().click();
    await page.waitForURL('**/api/smpp/create');
    // The schema's messages first: a bad system_id and no name.
    await page.getByRole('textbox', { name: 'System ID' }).fill('a!');
    await page.getByRole('button', { name: 'Create SMPP account' }).click();
    await page.getByText('3 to 15 letters, digits, dots, dashes or underscores').waitFor();
    await page.getByText('Name the SMPP account').waitFor();
    await settled(page);
    await screenshot(page, 'smpp-light-create-errors');

    const systemId = `e2e${Date.now().toString(36).slice(-8)}`;
    await page.getByRole('textbox', { name: 'System ID' }).fill(systemId);
    await page.getByRole('textbox', { name: 'Name' }).fill('Kannel box');
    await page.getByRole('combobox', { name: 'Allowed IP addresses' }).fill('127.0.0.1');
    await page.keyboard.press('Enter');
    await page.getByRole('radio', { name: 'Hex (1E240)' }).check();
    await page.getByRole('button', { name: 'Create SMPP account' }).click();
    const shown = page.getByTestId('smpp-password');
    await shown.waitFor();
    password = (await shown.innerText()).trim();
    assert.match(password, /^\S{8}$/, 'an 8-character SMPP password');
    await page.getByTestId('smpp-server-endpoints').getByText(`127.0.0.1:${smppPort}`).waitFor();
    await settled(page);
    await screenshot(page, 'smpp-light-created-password');

    await page.getByRole('button', { name: 'I have copied it: view the account' }).click();
    await page.waitForURL(/\/api\/smpp\/[0-9a-f-]{36}$/);
    viewUrl = new URL(page.url()).pathname;
    await page.getByText('Nothing is bound with').waitFor();
    assert.equal(await page.getByTestId('smpp-password').count(), 0, 'the password is not shown again');
    assert.ok(!(await page.content()).includes(password), 'the password is nowhere on the account page');

    await page.goto('/api/smpp');
    const row = page.getByRole('row').filter({ hasText: systemId });
    await row.waitFor();
    assert.match(await row.innerText(), /Kannel box[\s\S]*Active[\s\S]*0 \/ 2/i);
    await settled(page);
    await screenshot(page, 'smpp-light-list');

    // A real SMPP client binds with the password the page showed; the account's page lists it.
    const wrong = await bindWith(systemId, 'wrongpw1');
    assert.equal(wrong.status, 0x0e, 'a wrong password is ESME_RINVPASWD');
    wrong.session.close();
    const bound = await bindWith(systemId, password);
    assert.equal(bound.status, 0, 'the shown password binds');
    try {
      await page.goto(viewUrl);
      const binds = page.getByRole('table', { name: 'Live binds' });
      await binds.waitFor({ timeout: 20_000 });
      const text = await binds.innerText();
      assert.match(text, /127\.0\.0\.1/);
      assert.match(text, /Transceiver/);
      await settled(page);
      await screenshot(page, 'smpp-light-view-bound');
    } finally {
      bound.session.close();
    }
  });

  it('dark and 390 px: list, create, the account page and the docs, without serious axe violations', async () => {
    for (const [name, options] of [
      ['dark', { colorScheme: 'dark' as const, width: 1280, height: 900 }],
      ['mobile', { width: 390, height: 844 }],
    ] as const) {
      const { page } = await newContext(browser, server.baseUrl, options);
      page.setDefaultTimeout(90_000);
      await signIn(page, user);
      for (const [path, file] of [
        ['/api/smpp', 'list'],
        ['/api/smpp/create', 'create'],
        [viewUrl, 'view'],
        ['/api/doc/smpp', 'doc'],
      ] as const) {
        await page.goto(path);
        await appReady(page);
        await page.locator('h1').first().waitFor();
        if (file === 'view') await page.getByText('Live binds').first().waitFor();
        if (file === 'doc') await page.getByRole('heading', { name: 'Delivery receipts' }).waitFor();
        await settled(page);
        await noSidewaysScroll(page, `${name} ${path}`);
        const violations = await seriousViolations(page);
        assert.equal(violations.length, 0, describeViolations(`${name} ${path}`, violations));
        await screenshot(page, `smpp-${name}-${file}`);
      }
      if (name === 'mobile') {
        // Keyboard: the rotate confirm opens with Cancel focused, and Escape closes it.
        await page.goto(viewUrl);
        await appReady(page);
        await page.getByRole('button', { name: 'Rotate password' }).focus();
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: 'Rotate password' });
        await dialog.waitFor();
        assert.equal(
          await page.evaluate(() => document.activeElement?.textContent),
          'Cancel',
          'Cancel has the focus',
        );
        await settled(page);
        await screenshot(page, 'smpp-mobile-rotate-confirm');
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
      }
      await page.context().close();
    }
  });
});
