import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { after, before, describe, it } from '../lib/test';
import { appReady, newUser, registerViaApi, signIn, type TestUser } from '../lib/app';
import { describeViolations, seriousViolations } from '../lib/axe';
import { launchBrowser, newContext, screenshot } from '../lib/browser';
import { REPO_ROOT } from '../lib/paths';
import { startServer, type RunningServer } from '../lib/server';

/**
 * Billing for the customer (issue 47) with no payment provider: the Balance page says an operator
 * approves top-ups; a request shows as pending; the operator approves it in /admin/top-ups after a
 * confirmation and the customer's balance and list update. Prices and Ledger at 390 px.
 */
let server: RunningServer;
let browser: Browser;
let admin: TestUser;
let customer: TestUser;

function promote(username: string) {
  execFileSync(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts', 'user:promote', username], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'warn' },
    stdio: 'pipe',
  });
}

before(async () => {
  server = await startServer({ CAPTCHA: 'false' });
  browser = await launchBrowser();
  admin = await registerViaApi(server.baseUrl, newUser({ name: 'Olive Operator' }));
  promote(admin.username);
  customer = await registerViaApi(server.baseUrl, newUser({ name: 'Bea Billing' }));
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('billing', () => {
  it('a top-up request is approved by an operator and credits the balance once', async () => {
    const me = await newContext(browser, server.baseUrl);
    await signIn(me.page, customer, '/auth/login?returnUrl=%2Fbilling%2Fbalance');
    await me.page.waitForURL(/\/billing\/balance/);
    const balance = me.page.getByTestId('billing-balance');
    await balance.waitFor();
    assert.equal((await balance.innerText()).trim(), '$5.00'); // the trial credit
    assert.match(await me.page.getByTestId('top-up-how').innerText(), /an operator approves it/);
    await me.page.getByLabel('Amount (USD)').fill('25');
    await me.page.getByLabel('Note for the operator (optional)').fill('Paid by bank transfer, ref 1042');
    await me.page.getByRole('button', { name: 'Request top-up' }).click();
    const list = me.page.getByTestId('top-up-list');
    await list.getByText('Pending').waitFor();
    assert.match(await list.innerText(), /\$25\.00/);
    const pendingViolations = await seriousViolations(me.page);
    assert.deepEqual(pendingViolations, [], describeViolations('/billing/balance', pendingViolations));
    await screenshot(me.page, 'billing-balance-pending');

    const op = await newContext(browser, server.baseUrl, { width: 1366, height: 900 });
    await signIn(op.page, admin, '/auth/login?returnUrl=%2Fadmin%2Ftop-ups');
    await op.page.waitForURL(/\/admin\/top-ups/);
    const queue = op.page.getByTestId('admin-top-ups');
    await queue.waitFor();
    assert.match(await queue.innerText(), /ref 1042/);
    await queue.getByRole('button', { name: 'Approve…' }).click();
    const dialog = op.page.getByRole('dialog');
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /Credit \$25\.00/);
    await dialog.getByRole('button', { name: 'Approve and credit' }).click();
    await op.page.getByText('No requests waiting').waitFor();
    // axe reads a dialog that is still fading out as low contrast.
    await dialog.waitFor({ state: 'hidden' });
    const violations = await seriousViolations(op.page);
    assert.deepEqual(violations, [], describeViolations('/admin/top-ups', violations));
    await screenshot(op.page, 'billing-admin-top-ups');

    await me.page.reload();
    await appReady(me.page);
    await me.page.getByTestId('top-up-list').getByText('Approved').waitFor();
    assert.equal((await me.page.getByTestId('billing-balance').innerText()).trim(), '$30.00');
    await me.context.close();
    await op.context.close();
  });

  it('Balance, Prices and Ledger work at 390 px without sideways scroll', async () => {
    const phone = await newContext(browser, server.baseUrl, { width: 390, height: 844 });
    await signIn(phone.page, customer);
    for (const [path, ready] of [
      ['/billing/balance', 'billing-balance'],
      ['/billing/prices', 'price-table'],
      ['/billing/ledger', 'ledger-table'],
    ] as const) {
      await phone.page.goto(path);
      await appReady(phone.page);
      await phone.page.getByTestId(ready).waitFor();
      const scroll = await phone.page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(scroll <= 390, `${path}: content is ${scroll}px wide`);
      const violations = await seriousViolations(phone.page);
      assert.deepEqual(violations, [], describeViolations(path, violations));
      await screenshot(phone.page, `billing-mobile-${path.split('/').pop()}`);
    }
    await phone.page.goto('/billing/prices');
    await phone.page.getByLabel('Search').fill('kingdom');
    await phone.page.getByTestId('price-table').getByText('Kenya').waitFor({ state: 'detached' });
    // The filtered table renders its rows again: the match is waited for, then counted.
    await phone.page.getByTestId('price-table').getByText('United Kingdom').waitFor();
    assert.equal(await phone.page.getByTestId('price-table').getByText('United Kingdom').count(), 1);
    await phone.context.close();
  });
});
