import assert from 'node:assert/strict';
import { after, before, describe, it } from '../lib/test';
import type { Browser } from 'playwright-core';
import { appReady, registerViaApi, signIn, type TestUser } from '../lib/app';
import { describeViolations, seriousViolations } from '../lib/axe';
import { launchBrowser, newContext, screenshot } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';

let server: RunningServer;
let browser: Browser;
let user: TestUser;

before(async () => {
  server = await startServer({ SIMULATOR_MIX: 'DELIVRD=100', SIMULATOR_DELAY_MS: '200' });
  browser = await launchBrowser();
  user = await registerViaApi(server.baseUrl);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const NUMBERS = Array.from({ length: 7 }, (_, i) => `+1415555${String(300 + i).padStart(4, '0')}`);

// Issue 41 item 3: a campaign sent in batches with a pause, and a rate for one network, from the
// composer; the detail says how it is shaped and when it should finish, and only the first batches
// go at once.
describe('delivery shaping', () => {
  it('sends in batches of 3 a minute apart with a network rate, and the detail projects the finish', async () => {
    const { context, page, errors } = await newContext(browser, server.baseUrl, {
      width: 1366,
      height: 1400,
    });
    await signIn(page, user);
    await page.goto('/sms/bulk');
    await appReady(page);
    await page.getByRole('textbox', { name: 'Paste numbers' }).fill(NUMBERS.join('\n'));
    await page.getByRole('textbox', { name: /^Message/ }).fill('Shaped hello');
    await page.getByRole('switch', { name: /Send in batches/ }).check();
    await page.getByRole('textbox', { name: 'Batch size' }).fill('3');
    await page.getByRole('textbox', { name: 'Pause between batches' }).fill('1');
    await page.getByRole('button', { name: 'Add a network rate' }).click();
    await page.getByRole('textbox', { name: 'Prefix' }).fill('+1415');
    await page.getByRole('textbox', { name: 'At most' }).fill('600');
    // The estimate is in before the review (7 recipients).
    await page.waitForFunction(
      () => document.querySelector('[data-testid="estimate-recipients"]')?.textContent?.trim() === '7',
    );
    await screenshot(page, 'delivery-shaping-composer-1366');

    await page.getByRole('button', { name: 'Review and send' }).click();
    const review = page.getByRole('dialog', { name: 'Review and send' });
    await review.getByText('3 messages, then a pause of 60 s').waitFor();
    await review.getByText('+1415 at most 600 a minute').waitFor();
    await review.getByRole('button', { name: 'Send to 7 recipients' }).click();
    await page.waitForURL('**/reports/bulk-sms-detail/*');
    await appReady(page);
    await page.getByText(/in batches of 3, 60 s apart · \+1415 at most 600 a minute/).waitFor();
    const finish = page.getByTestId('projected-finish');
    await finish.waitFor();
    assert.match(await finish.innerText(), /^Projected finish: \d{1,2} \w{3} \d{4}, \d\d:\d\d \(/);
    await screenshot(page, 'delivery-shaping-detail-1366');
    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], describeViolations('campaign detail (shaped)', violations));
    await page.setViewportSize({ width: 390, height: 1200 });
    await screenshot(page, 'delivery-shaping-detail-390');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
