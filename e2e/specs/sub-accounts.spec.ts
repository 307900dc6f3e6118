import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { after, before, describe, it } from '../lib/test';
import { appReady, newUser, registerViaApi, signIn } from '../lib/app';
import { launchBrowser, newContext } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';

/** Issue 39 item 4: a reseller creates a sub-account, moves balance to it, sees it, locks it. */

const SHOTS = process.env.SUB_ACCOUNT_SHOTS ?? '/tmp/sub-accounts-shots';
let server: RunningServer;
let browser: Browser;

before(async () => {
  server = await startServer({ CAPTCHA: 'false' });
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
const noSideScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

describe('sub-accounts', () => {
  it('create a child, transfer (refused when short, then confirmed), see the balance, lock it', async () => {
    const owner = await registerViaApi(server.baseUrl, newUser({ name: 'Rhea Reseller' }));
    const o = await newContext(browser, server.baseUrl);
    await signIn(o.page, owner);
    const nav = o.page.getByRole('navigation', { name: 'Main menu' });
    const settings = nav.getByRole('button', { name: 'Settings' });
    if ((await settings.getAttribute('aria-expanded')) === 'false') await settings.click();
    await nav.getByRole('link', { name: 'Sub-accounts' }).click();
    await o.page.getByText('No sub-accounts yet').waitFor();
    await shot(o.page, 'sub-accounts-empty-1280');

    // The create dialog validates before sending, then opens the new child's page.
    await o.page.getByRole('button', { name: 'New sub-account' }).first().click();
    const dialog = o.page.getByRole('form', { name: 'New sub-account' });
    await dialog.getByRole('button', { name: 'Create sub-account' }).click();
    await dialog.getByText('Name is required').waitFor();
    await dialog.getByLabel('Name').fill('Acme Clinic');
    await dialog.getByLabel("Owner's email").fill('not-an-email');
    await dialog.getByRole('button', { name: 'Create sub-account' }).click();
    await dialog.getByText('Enter a valid email address').waitFor();
    await dialog.getByLabel("Owner's email").fill('clinic.owner@example.com');
    await dialog.getByRole('button', { name: 'Create sub-account' }).click();
    await o.page.waitForURL('**/settings/sub-accounts/*');
    await appReady(o.page);
    const balance = o.page.getByTestId('sub-account-balance');
    assert.equal(await balance.textContent(), '$0.00');

    // More than the parent has ($5.00 trial): the confirmation shows the server's refusal.
    const transfer = o.page.getByRole('form', { name: 'Transfer balance' });
    await transfer.getByLabel(/Amount/).fill('7');
    await transfer.getByRole('button', { name: 'Review transfer' }).click();
    const confirm = o.page.getByRole('dialog', { name: 'Confirm the transfer' });
    await confirm.getByRole('button', { name: 'Transfer $7.00' }).click();
    await confirm.getByText(/does not cover this transfer of \$7\.00/).waitFor();
    await shot(o.page, 'sub-accounts-transfer-short-1280');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });

    // By keyboard: the amount, Enter to review, then confirm.
    await transfer.getByLabel(/Amount/).fill('2.50');
    await transfer.getByLabel(/Amount/).press('Enter');
    await o.page
      .getByRole('dialog', { name: 'Confirm the transfer' })
      .getByRole('button', { name: 'Transfer $2.50' })
      .click();
    await o.page.getByText(/Moved \$2\.50/).waitFor();
    await o.page.waitForFunction(
      () => document.querySelector('[data-testid="sub-account-balance"]')?.textContent === '$2.50',
    );

    // The child's statement for its reseller to bill with: this month, with the transfer in it.
    const statement = o.page.getByTestId('sub-account-statement');
    await statement.getByRole('button', { name: 'Download CSV' }).waitFor();
    const [csv] = await Promise.all([
      o.page.waitForEvent('download'),
      statement.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    assert.match(csv.suggestedFilename(), /^statement-.+-\d{4}-\d{2}\.csv$/);
    const csvText = readFileSync(await csv.path(), 'utf8');
    assert.match(csvText, /2\.50/);
    const [pdf] = await Promise.all([
      o.page.waitForEvent('download'),
      statement.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    assert.equal(
      readFileSync(await pdf.path())
        .subarray(0, 5)
        .toString(),
      '%PDF-',
    );

    // Lock it, with a reason, behind a confirmation.
    await o.page.getByRole('button', { name: 'Lock sub-account' }).click();
    const lock = o.page.getByRole('dialog', { name: 'Lock this sub-account?' });
    await lock.getByRole('button', { name: 'Lock', exact: true }).click();
    await lock.getByText('Give a reason').waitFor();
    await lock.getByLabel(/Reason/).fill('Invoice 42 unpaid');
    await lock.getByRole('button', { name: 'Lock', exact: true }).click();
    await o.page.getByRole('button', { name: 'Unlock sub-account' }).waitFor();
    await o.page.getByText('Locked', { exact: true }).first().waitFor();
    await shot(o.page, 'sub-account-detail-1280');

    // The list shows its balance and status.
    await o.page.goto('/settings/sub-accounts');
    await appReady(o.page);
    const row = o.page.getByRole('table', { name: 'Sub-accounts' }).getByRole('row', { name: /Acme Clinic/ });
    await row.getByText('$2.50').waitFor();
    await row.getByText('Locked').waitFor();
    await shot(o.page, 'sub-accounts-list-1280');
    await o.context.close();

    // At 390 px: the list and the detail, nothing scrolls sideways.
    const m = await newContext(browser, server.baseUrl, { width: 390, height: 844 });
    await signIn(m.page, owner);
    await m.page.goto('/settings/sub-accounts');
    await appReady(m.page);
    await m.page.getByRole('table', { name: 'Sub-accounts' }).getByText('Acme Clinic').waitFor();
    await appReady(m.page);
    assert.ok(await noSideScroll(m.page), 'the list fits 390 px');
    await shot(m.page, 'sub-accounts-list-390');
    await m.page.getByRole('link', { name: 'Acme Clinic' }).click();
    await appReady(m.page);
    await m.page.getByTestId('sub-account-balance').getByText('$2.50').waitFor();
    await m.page.getByRole('table', { name: 'Prices per message part' }).waitFor();
    await appReady(m.page);
    assert.ok(await noSideScroll(m.page), 'the detail fits 390 px');
    await shot(m.page, 'sub-account-detail-390');
    await m.context.close();
  });
});
