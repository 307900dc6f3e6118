import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from '../lib/test';
import type { Browser, Locator, Page } from 'playwright-core';
import { apiCall, appReady, newUser, pathOf, registerViaApi, signIn, type TestUser } from '../lib/app';
import { launchBrowser, newContext, screenshot } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';

let server: RunningServer;
let browser: Browser;
let user: TestUser;

before(async () => {
  // Every message is delivered, so the log's statuses are predictable.
  server = await startServer({ SIMULATOR_MIX: 'DELIVRD=100', SIMULATOR_DELAY_MS: '300' });
  browser = await launchBrowser();
  user = await registerViaApi(server.baseUrl);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Tall enough that a full-page screenshot needs no scrolling (the header is sticky). */
const VIEWPORT = { width: 1280, height: 1250 };

const toast = (page: Page, text: string | RegExp) =>
  page.locator('.mantine-Notification-root', { hasText: text });

/** Pastes text into a field the way the clipboard does. */
async function paste(field: Locator, text: string): Promise<void> {
  await field.evaluate((el, value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

/** Picks a day `daysAhead` from today (UTC, the browser's zone here) at 10:30 in the date-time picker (24-hour). */
async function pickSchedule(page: Page, daysAhead: number): Promise<void> {
  await page.getByRole('button', { name: 'Send at' }).click();
  const picker = page.getByRole('dialog');
  const target = new Date(Date.now() + daysAhead * 86_400_000);
  if (target.getUTCMonth() !== new Date().getUTCMonth()) {
    await picker.locator('button[data-direction="next"]').click();
  }
  const label = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(target);
  await picker.getByRole('button', { name: label, exact: true }).click();
  await picker.getByRole('spinbutton').first().fill('10');
  await picker.getByRole('spinbutton').nth(1).fill('30');
  await picker.locator('button:has(svg)').last().click();
  await picker.waitFor({ state: 'hidden' });
}

const logRows = (page: Page) => page.getByRole('table', { name: 'SMS log' }).locator('tbody tr');

async function countIn(page: Page, selector: string, count: number, timeout = 20_000): Promise<void> {
  await page.waitForFunction(
    ([sel, n]) => document.querySelectorAll(sel).length === n,
    [selector, count] as const,
    { timeout },
  );
}

/** Waits until the drawer has slid in completely (fully opaque, against the right edge). */
async function drawerOpen(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const el = document.querySelector('.mantine-Drawer-content');
    if (!el) return false;
    const box = el.getBoundingClientRect();
    return Math.abs(box.right - window.innerWidth) < 1 && getComputedStyle(el).opacity === '1';
  });
}

/** WCAG contrast of a disabled button's text on its background (the first opaque one up its ancestors). */
async function disabledContrast(page: Page, name: string): Promise<number> {
  const { color, backgrounds } = await page.evaluate((label) => {
    const button = [...document.querySelectorAll('button:disabled')].find(
      (b) => b.textContent?.trim() === label,
    );
    if (!button) throw new Error(`no disabled button ${label}`);
    const backgrounds: string[] = [];
    for (let e: Element | null = button; e; e = e.parentElement)
      backgrounds.push(getComputedStyle(e).backgroundColor);
    return { color: getComputedStyle(button).color, backgrounds };
  }, name);
  const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
  const luminance = (c: number[]) =>
    c
      .slice(0, 3)
      .map((v) => v / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
      .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i]!, 0);
  const bg = backgrounds.map(rgb).find((c) => c.length === 3 || (c[3] ?? 0) > 0.9) ?? [255, 255, 255];
  const [hi, lo] = [luminance(rgb(color)), luminance(bg)].sort((a, b) => b - a);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** "29 Nov 2026, 14:05" for an instant in the browser's zone (the app's one date-time format). */
const appDateTime = async (page: Page, iso: string) => {
  // The browser's zone, not this process's: read the parts there.
  const [day, month, year, hours, minutes] = await page.evaluate((at) => {
    const d = new Date(at);
    return [d.getDate(), d.getMonth(), d.getFullYear(), d.getHours(), d.getMinutes()];
  }, iso);
  const name = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ')[month!];
  const two = (n: number) => String(n).padStart(2, '0');
  return `${day} ${name} ${year}, ${two(hours!)}:${two(minutes!)}`;
};

describe('messaging', () => {
  it('sends a single SMS to a pasted list and follows it to delivered in the SMS log', async () => {
    const { context, page, errors } = await newContext(browser, server.baseUrl, VIEWPORT);
    await signIn(page, user);
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Single SMS' })
      .click();
    await page.waitForURL('**/sms/single');
    await page.getByTestId('balance').filter({ hasText: '$5.00' }).waitFor();

    // A pasted list: split, validated (E.164) and de-duplicated.
    await paste(page.getByLabel('Recipients'), '+1 415 555 2671\n+44 20 7946 0958, 12, (415) 555-2671');
    await page.getByText('2 recipients').waitFor();
    await page.getByText('1 invalid').waitFor();
    await page.getByText('1 duplicate skipped').waitFor();

    // Smart punctuation forces Unicode; the page names it and offers plain replacements.
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('It’s Wren: your code is 123456');
    await page.getByText('These characters switch to Unicode:').waitFor();
    assert.match(await page.getByTestId('sms-counter').innerText(), /unicode \(ucs-2\)/i);
    await page.getByRole('button', { name: /^Replace ’/ }).click();
    await page.getByText('These characters switch to Unicode:').waitFor({ state: 'detached' });
    assert.equal(await message.inputValue(), "It's Wren: your code is 123456");
    const counter = await page.getByTestId('sms-counter').innerText();
    assert.match(counter, /30\s+characters/);
    assert.match(counter, /1\s+segment/);
    assert.match(counter, /GSM-7/);
    assert.match(counter, /Cost \$0\.05/); // +1: 1¢ and +44: 4¢ per segment

    // The invalid number blocks the send until it is removed.
    await page.getByRole('button', { name: 'Review and send' }).click();
    await page.getByText('Fix or remove the invalid number (marked in red)').waitFor();
    await page.getByRole('button', { name: 'Remove 12' }).click();
    await page.getByText('1 invalid').waitFor({ state: 'detached' });
    assert.equal(await page.getByTestId('estimated-cost').innerText(), '$0.05');

    await page.getByRole('button', { name: 'Review and send' }).click();
    const review = page.getByRole('dialog', { name: 'Review your message' });
    assert.match(await review.getByTestId('confirm-recipients').innerText(), /^2 recipients/);
    assert.equal(await review.getByTestId('confirm-cost').innerText(), '$0.05');
    await review.getByRole('button', { name: 'Send to 2 recipients' }).click();
    await page.getByTestId('sent-notice').filter({ hasText: 'Message queued to 2 recipients' }).waitFor();
    await page.getByTestId('balance').filter({ hasText: '$4.95' }).waitFor();
    assert.equal(await message.inputValue(), '');

    // The log refreshes by itself until both messages are delivered.
    await page.getByRole('link', { name: 'View in SMS log' }).click();
    await page.waitForURL('**/reports/sms-log');
    await countIn(page, 'table[aria-label="SMS log"] tbody tr', 2);
    await countIn(page, 'table[aria-label="SMS log"] [data-status="delivered"]', 2);

    // A row opens its details (here with the keyboard): the status timeline.
    const row = page.getByRole('row', { name: /Message to \+442079460958/ });
    await row.focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'Message details' });
    const timeline = drawer.getByTestId('message-timeline');
    await timeline.getByText('Delivered', { exact: true }).waitFor();
    await timeline.getByText('Queued').first().waitFor();
    // Customers see the outcome in words and the SMSC's status; the raw receipt is for admins.
    await timeline.getByText(/Final: DELIVRD \(err 000\)/).waitFor();
    assert.equal(await drawer.getByLabel('Raw delivery receipt').count(), 0);
    assert.match(pathOf(page), /[?&]message=/);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    // Filters live in the address; the export uses them.
    await page.getByLabel('Recipient', { exact: true }).fill('4420');
    await page.waitForURL(/recipient=4420/);
    await countIn(page, 'table[aria-label="SMS log"] tbody tr', 1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^sms-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8')
      .trim()
      .split(/\r?\n/);
    assert.equal(csv.length, 2, csv.join('\n'));
    // The SMS log's column names (after a BOM), money in major units; the + of a phone number is
    // data: quoted, with no apostrophe.
    assert.match(csv[0], /^\uFEFF?Date,Recipient,Sender,Status,Message,Encoding,Segments,Cost,Currency,/);
    assert.match(csv[1], /"\+442079460958",Wren,delivered,.*,\d+\.\d{2},USD,/);

    await page.goto('/reports/sms-log?status=failed');
    await appReady(page);
    await page.getByText('No messages match these filters').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await page.waitForURL((url) => url.search === '');
    await countIn(page, 'table[aria-label="SMS log"] tbody tr', 2);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('schedules a message and cancels it on the Scheduled SMS page', async () => {
    const { context, page, errors } = await newContext(browser, server.baseUrl, VIEWPORT);
    await signIn(page, user);
    // One request for the sender IDs on a load (issue 47 defect 7: the list and the server's sender
    // settings asked for the same answer twice).
    const senderLists: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/sender-ids') senderLists.push(r.url());
    });
    await page.goto('/sms/single');
    await appReady(page);
    await page.waitForLoadState('networkidle');
    assert.equal(senderLists.length, 1, `GET /api/sender-ids ×${senderLists.length}`);

    const recipients = page.getByLabel('Recipients');
    await recipients.fill('+14155552671');
    await recipients.press('Enter');
    await page.getByText('1 recipient', { exact: true }).waitFor();
    await page
      .getByRole('textbox', { name: 'Message' })
      .fill('Reminder: your appointment is on Friday at 10:00.');
    await page.getByRole('switch', { name: /Schedule for later/ }).check();
    // It starts at the next round quarter hour, not 12:00 AM (defect 6).
    const shown = await page.getByRole('button', { name: 'Send at' }).innerText();
    // The app's one format, 24-hour: "3 Dec 2026, 07:45".
    const m = /^(\d{1,2}) (\w{3}) (\d{4}), (\d\d):(00|15|30|45)$/.exec(shown.trim());
    assert.ok(m, `send time shown as ${shown}`);
    // …at least an hour ahead: the next quarter hour could be a minute away (issue 47, defect 8).
    const [, d, mon, y, hh, mm] = m;
    const month = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ').indexOf(mon!);
    const ahead = Date.UTC(Number(y), month, Number(d), Number(hh), Number(mm)) - Date.now();
    assert.ok(
      ahead >= 59 * 60_000 && ahead <= 76 * 60_000,
      `default send time ${shown} is ${Math.round(ahead / 60_000)} min ahead`,
    );
    await pickSchedule(page, 2);

    await page.getByRole('button', { name: 'Review and schedule' }).click();
    const review = page.getByRole('dialog', { name: 'Review your message' });
    await review.getByText(/10:30 \(UTC\)/).waitFor();
    await review.getByRole('button', { name: 'Schedule message' }).click();
    await page
      .getByTestId('sent-notice')
      .filter({ hasText: /Scheduled for .+10:30 \(UTC\)/ })
      .waitFor();

    await page.getByRole('link', { name: 'View scheduled messages' }).click();
    await page.waitForURL('**/reports/scheduled-sms');
    const table = page.getByRole('table', { name: 'Scheduled messages' });
    await table.getByText('Reminder: your appointment is on Friday at 10:00.').waitFor();
    await table.getByText(/10:30 \(UTC\)/).waitFor();

    await table.getByRole('button', { name: 'Cancel the message to +14155552671' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel scheduled message?' });
    await confirm.getByRole('button', { name: 'Cancel message' }).click();
    await toast(page, 'The message to +14155552671 was canceled and $0.01 refunded.').waitFor();
    await page.getByText('No scheduled messages yet').waitFor();

    await page.goto('/reports/sms-log?status=canceled');
    await appReady(page);
    await logRows(page)
      .filter({ hasText: 'Reminder: your appointment' })
      .locator('[data-status="canceled"]')
      .waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('takes screenshots of the three pages, light and dark (e2e/screenshots/messaging-*)', async () => {
    const shooter = await registerViaApi(server.baseUrl, newUser());
    const login = await apiCall(server.baseUrl, 'POST', '/api/auth/login', {
      username: shooter.username,
      password: shooter.password,
    });
    const token = String(login.body?.accessToken);
    const send = (body: Record<string, unknown>) =>
      apiCall(server.baseUrl, 'POST', '/api/sms/single', body, token);
    assert.equal(
      (await send({ recipients: ['+14155552671', '+442079460958'], text: 'Your Wren code is 481 516' }))
        .status,
      202,
    );
    const later = new Date(Date.now() + 3 * 86_400_000).toISOString();
    assert.equal(
      (
        await send({
          recipients: ['+4930901820'],
          text: 'Your order ships tomorrow.',
          scheduleAt: later,
          timezone: 'UTC',
        })
      ).status,
      202,
    );

    const { context, page, errors } = await newContext(browser, server.baseUrl, VIEWPORT);
    await signIn(page, shooter);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.goto('/sms/single');
      await appReady(page);
      await paste(page.getByLabel('Recipients'), '+1 415 555 2671, +44 20 7946 0958, 555');
      await page
        .getByRole('textbox', { name: 'Message' })
        .fill('Olá! Your table for 2 is ready “now” – see you soon.');
      await page.getByTestId('estimated-cost').filter({ hasText: '$' }).waitFor();
      assert.match(await page.getByTestId('estimated-cost').innerText(), /\$\d+\.\d{2}/);
      assert.equal(
        await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme')),
        colorScheme,
      );
      await page.mouse.move(0, 0);
      await screenshot(page, `messaging-${colorScheme}-single-sms`);

      await page.goto('/reports/sms-log');
      await appReady(page);
      await countIn(page, 'table[aria-label="SMS log"] [data-status="delivered"]', 2);
      // A scheduled message's row says when it goes out.
      const scheduledRow = page.getByRole('row', { name: /Message to \+4930901820/ });
      assert.equal(
        await scheduledRow.getByTestId('scheduled-for').innerText(),
        `Scheduled for ${await appDateTime(page, later)}`,
      );
      // In the dark scheme disabled buttons (no filter to clear) stay legible (≥ 3:1).
      if (colorScheme === 'dark') {
        const contrast = await disabledContrast(page, 'Clear filters');
        assert.ok(contrast >= 3, `disabled "Clear filters" contrast ${contrast.toFixed(2)}`);
      }
      await page.mouse.move(0, 0);
      await screenshot(page, `messaging-${colorScheme}-sms-log`);
      await page.getByRole('row', { name: /Message to \+14155552671/ }).click();
      await page
        .getByRole('dialog', { name: 'Message details' })
        .getByText(/Final: DELIVRD/)
        .first()
        .waitFor();
      await drawerOpen(page);
      await screenshot(page, `messaging-${colorScheme}-sms-log-detail`);

      await page.goto('/reports/scheduled-sms');
      await appReady(page);
      await page
        .getByRole('table', { name: 'Scheduled messages' })
        .getByText('Your order ships tomorrow.')
        .waitFor();
      await page.mouse.move(0, 0);
      await screenshot(page, `messaging-${colorScheme}-scheduled-sms`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
});
