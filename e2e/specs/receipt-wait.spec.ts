import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { after, before, describe, it } from '../lib/test';
import { apiCall, appReady, registerViaApi, signIn, type TestUser } from '../lib/app';
import { launchBrowser, newContext, screenshot } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';

/**
 * Issue 45 defect 4: a `sent` message says, in the SMS log's row (table and phone cards) and in its
 * drawer, since when it has waited for its delivery receipt and its deadline (the connection's
 * receipt deadline: SMSC_RECEIPT_TIMEOUT_MINUTES, 48 h by default).
 */
let server: RunningServer;
let browser: Browser;
let user: TestUser;
let sentAt: { submittedAt: string; receiptDueAt: string };

before(async () => {
  // The simulator answers the submit at once and holds the receipt for ten minutes: the message stays `sent`.
  server = await startServer({ SIMULATOR_MIX: 'DELIVRD=100', SIMULATOR_DELAY_MS: '600000' });
  browser = await launchBrowser();
  user = await registerViaApi(server.baseUrl);
  const login = await apiCall(server.baseUrl, 'POST', '/api/auth/login', {
    username: user.username,
    password: user.password,
  });
  const token = (login.body as { accessToken: string }).accessToken;
  const sent = await apiCall(
    server.baseUrl,
    'POST',
    '/api/sms/single',
    { recipients: ['+14155550177'], text: 'Waiting for its receipt' },
    token,
  );
  assert.equal(sent.status, 202, JSON.stringify(sent.body));
  const id = (sent.body as { messages: { id: string }[] }).messages[0]!.id;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const got = await apiCall(server.baseUrl, 'GET', `/api/sms/log/${id}`, undefined, token);
    const m = (got.body as { message: { status: string; submittedAt: string; receiptDueAt: string } })
      .message;
    if (m.status === 'sent') {
      sentAt = m;
      break;
    }
    assert.ok(Date.now() < deadline, `not sent in time: ${m.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** "29 Nov 2026, 14:05" (with `seconds`, ":09") for an instant in the browser's zone. */
const appDateTime = async (page: Page, iso: string, seconds = false) => {
  // The browser's zone, not this process's: read the parts there (no functions inside: tsx names them).
  const [day, month, year, hours, minutes, secs] = await page.evaluate((at) => {
    const d = new Date(at);
    return [d.getDate(), d.getMonth(), d.getFullYear(), d.getHours(), d.getMinutes(), d.getSeconds()];
  }, iso);
  const name = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ')[month!];
  const two = (n: number) => String(n).padStart(2, '0');
  return `${day} ${name} ${year}, ${two(hours!)}:${two(minutes!)}${seconds ? `:${two(secs!)}` : ''}`;
};

describe('a sent message waiting for its receipt', () => {
  it('shows since when and its deadline in the log row and the drawer (desktop)', async () => {
    const hours = (Date.parse(sentAt.receiptDueAt) - Date.parse(sentAt.submittedAt)) / 3_600_000;
    assert.equal(Math.round(hours), 48, 'the default receipt deadline is 48 h');
    const { context, page } = await newContext(browser, server.baseUrl, { width: 1280, height: 900 });
    try {
      await signIn(page, user);
      await page.goto('/reports/sms-log');
      await appReady(page);
      const row = page.getByRole('row', { name: /Message to \+14155550177, sent/ });
      const note = row.getByTestId('awaiting-receipt');
      await note.waitFor();
      const since = await appDateTime(page, sentAt.submittedAt);
      const due = await appDateTime(page, sentAt.receiptDueAt);
      assert.equal(
        (await note.innerText()).replace(/\s+/g, ' '),
        `Waiting for receipt since ${since}, deadline ${due}`,
      );
      await page.mouse.move(0, 0);
      await screenshot(page, 'receipt-wait-sms-log');

      await row.click();
      const drawer = page.getByRole('dialog', { name: 'Message details' });
      const detail = drawer.getByTestId('drawer-awaiting-receipt');
      await detail.waitFor();
      assert.equal(
        await detail.innerText(),
        `Waiting for the delivery receipt since ${await appDateTime(page, sentAt.submittedAt, true)}, deadline ${await appDateTime(page, sentAt.receiptDueAt, true)}: if none arrives by then, the outcome becomes unknown`,
      );
      await page.waitForTimeout(400); // the drawer's slide-in
      await screenshot(page, 'receipt-wait-sms-log-detail');
    } finally {
      await context.close();
    }
  });

  it('shows it on the phone card too (390 px)', async () => {
    const { context, page } = await newContext(browser, server.baseUrl, { width: 390, height: 844 });
    try {
      await signIn(page, user);
      await page.goto('/reports/sms-log');
      await appReady(page);
      const card = page.getByRole('button', { name: /Message to \+14155550177, sent/ });
      const note = card.getByTestId('awaiting-receipt');
      await note.waitFor();
      assert.equal(
        (await note.innerText()).replace(/\s+/g, ' '),
        `Waiting for receipt since ${await appDateTime(page, sentAt.submittedAt)}, deadline ${await appDateTime(page, sentAt.receiptDueAt)}`,
      );
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `no sideways scroll at 390 px (${width})`);
      await screenshot(page, 'receipt-wait-sms-log-phone');
    } finally {
      await context.close();
    }
  });
});
