import assert from 'node:assert/strict';
import { after, before, describe, it } from '../lib/test';
import type { Browser, Page } from 'playwright-core';
import { apiCall, appReady, registerViaApi, signIn, type TestUser } from '../lib/app';
import { launchBrowser, newContext } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';

/**
 * Issue 47 item 2: a campaign to a contact group fills {{name}} and custom fields from each contact
 * (Bulk SMS and Personalised SMS with "Contact group" as its source); the review shows each
 * recipient's message and warns about the placeholders a recipient has no value for.
 */
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
  const group = await apiCall(server.baseUrl, 'POST', '/api/groups', { name: 'Customers' }, token);
  const id = String(group.body?.id);
  for (const contact of [
    { phone: '+14155550401', name: 'Ann', fields: { company: 'Acme' } },
    { phone: '+14155550402', name: 'Bob', fields: { city: 'Leeds' } },
  ]) {
    const res = await apiCall(server.baseUrl, 'POST', `/api/groups/${id}/contacts`, contact, token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const VIEWPORT = { width: 1366, height: 1400 };

async function chooseGroup(page: Page) {
  await page.locator('input').and(page.getByLabel('Contact groups')).click();
  await page.getByRole('option', { name: 'Customers (2)' }).click();
  await page.keyboard.press('Escape');
}

/** The texts the campaign of the detail page the browser is on sent, by recipient. */
async function sentTexts(page: Page): Promise<Record<string, string>> {
  await page.waitForURL('**/reports/bulk-sms-detail/*');
  const id = page.url().split('/').pop() ?? '';
  const res = await apiCall(
    server.baseUrl,
    'GET',
    `/api/campaigns/${id}/messages?limit=10`,
    undefined,
    token,
  );
  assert.equal(res.status, 200);
  const items = (res.body?.items ?? []) as { recipient: string; text: string }[];
  return Object.fromEntries(items.map((m) => [m.recipient, m.text]));
}

describe('contact fields in campaigns', () => {
  it('Bulk SMS to a group fills {{name}} and {{company}} per contact; the review previews and warns', async () => {
    const { context, page, errors } = await newContext(browser, server.baseUrl, VIEWPORT);
    await signIn(page, user);
    await page.goto('/sms/bulk');
    await appReady(page);
    await chooseGroup(page);
    await page.getByRole('textbox', { name: 'Message' }).fill('Hi {{name}} from {{company}}');
    // The page previews each recipient as sent.
    await page.getByTestId('personalised-preview').getByText('Hi Ann from Acme').waitFor();

    await page.getByRole('button', { name: 'Review and send' }).click();
    const review = page.getByRole('dialog', { name: 'Review and send' });
    await review.getByTestId('review-preview').getByText('Hi Ann from Acme').waitFor();
    await review.getByTestId('review-preview').getByText('Hi Bob from').waitFor();
    await review
      .getByTestId('missing-values')
      .getByText('1 recipient has no value for {{company}}')
      .waitFor();
    await review.getByRole('button', { name: 'Send to 2 recipients' }).click();

    const texts = await sentTexts(page);
    assert.deepEqual(texts, { '+14155550401': 'Hi Ann from Acme', '+14155550402': 'Hi Bob from ' });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('Personalised SMS takes a contact group as its source; its fields are the columns to insert', async () => {
    const { context, page, errors } = await newContext(browser, server.baseUrl, VIEWPORT);
    await signIn(page, user);
    await page.goto('/sms/personalised-bulk');
    await appReady(page);
    await page.getByText('Contact group', { exact: true }).click();
    assert.equal(await page.getByTestId('recipients-upload').count(), 0);
    await chooseGroup(page);
    const text = page.getByRole('textbox', { name: 'Message' });
    await text.fill('Dear ');
    await page.getByRole('button', { name: '{{name}}' }).click();
    await text.press('End');
    await text.pressSequentially(' in ');
    await page.getByRole('button', { name: '{{city}}' }).click();
    assert.equal(await text.inputValue(), 'Dear {{name}} in {{city}}');
    await page.getByTestId('personalised-preview').getByText('Dear Bob in Leeds').waitFor();

    await page.getByRole('button', { name: 'Review and send' }).click();
    const review = page.getByRole('dialog', { name: 'Review and send' });
    await review.getByTestId('review-preview').getByText('Dear Bob in Leeds').waitFor();
    await review.getByTestId('missing-values').getByText('1 recipient has no value for {{city}}').waitFor();
    await review.getByRole('button', { name: 'Send to 2 recipients' }).click();

    const texts = await sentTexts(page);
    assert.deepEqual(texts, { '+14155550401': 'Dear Ann in ', '+14155550402': 'Dear Bob in Leeds' });
    assert.deepEqual(errors, []);
    await context.close();
  });
});
