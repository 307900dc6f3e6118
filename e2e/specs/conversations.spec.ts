import assert from 'node:assert/strict';
import { parseMix, startSmsc, type SmscHandle } from '@wren/smsc-simulator';
import type { Browser, Page } from 'playwright-core';
import { after, before, describe, it } from '../lib/test';
import { apiCall, appReady, newUser, signIn, type TestUser } from '../lib/app';
import { launchBrowser, newContext, screenshot } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';

/** The handset that writes back; the account sends to it first, so its replies are the account's. */
const HANDSET = '+14155550177';

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
    { recipients: [HANDSET], text: 'Your table is ready. Can you confirm?' },
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

const openThread = async (page: Page) => {
  await page.goto('/messaging/conversations');
  await appReady(page);
  await page.getByTestId('conversation-list').getByText(HANDSET).first().click();
  await page.getByTestId('conversation-thread').waitFor();
};

describe('Conversations', () => {
  it('shows a reply live, opens the thread and answers it, desktop and 390 px, English and Arabic', async () => {
    const { context, page, errors } = await newContext(browser, server.baseUrl, { width: 1280, height: 900 });
    try {
      await signIn(page, user);
      await page.goto('/messaging/conversations');
      await appReady(page);
      await page.getByText('No conversations yet').waitFor();

      // No reload: the hub's InboundSmsReceived push refreshes the list.
      await sendMo('Yes, see you at eight');
      await page.getByTestId('conversation-list').getByText(HANDSET).waitFor({ timeout: 10_000 });
      await page.getByTestId('unread-total').waitFor();
      await openThread(page);
      const thread = page.getByTestId('conversation-thread');
      await thread.getByText('Yes, see you at eight').waitFor();
      await thread.getByText('Your table is ready. Can you confirm?').waitFor();
      await page.getByTestId('unread-total').waitFor({ state: 'detached', timeout: 10_000 });

      const box = thread.getByRole('textbox', { name: 'Reply' });
      await box.fill('Great, table 4 is yours');
      await box.press('Control+Enter');
      await thread.locator('[data-direction="out"]', { hasText: 'Great, table 4 is yours' }).waitFor({
        timeout: 10_000,
      });
      assert.equal(await box.inputValue(), '');
      await screenshot(page, 'conversations-en-1280');

      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/messaging/conversations');
      await appReady(page);
      await page.getByTestId('conversation-list').getByText(HANDSET).waitFor();
      await screenshot(page, 'conversations-en-390-list');
      await openThread(page);
      await page.getByTestId('conversation-thread').getByText('Yes, see you at eight').waitFor();
      await screenshot(page, 'conversations-en-390-thread');

      // Arabic from the profile's language picker, as a user would.
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto('/profile/update');
      await appReady(page);
      await page.getByRole('combobox', { name: 'Language' }).click();
      await page.getByRole('option', { name: 'العربية', exact: true }).click();
      await page.waitForFunction(() => document.documentElement.dir === 'rtl', null, { timeout: 10_000 });
      await openThread(page);
      await page.getByTestId('conversation-thread').getByText('Yes, see you at eight').waitFor();
      await screenshot(page, 'conversations-ar-1280');
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/messaging/conversations');
      await appReady(page);
      await page.getByTestId('conversation-list').getByText(HANDSET).waitFor();
      await screenshot(page, 'conversations-ar-390-list');
      await openThread(page);
      await page.getByTestId('conversation-thread').getByText('Yes, see you at eight').waitFor();
      await screenshot(page, 'conversations-ar-390-thread');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
