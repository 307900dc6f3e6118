import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { after, before, describe, it } from '../lib/test';
import { apiCall, appReady, newUser, registerViaApi, signIn, type TestUser } from '../lib/app';
import { launchBrowser, newContext } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';

/**
 * Billing → Statements (issue 39 item 5): the sidebar's Billing entry opens the month's statement;
 * an empty month says so; picking the current month shows its entries (the trial credit and two
 * sends) and usage by country; the CSV and PDF download with that month's content. At 1280 and 390 px.
 */

const SHOTS = '/tmp/statements-shots';
let server: RunningServer;
let browser: Browser;
let user: TestUser;

before(async () => {
  server = await startServer({ CAPTCHA: 'false' });
  browser = await launchBrowser();
  user = await registerViaApi(server.baseUrl, newUser({ name: 'Stella Statement' }));
  const login = await apiCall(server.baseUrl, 'POST', '/api/auth/login', {
    username: user.username,
    password: user.password,
  });
  const token = (login.body as { accessToken: string }).accessToken;
  for (const recipients of [['+14155550199'], ['+447400123456', '+447400123457']]) {
    const sent = await apiCall(
      server.baseUrl,
      'POST',
      '/api/sms/single',
      { recipients, text: 'Statement test' },
      token,
    );
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
  }
  mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const currentMonth = () => new Date().toISOString().slice(0, 7); // the owner has no zone: UTC

async function shot(page: Page, name: string) {
  await appReady(page);
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** Clicks a download button; the saved file's name and bytes. */
async function download(page: Page, button: string) {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).click(),
  ]);
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

async function pickMonth(page: Page, label: RegExp) {
  await page.getByTestId('statement-month').click();
  await page.getByRole('option', { name: label }).click();
}

describe('statements', () => {
  it('opens from the sidebar, shows an empty month, then the picked month with entries, and downloads CSV and PDF (1280 px)', async () => {
    const { page, context, errors } = await newContext(browser, server.baseUrl, { width: 1280, height: 900 });
    await signIn(page, user);
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Billing' }).click();
    await page.waitForURL(/\/billing\/statements/);
    await page.getByRole('tab', { name: 'Statements' }).waitFor();
    assert.equal(await page.getByRole('tab', { name: 'Statements' }).getAttribute('aria-selected'), 'true');

    // A month without entries: its empty state.
    await page.goto('/billing/statements?month=2025-01');
    await page.getByTestId('statement-empty').waitFor();
    assert.match(await page.getByTestId('statement-empty').innerText(), /No entries in January 2025/);
    await shot(page, 'statements-empty-1280');

    // Pick the current month from the list of months with activity.
    const title = new Intl.DateTimeFormat('en-US', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date());
    await pickMonth(page, new RegExp(`^${title} · 3 entries$`));
    await page.waitForURL(new RegExp(`month=${currentMonth()}`));
    const rows = page.getByRole('table', { name: 'Ledger entries' }).locator('tbody tr');
    await rows.nth(2).waitFor();
    assert.equal(await rows.count(), 3);
    assert.match(await rows.nth(0).innerText(), /Trial credit/i);
    assert.match(await rows.nth(1).innerText(), /SMS charge/i);
    const usage = await page.getByRole('table', { name: 'Usage by country' }).innerText();
    assert.match(usage, /United Kingdom \(GB\)/);
    assert.match(usage, /United States \(US\)/);
    const closing = await page.getByTestId('statement-closing-value').innerText();
    await shot(page, 'statements-1280');

    const csv = await download(page, 'Download CSV');
    assert.equal(csv.name, `wren-statement-${currentMonth()}.csv`);
    const text = csv.bytes.toString('utf8');
    assert.match(text, /^\uFEFFStatement,/);
    assert.match(text, /Account,Stella Statement/);
    assert.match(text, /Date,Kind,Reference,Description,Credit,Debit,Balance/);
    assert.match(text, /United Kingdom \(GB\),2,2,/);
    assert.match(text, new RegExp(`Closing balance,${closing.replace(/[$,]/g, '')}`));

    const pdf = await download(page, 'Download PDF');
    assert.equal(pdf.name, `wren-statement-${currentMonth()}.pdf`);
    assert.equal(pdf.bytes.subarray(0, 5).toString(), '%PDF-');
    assert.ok((pdf.bytes.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length >= 1);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('works at 390 px by keyboard, without sideways scrolling', async () => {
    const { page, context, errors } = await newContext(browser, server.baseUrl, { width: 390, height: 844 });
    await signIn(page, user, `/auth/login?returnUrl=${encodeURIComponent('/billing')}`);
    await page.waitForURL(/\/billing\/statements/);
    const rows = page.getByRole('table', { name: 'Ledger entries' }).locator('tbody tr');
    await rows.nth(2).waitFor();
    // The month picker opens and chooses by keyboard.
    await page.getByTestId('statement-month').focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('option').first().waitFor();
    await page.keyboard.press('Escape');
    // The download buttons are reachable with Tab.
    await page.getByTestId('statement-month').focus();
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
    assert.match(focused, /Download CSV/);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
    await shot(page, 'statements-390');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
