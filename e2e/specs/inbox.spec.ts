import assert from 'node:assert/strict';
import { parseMix, startSmsc, type SmscHandle } from '@wren/smsc-simulator';
import type { Browser } from 'playwright-core';
import { after, before, describe, it } from '../lib/test';
import { apiCall, appReady, newUser, signIn, type TestUser } from '../lib/app';
import { launchBrowser, newContext, screenshot } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';

/** The handset that replies; the account sends to it first, so its replies are the account's. */
const HANDSET = '+14155550188';

let smsc: SmscHandle;
let server: RunningServer;
let browser: Browser;
let user: TestUser;

before(async () => {
  // The SMSC runs in this process so the test can inject mobile-originated messages.
  smsc = await startSmsc({
    port: 0,
    host: '127.0.0.1',
    receiptDelayMs: 200,
    statMix: parseMix('DELIVRD=100'),
    credentials: [{ systemId: 'wren', password: 'wrenpass' }],
  });
  server = await startServer({
    SMSC_HOST: '127.0.0.1',
    SMSC_PORT: String(smsc.port),
    SMSC_SYSTEM_ID: 'wren',
    SMSC_PASSWORD: 'wrenpass',
    SMSC_BINDS: '1',
  });
  browser = await launchBrowser();
  user = newUser();
  const registered = await apiCall(server.baseUrl, 'POST', '/api/auth/register', {
    username: user.username,
    name: user.name,
    email: user.email,
    phone: user.phone,
    password: user.password,
  });
  assert.equal(registered.status, 201, JSON.stringify(registered.body));
  const token = String(registered.body?.accessToken);
  const sent = await apiCall(
    server.baseUrl,
    'POST',
    '/api/sms/single',
    { recipients: [HANDSET], text: 'Your table is ready. Reply STOP to opt out.' },
    token,
  );
  assert.equal(sent.status, 202, JSON.stringify(sent.body));
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await smsc?.close();
});

/** Waits until the gateway is bound to the SMSC (it binds in the background after start). */
async function sendMo(text: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const result = await smsc.sendMo({ from: HANDSET.slice(1), to: 'Wren', text });
      assert.ok(
        result.statuses.every((s) => s === 0),
        `MO not acknowledged: ${result.statuses.join(',')}`,
      );
      return;
    } catch (error) {
      if (Date.now() > deadline || !/no bound receiver/.test(String(error))) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

describe('Inbox', () => {
  it('shows an inbound SMS live, and a STOP reply lands in the suppressed numbers', async () => {
    const { context, page, errors } = await newContext(browser, server.baseUrl, {
      width: 1280,
      height: 1100,
    });
    try {
      await signIn(page, user);
      await page.goto('/reports/sms-log');
      await appReady(page);
      const inboxTab = page.getByRole('tab', { name: 'Inbox' });
      await page.getByRole('tab', { name: 'Sent' }).focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      // The switch renders asynchronously: wait for it rather than read the attribute at once.
      await page.locator('[role="tab"][aria-selected="true"]', { hasText: 'Inbox' }).waitFor();
      assert.equal(await inboxTab.getAttribute('aria-selected'), 'true');
      await page.waitForURL(/tab=inbox/);
      await page.getByText('No inbound messages yet').waitFor();
      await page.getByText('No suppressed numbers.').waitFor();

      // No reload: the hub's InboundSmsReceived push refreshes the inbox.
      await sendMo('Running 10 minutes late, sorry!');
      const table = page.getByRole('table', { name: 'Inbox' });
      const row = table.getByRole('row', { name: /Running 10 minutes late/ });
      await row.waitFor({ timeout: 10_000 });
      assert.match(await row.innerText(), /\+14155550188/);
      assert.match(await row.innerText(), /Wren/);

      await sendMo('stop');
      await table.getByRole('row', { name: /STOP/ }).waitFor({ timeout: 10_000 });
      const suppressed = page.getByRole('list', { name: 'Suppressed numbers' });
      await suppressed.getByText(HANDSET).waitFor({ timeout: 10_000 });
      await suppressed.getByText('Replied STOP').waitFor();
      await page.getByText('2 messages received').waitFor();

      await screenshot(page, 'inbox');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
