import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from '../lib/test';
import type { Browser, Page } from 'playwright-core';
import { appReady, registerViaApi, signIn, type TestUser } from '../lib/app';
import { launchBrowser, newContext } from '../lib/browser';
import { SCREENSHOT_DIR, TMP_DIR } from '../lib/paths';
import { startServer, type RunningServer } from '../lib/server';

let server: RunningServer;
let browser: Browser;
let user: TestUser;
/** A second, dark-scheme session of the same user, for the dark screenshots. */
let dark: Page;

before(async () => {
  // Sender IDs are approved on request, so "Make default" can be exercised.
  server = await startServer({ SENDER_ID_APPROVAL: 'auto' });
  browser = await launchBrowser();
  user = await registerViaApi(server.baseUrl);
  dark = (await newContext(browser, server.baseUrl, { ...VIEWPORT, colorScheme: 'dark' })).page;
  await signIn(dark, user);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const VIEWPORT = { width: 1280, height: 900 };

const toast = (page: Page, text: string | RegExp) =>
  page.locator('.mantine-Notification-root', { hasText: text });

const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });

/** A full-page screenshot as e2e/screenshots/<name>.png, without toasts covering the content. */
async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, `${name}.png`),
    fullPage: true,
    style: '.mantine-Notifications-root { display: none !important; }',
  });
}

/**
 * Light and dark screenshots (e2e/screenshots/directory-<scheme>-<name>.png) of a signed-in page;
 * the dark one is taken once `ready` shows.
 */
async function shoot(light: Page, name: string, ready: string): Promise<void> {
  await screenshot(light, `directory-light-${name}`);
  await dark.goto(new URL(light.url()).pathname);
  await appReady(dark);
  await dark.locator(ready).first().waitFor();
  await screenshot(dark, `directory-dark-${name}`);
}

async function openPage(page: Page, href: string): Promise<void> {
  await page.goto(href);
  await appReady(page);
}

describe('directory', () => {
  it('requests sender IDs with live hints, makes one the default and deletes one', async () => {
    const { page, errors } = await newContext(browser, server.baseUrl, VIEWPORT);
    await signIn(page, user);
    await openPage(page, '/sender-id');
    await page.getByText('No sender IDs yet').waitFor();
    await page.getByText('How approval works').waitFor();

    const request = async (value: string) => {
      await page.getByRole('button', { name: 'Request sender ID' }).first().click();
      const form = dialog(page, 'Request sender ID');
      await form.getByRole('textbox', { name: 'Sender ID', exact: true }).fill(value);
      await form.getByRole('textbox', { name: 'Purpose' }).fill('Order and delivery updates for our shop');
      await form.getByRole('textbox', { name: 'Sample message' }).fill('Your order 1042 has shipped.');
      return form;
    };

    // Live hints: the length against the limit, and a problem that more typing cannot fix.
    const form = await request('WrenShopOnline');
    await form
      .getByTestId('sender-id-hint')
      .filter({ hasText: 'Alphanumeric sender · 14 / 11 characters' })
      .waitFor();
    await form.getByText('An alphanumeric sender ID can have at most 11 characters').waitFor();
    const value = form.getByRole('textbox', { name: 'Sender ID', exact: true });
    await value.fill('+1 212 555 0101');
    await form.getByTestId('sender-id-hint').filter({ hasText: 'Numeric sender · 11 / 15 digits' }).waitFor();
    await value.fill('WrenShop');
    await form.getByRole('button', { name: 'Send request' }).click();
    await toast(page, 'Sender ID "WrenShop" is approved and ready to use.').waitFor();
    await form.waitFor({ state: 'hidden' });

    // A duplicate comes back as a 409 on the field.
    const again = await request('WrenShop');
    await again.getByRole('button', { name: 'Send request' }).click();
    await again.getByText(/already have the sender ID/).waitFor();
    await again.getByRole('textbox', { name: 'Sender ID', exact: true }).fill('WrenAlerts');
    await again.getByRole('button', { name: 'Send request' }).click();
    await again.waitFor({ state: 'hidden' });

    const rows = page.getByTestId('sender-id-row');
    await rows.nth(1).waitFor();
    // The first approved sender ID became the default.
    const shop = rows.filter({ hasText: 'WrenShop' });
    await shop.getByText('Default').waitFor();
    await rows.filter({ hasText: 'WrenAlerts' }).getByText('Approved', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Make WrenAlerts the default sender ID' }).click();
    await toast(page, '"WrenAlerts" is now your default sender ID.').waitFor();
    await rows.first().filter({ hasText: 'WrenAlerts' }).getByText('Default').waitFor();
    await shop.getByRole('button', { name: 'Make WrenShop the default sender ID' }).waitFor();
    await shoot(page, 'sender-ids', '[data-testid="sender-id-row"]');

    // Delete, after a confirmation that Cancel can back out of.
    await page.getByRole('button', { name: 'Delete sender ID WrenShop' }).click();
    const confirm = dialog(page, 'Delete sender ID');
    await confirm.getByText(/You will no longer be able to send from it/).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Delete sender ID WrenShop' }).click();
    await confirm.getByRole('button', { name: 'Delete sender ID' }).click();
    await toast(page, 'Sender ID "WrenShop" has been deleted.').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="sender-id-row"]').length === 1);

    // Every status, from a stubbed list: pending review, and a rejection with its reason.
    await page.route('**/api/sender-ids', (route) => route.fulfill({ json: { items: STATUS_FIXTURES } }));
    await dark.route('**/api/sender-ids', (route) => route.fulfill({ json: { items: STATUS_FIXTURES } }));
    await openPage(page, '/sender-id');
    await page.getByText('Pending review', { exact: true }).waitFor();
    await page.getByText('Reason: Brand names need a trademark document').waitFor();
    await shoot(page, 'sender-id-statuses', 'text=Pending review');
    await page.unroute('**/api/sender-ids');
    await dark.unroute('**/api/sender-ids');

    // The request form, with a live hint, in both schemes.
    await page.getByRole('button', { name: 'Request sender ID' }).first().click();
    await dialog(page, 'Request sender ID')
      .getByRole('textbox', { name: 'Sender ID', exact: true })
      .fill('Wren Shop');
    await screenshot(page, 'directory-light-sender-id-request');
    assert.deepEqual(errors, []);
  });

  it('creates a group, adds a contact, imports a CSV, exports, and deletes with confirmation', async () => {
    const { page, errors } = await newContext(browser, server.baseUrl, VIEWPORT);
    await signIn(page, user);
    await openPage(page, '/groups');
    await page.getByText('No contact groups yet').waitFor();
    await page.getByRole('button', { name: 'New group' }).click();
    const naming = dialog(page, 'New group');
    await naming.getByRole('textbox', { name: 'Group name' }).fill('Customers');
    await naming.getByRole('button', { name: 'Create group' }).click();
    await page.waitForURL(/\/groups\/[0-9a-f-]{36}\/contacts$/);
    await page.getByTestId('group-name').filter({ hasText: 'Customers' }).waitFor();
    await page.getByText('This group has no contacts yet').waitFor();

    // Add a contact with a custom field.
    await page.getByRole('button', { name: 'Add contact' }).first().click();
    const add = dialog(page, 'Add contact');
    await add.getByRole('textbox', { name: 'Phone number' }).fill('+14155550123');
    await add.getByRole('textbox', { name: 'Name', exact: true }).fill('Ada Lovelace');
    await add.getByRole('button', { name: 'Add field' }).click();
    await add.getByLabel('Field name 1').fill('city');
    await add.getByRole('textbox', { name: 'Field value 1' }).fill('London');
    await screenshot(page, 'directory-light-contact-form');
    await add.getByRole('button', { name: 'Add contact' }).click();
    await toast(page, 'Ada Lovelace has been added.').waitFor();
    await page.getByTestId('group-count').filter({ hasText: '1 contact' }).waitFor();
    await page.getByTestId('contact-row').filter({ hasText: 'London' }).waitFor();

    // Import: two new numbers, one invalid, one already in the group.
    mkdirSync(TMP_DIR, { recursive: true });
    const csv = path.join(TMP_DIR, `contacts-${Date.now()}.csv`);
    writeFileSync(
      csv,
      'Mobile,Full Name,City\n+12125550101,Alan Turing,Manchester\n+12125550102,Grace Hopper,New York\n12345,Not A Number,Nowhere\n+14155550123,Ada again,London\n',
    );
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const wizard = dialog(page, 'Import contacts into Customers');
    await wizard
      .locator('input[type="file"]')
      .setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF') });
    await wizard.getByText('Choose a CSV, TXT or XLSX file.').waitFor();
    await wizard.locator('input[type="file"]').setInputFiles(csv);
    await wizard.getByRole('combobox', { name: 'Phone number column' }).waitFor();
    assert.equal(await wizard.getByRole('combobox', { name: 'Phone number column' }).inputValue(), 'Mobile');
    assert.equal(await wizard.getByRole('combobox', { name: 'Name column' }).inputValue(), 'Full Name');
    await wizard.getByRole('table', { name: 'File preview' }).getByText('Alan Turing').waitFor();
    await wizard.getByRole('checkbox', { name: 'City' }).check();
    await wizard.getByRole('textbox', { name: 'Field name for City' }).fill('city');
    await screenshot(page, 'directory-light-import-mapping');
    await wizard.getByRole('button', { name: 'Import contacts' }).click();
    await wizard.getByText('Import complete').waitFor({ timeout: 20_000 });
    assert.match(await wizard.getByTestId('import-added').innerText(), /2$/);
    assert.match(await wizard.getByTestId('import-invalid').innerText(), /1$/);
    assert.match(await wizard.getByTestId('import-duplicates').innerText(), /1$/);
    await screenshot(page, 'directory-light-import-done');
    const [report] = await Promise.all([
      page.waitForEvent('download'),
      wizard.getByRole('button', { name: 'Download report' }).click(),
    ]);
    const reportText = readFileSync(await report.path(), 'utf8');
    assert.match(reportText, /12345/);
    assert.match(reportText, /\+14155550123/);
    await wizard.getByRole('button', { name: 'Done' }).click();
    await wizard.waitFor({ state: 'hidden' });
    await page.getByTestId('group-count').filter({ hasText: '3 contacts' }).waitFor();
    await page.getByTestId('contact-row').filter({ hasText: 'Manchester' }).waitFor();
    await shoot(page, 'group-contacts', '[data-testid="contact-row"]');

    // Search (debounced) and sort.
    await page.getByRole('searchbox', { name: 'Search contacts' }).fill('grace');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="contact-row"]').length === 1);
    await page.getByTestId('contact-row').filter({ hasText: 'Grace Hopper' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search contacts' }).fill('');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="contact-row"]').length === 3);
    await page.getByRole('combobox', { name: 'Sort contacts' }).click();
    await page.getByRole('option', { name: 'Name (A–Z)' }).click();
    await page.getByTestId('contact-row').first().filter({ hasText: 'Ada Lovelace' }).waitFor();

    // Export: the CSV comes through the app's client (with the bearer token).
    const [exported] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const exportText = readFileSync(await exported.path(), 'utf8');
    for (const phone of ['+14155550123', '+12125550101', '+12125550102'])
      assert.ok(exportText.includes(phone), phone);
    assert.match(exported.suggestedFilename(), /\.csv$/);

    // Bulk delete two of them, after confirming.
    await page.getByRole('checkbox', { name: 'Select Alan Turing' }).check();
    await page.getByRole('checkbox', { name: 'Select Grace Hopper' }).check();
    await page.getByTestId('selected-count').filter({ hasText: '2 selected' }).waitFor();
    await screenshot(page, 'directory-light-contacts-selected');
    await page.getByRole('button', { name: 'Delete selected' }).click();
    const confirmBulk = dialog(page, 'Delete contacts');
    await confirmBulk.getByText('2 contacts').waitFor();
    await confirmBulk.getByRole('button', { name: 'Delete', exact: true }).click();
    await toast(page, '2 contacts have been deleted.').waitFor();
    await page.getByTestId('group-count').filter({ hasText: '1 contact' }).waitFor();

    // Edit the remaining contact.
    await page.getByRole('button', { name: 'Edit Ada Lovelace' }).click();
    const edit = dialog(page, 'Edit contact');
    await edit.getByRole('textbox', { name: 'Name', exact: true }).fill('Ada King');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Ada King has been updated.').waitFor();

    // Groups list: the count, then delete the group (the modal says how many contacts go with it).
    await page.getByRole('link', { name: 'All groups' }).click();
    await page.waitForURL('**/groups');
    await page.getByTestId('group-row').filter({ hasText: 'Customers' }).filter({ hasText: '1' }).waitFor();
    await shoot(page, 'groups', '[data-testid="group-row"]');
    await page.getByRole('button', { name: 'Delete group Customers' }).click();
    const confirmGroup = dialog(page, 'Delete group');
    await confirmGroup.getByText('1 contact', { exact: true }).waitFor();
    await confirmGroup.getByRole('button', { name: 'Delete group' }).click();
    await toast(page, 'Group "Customers" has been deleted.').waitFor();
    await page.getByText('No contact groups yet').waitFor();
    assert.deepEqual(errors, []);
  });

  it('creates a template with a highlighted {{name}} placeholder, edits and deletes it', async () => {
    const { page, errors } = await newContext(browser, server.baseUrl, VIEWPORT);
    await signIn(page, user);
    await openPage(page, '/templates');
    await page.getByText('No saved messages yet').waitFor();
    await page.getByRole('button', { name: 'New template' }).click();
    const form = dialog(page, 'New template');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Order shipped');
    const text = form.getByRole('textbox', { name: 'Message' });
    await text.fill('Hi ');
    await form.getByRole('button', { name: '{{name}}' }).click();
    await text.press('End');
    await text.pressSequentially(', your order ships today. We’re on it!');
    await form.getByTestId('template-preview').locator('[data-placeholder="name"]').waitFor();
    await form.getByTestId('placeholder-list').filter({ hasText: 'Placeholders: name' }).waitFor();
    await form.getByTestId('sms-counter').filter({ hasText: 'Unicode (UCS-2)' }).waitFor();
    await form.getByTestId('unicode-char').filter({ hasText: '’' }).waitFor();
    await screenshot(page, 'directory-light-template-form');
    await text.fill('Hi {{name}}, your order ships today. We are on it!');
    await form.getByTestId('sms-counter').filter({ hasText: 'GSM-7' }).waitFor();
    await form.getByTestId('sms-counter').filter({ hasText: '1 SMS segment' }).waitFor();
    await form.getByRole('button', { name: 'Save template' }).click();
    await toast(page, 'Template "Order shipped" has been saved.').waitFor();
    const card = page.getByTestId('template-card').filter({ hasText: 'Order shipped' });
    await card.locator('[data-placeholder="name"]').waitFor();

    // A second one, so the grid shows more than one card; a duplicate name is refused on the field.
    await page.getByRole('button', { name: 'New template' }).click();
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Order shipped');
    await form.getByRole('textbox', { name: 'Message' }).fill('Your code is {{code}}');
    await form.getByRole('button', { name: 'Save template' }).click();
    await form.getByText(/already have a template named/).waitFor();
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Login code');
    await form.getByRole('button', { name: 'Save template' }).click();
    await form.waitFor({ state: 'hidden' });
    await page.getByTestId('template-card').nth(1).waitFor();
    await shoot(page, 'templates', '[data-testid="template-card"]');

    await page.getByRole('button', { name: 'Edit template Login code' }).click();
    const edit = dialog(page, 'Edit "Login code"');
    await edit
      .getByRole('textbox', { name: 'Message' })
      .fill('Your Wren code is {{code}}. It expires in 5 minutes.');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Template "Login code" has been updated.').waitFor();
    await page.getByTestId('template-card').filter({ hasText: 'expires in 5 minutes' }).waitFor();

    await page.getByRole('button', { name: 'Delete template Login code' }).click();
    const confirm = dialog(page, 'Delete template');
    await confirm.getByRole('button', { name: 'Delete template' }).click();
    await toast(page, 'Template "Login code" has been deleted.').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="template-card"]').length === 1);
    assert.deepEqual(errors, []);
  });
});

const STATUS_FIXTURES = [
  {
    id: '00000000-0000-4000-8000-000000000001',
    value: 'WrenShop',
    kind: 'alphanumeric',
    purpose: 'Order and delivery updates for our shop',
    sampleMessage: 'Your order 1042 has shipped.',
    status: 'approved',
    reason: null,
    isDefault: true,
    createdAt: '2024-03-01T10:00:00.000Z',
    decidedAt: '2024-03-01T12:00:00.000Z',
  },
  {
    id: '00000000-0000-4000-8000-000000000002',
    value: '12125550101',
    kind: 'numeric',
    purpose: 'Two-way support conversations',
    sampleMessage: 'Reply HELP for help or STOP to opt out.',
    status: 'approved',
    reason: null,
    isDefault: false,
    createdAt: '2024-03-02T10:00:00.000Z',
    decidedAt: '2024-03-02T12:00:00.000Z',
  },
  {
    id: '00000000-0000-4000-8000-000000000003',
    value: 'WrenPromo',
    kind: 'alphanumeric',
    purpose: 'Seasonal offers for subscribers who opted in',
    sampleMessage: 'Spring sale: 20% off everything this weekend.',
    status: 'requested',
    reason: null,
    isDefault: false,
    createdAt: '2024-03-05T10:00:00.000Z',
    decidedAt: null,
  },
  {
    id: '00000000-0000-4000-8000-000000000004',
    value: 'Acme',
    kind: 'alphanumeric',
    purpose: 'Notifications on behalf of a partner brand',
    sampleMessage: 'Acme: your parcel is ready for pickup.',
    status: 'rejected',
    reason: 'Brand names need a trademark document',
    isDefault: false,
    createdAt: '2024-03-04T10:00:00.000Z',
    decidedAt: '2024-03-04T15:00:00.000Z',
  },
];
