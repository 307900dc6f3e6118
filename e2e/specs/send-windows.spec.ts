import assert from 'node:assert/strict';
import { after, before, describe, it } from '../lib/test';
import type { Browser } from 'playwright-core';
import { apiCall, appReady, registerViaApi, signIn, type TestUser } from '../lib/app';
import { launchBrowser, newContext } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';

let server: RunningServer;
let browser: Browser;
let user: TestUser;
let token: string;

before(async () => {
  server = await startServer({ SIMULATOR_MIX: 'DELIVRD=100', SIMULATOR_DELAY_MS: '200' });
  browser = await launchBrowser();
  user = await registerViaApi(server.baseUrl);
  const login = await apiCall(server.baseUrl, 'POST', '/api/auth/login', {
    username: user.username,
    password: user.password,
  });
  token = String(login.body?.accessToken);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const VIEWPORT = { width: 1366, height: 1400 };
const pad = (n: number) => String(n).padStart(2, '0');

/** New York's hour now: a window from it for two hours is open there and closed in Los Angeles. */
function newYorkHour(): number {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    hour: '2-digit',
    hourCycle: 'h23',
  });
  return Number(f.format(new Date()));
}

// Issue 41 item 1: send windows in the browser. The account's default in Settings, a campaign's own
// window in the composer, the review's table per time zone, and New York sent while Los Angeles waits.
describe('send windows', () => {
  it("sets the account's default, sends a campaign with its own window, and shows each zone's opening", async () => {
    const { context, page, errors } = await newContext(browser, server.baseUrl, VIEWPORT);
    await signIn(page, user);
    await page.goto('/settings/send-window');
    await appReady(page);
    await page.getByRole('radio', { name: 'Only in a window' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.mantine-Notification-root', { hasText: 'Send window saved' }).waitFor();
    const saved = await apiCall(server.baseUrl, 'GET', '/api/settings/send-window', undefined, token);
    assert.deepEqual(saved.body?.window, {
      days: [1, 2, 3, 4, 5],
      start: '09:00',
      end: '20:00',
      overnight: false,
    });

    await page.goto('/sms/bulk');
    await appReady(page);
    await page.getByRole('textbox', { name: /Paste numbers/ }).fill('+12125550101\n+13105550101');
    await page.getByRole('textbox', { name: 'Message' }).fill('Hello in your hours');
    await page.getByRole('radio', { name: 'Use account default (Mon–Fri 09:00–20:00)' }).waitFor();
    await page.getByRole('radio', { name: 'Own window for this campaign' }).check();
    for (const day of ['Sat', 'Sun']) await page.getByRole('checkbox', { name: day }).check();
    const h = newYorkHour();
    const end = h + 2;
    if (end >= 24) await page.getByRole('switch', { name: /Overnight/ }).check();
    await page.getByLabel('From', { exact: true }).fill(`${pad(h)}:00`);
    // The estimate is asked again with the window (400 ms after the last change).
    const estimated = page.waitForResponse(
      (r) =>
        r.url().endsWith('/api/campaigns/estimate') &&
        r
          .request()
          .postData()
          ?.includes(`"end":"${pad(end % 24)}:00"`) === true,
    );
    await page.getByLabel('To', { exact: true }).fill(`${pad(end % 24)}:00`);
    assert.equal((await estimated).status(), 200);

    await page.getByRole('button', { name: 'Review and send' }).click();
    const review = page.getByRole('dialog', { name: 'Review and send' });
    const plan = review.getByRole('table', { name: 'Send window by time zone' });
    await plan.getByText('America/New_York').waitFor();
    await plan.getByText('America/Los_Angeles').waitFor();
    const rows = await plan.locator('tbody tr').allTextContents();
    assert.ok(rows.find((r) => r.includes('America/New_York'))?.includes('Now'), rows.join(' | '));
    assert.ok(
      rows.find((r) => r.includes('America/Los_Angeles'))?.includes(`${pad(h)}:00 local`),
      rows.join(' | '),
    );
    await review.getByRole('button', { name: 'Send to 2 recipients' }).click();

    await page.waitForURL('**/reports/bulk-sms-detail/*');
    await appReady(page);
    await page.getByText(/recipient's local time/).waitFor();
    const id = page.url().split('/').pop()!;
    // New York's message goes; Los Angeles' waits queued for its window. Up to 60 s: on CI's loaded
    // two cores the campaign's start, the send and its receipt can take longer than 20 s.
    const polls = 300;
    for (let i = 0; i < polls; i += 1) {
      const log = await apiCall(server.baseUrl, 'GET', `/api/campaigns/${id}/messages`, undefined, token);
      const items = (log.body?.items ?? []) as { recipient: string; status: string }[];
      const ny = items.find((m) => m.recipient === '+12125550101');
      if (ny?.status === 'delivered') {
        assert.equal(items.find((m) => m.recipient === '+13105550101')?.status, 'queued');
        break;
      }
      assert.notEqual(i, polls - 1, JSON.stringify(items));
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
});
