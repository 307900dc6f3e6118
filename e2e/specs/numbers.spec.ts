import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { after, before, describe, it } from '../lib/test';
import { apiCall, appReady, newUser, registerViaApi, signIn, type TestUser } from '../lib/app';
import { describeViolations, seriousViolations } from '../lib/axe';
import { launchBrowser, newContext, screenshot } from '../lib/browser';
import { REPO_ROOT } from '../lib/paths';
import { startServer, type RunningServer } from '../lib/server';

/**
 * Numbers (issue 40 item 0) through the real server and its embedded PostgreSQL: an operator adds a
 * long code in Admin → Numbers (a field error first), assigns it to a customer's account (the first
 * month charged), and the customer finds it under Settings → Numbers and among their sender IDs;
 * in English at 1366 px and in Arabic at 390 px, with axe on each screen.
 */
let server: RunningServer;
let browser: Browser;
let admin: TestUser;
let customer: TestUser;

async function login(user: TestUser): Promise<string> {
  const res = await apiCall(server.baseUrl, 'POST', '/api/auth/login', {
    username: user.username,
    password: user.password,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return (res.body as { accessToken: string }).accessToken;
}

before(async () => {
  server = await startServer({ TRIAL_BALANCE_MINOR: '1000' });
  browser = await launchBrowser();
  admin = await registerViaApi(server.baseUrl, newUser({ name: 'Nora Numbers' }));
  execFileSync(
    process.execPath,
    ['--import', 'tsx', 'apps/server/src/main.ts', 'user:promote', admin.username],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'warn' },
      stdio: 'pipe',
    },
  );
  customer = await registerViaApi(server.baseUrl, newUser({ name: 'Acme Clinics' }));
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(page: Page, path: string) {
  await page.goto(path);
  await appReady(page);
  await page.mouse.move(0, 0);
}

/** No sideways scroll, a full-page screenshot, then axe: no serious or critical violation. */
async function shoot(page: Page, name: string) {
  await page.waitForTimeout(400);
  const width = page.viewportSize()?.width ?? 0;
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollWidth <= width, `${name}: no sideways scroll (${scrollWidth}px in ${width}px)`);
  await screenshot(page, name);
  const violations = await seriousViolations(page);
  assert.deepEqual(violations, [], describeViolations(name, violations));
}

describe('Numbers', () => {
  it('an operator adds and assigns a number; the customer sees it and sends from it', async () => {
    const { page, context } = await newContext(browser, server.baseUrl, { width: 1366, height: 900 });
    await signIn(page, admin);
    await open(page, '/admin/numbers');
    assert.equal(await page.title(), 'Numbers · Wren');
    await page.getByText('No numbers yet').waitFor();

    await page.getByRole('button', { name: 'Add number' }).click();
    const form = page.getByRole('dialog', { name: 'Add number' });
    await form.getByRole('textbox', { name: 'Number' }).fill('+44 7700 900123');
    await form.getByRole('combobox', { name: 'Country' }).fill('United Kingdom');
    await page.getByRole('option', { name: 'United Kingdom (GB)' }).click();
    await form.getByRole('textbox', { name: /Monthly price/ }).fill('2.5.0');
    await form.getByRole('button', { name: 'Add number' }).click();
    await form.getByText('Give the monthly price as an amount, e.g. 2.50').waitFor();
    await form.getByRole('textbox', { name: /Monthly price/ }).fill('2.50');
    await form.getByRole('button', { name: 'Add number' }).click();
    await form.waitFor({ state: 'detached' });
    const row = page.locator('tr[data-number="+447700900123"]');
    await row.waitFor();
    assert.match(await row.innerText(), /\+447700900123[\s\S]*Long code[\s\S]*GB[\s\S]*\$2\.50[\s\S]*Free/i);

    await row.getByRole('button', { name: 'Assign' }).click();
    const dialog = page.getByRole('dialog', { name: 'Assign +447700900123' });
    await dialog.getByText(/The account is charged .*2\.50 now and every month after/).waitFor();
    await dialog.getByRole('combobox', { name: 'Account' }).fill(customer.username);
    await page.getByRole('option', { name: new RegExp(customer.username) }).click();
    await dialog.getByRole('button', { name: 'Assign' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row.getByText('Acme Clinics').waitFor();
    await row.getByRole('button', { name: 'Release' }).waitFor();
    await shoot(page, 'numbers-admin-desktop');
    await context.close();

    // The customer, in Arabic at 390 px.
    const token = await login(customer);
    const patched = await apiCall(server.baseUrl, 'PATCH', '/api/me', { locale: 'ar' }, token);
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const mobile = await newContext(browser, server.baseUrl, { width: 390, height: 844 });
    await signIn(mobile.page, customer);
    await open(mobile.page, '/settings/numbers');
    await mobile.page.waitForFunction(() => document.documentElement.dir === 'rtl');
    const own = mobile.page.getByTestId('own-numbers');
    await own.getByText('+447700900123').waitFor();
    assert.match(await own.innerText(), /رقم طويل/);
    await shoot(mobile.page, 'numbers-customer-390-ar');
    await open(mobile.page, '/sender-id');
    await mobile.page.getByText('447700900123').first().waitFor();
    await mobile.context.close();

    // The first month is in the customer's ledger, and a send from the number is accepted.
    const ledger = await apiCall(
      server.baseUrl,
      'GET',
      '/api/billing/ledger?kind=number_rental',
      undefined,
      token,
    );
    assert.equal(ledger.status, 200, JSON.stringify(ledger.body));
    assert.equal((ledger.body as { items: { amountMinor: number }[] }).items[0]?.amountMinor, -250);
    const sent = await apiCall(
      server.baseUrl,
      'POST',
      '/api/sms/single',
      { recipients: ['+14155550123'], text: 'From our own number', senderId: '+447700900123' },
      token,
    );
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
  });

  it('the operator page at 390 px in Arabic', async () => {
    const token = await login(admin);
    await apiCall(server.baseUrl, 'PATCH', '/api/me', { locale: 'ar' }, token);
    const { page, context } = await newContext(browser, server.baseUrl, { width: 390, height: 844 });
    await signIn(page, admin);
    await open(page, '/admin/numbers');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await page.locator('tr[data-number="+447700900123"]').waitFor();
    await shoot(page, 'numbers-admin-390-ar');
    await context.close();
  });
});
