import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from '../lib/test';
import type { Browser, Locator, Page } from 'playwright-core';
import { apiCall, appReady, registerViaApi, signIn, type TestUser } from '../lib/app';
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

const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text });

const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });

type Scope = Page | Locator;
const box = (scope: Scope, name: string) => scope.getByRole('textbox', { name, exact: true });
const press = (scope: Scope, name: string) =>
  scope.getByRole('button', { name, exact: true }).first().click();
const shows = (scope: Scope, testId: string, text: string | RegExp) =>
  scope.getByTestId(testId).filter({ hasText: text }).first().waitFor();

/** Clicks a download button; the saved file's name and text. */
async function download(page: Page, scope: Scope, button: string) {
  const [file] = await Promise.all([page.waitForEvent('download'), press(scope, button)]);
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
}

/** A full-page screenshot as e2e/screenshots/<name>.png, without toasts covering the content. */
async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await appReady(page); // the busy overlay has faded out
  await page.waitForTimeout(250); // modal and action bar transitions have settled
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, `${name}.png`),
    fullPage: true,
    style: '.mantine-Notifications-root { display: none !important; }',
  });
}

/** Light and dark screenshots (directory-<scheme>-<name>.png) of a page, each once `ready` shows. */
async function shoot(light: Page, name: string, ready: string): Promise<void> {
  await light.locator(ready).first().waitFor();
  await screenshot(light, `directory-light-${name}`);
  await dark.goto(new URL(light.url()).pathname);
  await appReady(dark);
  await dark.locator(ready).first().waitFor();
  await screenshot(dark, `directory-dark-${name}`);
}

/** Waits until exactly `n` elements with the test id are on the page. */
async function rowCount(page: Page, id: string, n: number): Promise<void> {
  const sel = `[data-testid="${id}"]`;
  await page.waitForFunction(([s, c]) => document.querySelectorAll(s).length === c, [sel, n] as const);
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
    await page.getByText('How sender IDs work').waitFor();
    await shoot(page, 'sender-ids-empty', 'text=No sender IDs yet');

    const request = async (value: string) => {
      await press(page, 'Request sender ID');
      const form = dialog(page, 'Request sender ID');
      await box(form, 'Sender ID').fill(value);
      await box(form, 'Purpose').fill('Order and delivery updates for our shop');
      await box(form, 'Sample message').fill('Your order 1042 has shipped.');
      return form;
    };

    // Live hints: the length against the limit, and a problem that more typing cannot fix.
    const form = await request('WrenShopOnline');
    await shows(form, 'sender-id-hint', 'Alphanumeric sender · 14 / 11 characters');
    await form.getByText('An alphanumeric sender ID can have at most 11 characters').waitFor();
    await screenshot(page, 'directory-light-sender-id-request');
    const value = box(form, 'Sender ID');
    await value.fill('+1 212 555 0101');
    await shows(form, 'sender-id-hint', 'Numeric sender · 11 / 15 digits');
    await value.fill('WrenShop');
    await press(form, 'Send request');
    await toast(page, 'Sender ID "WrenShop" is approved and ready to use.').waitFor();
    await form.waitFor({ state: 'hidden' });

    // A duplicate comes back as a 409 on the field.
    const again = await request('WrenShop');
    await press(again, 'Send request');
    await again.getByText(/already have the sender ID/).waitFor();
    await box(again, 'Sender ID').fill('WrenAlerts');
    await press(again, 'Send request');
    await again.waitFor({ state: 'hidden' });

    const rows = page.getByTestId('sender-id-row');
    // The first approved sender ID became the default.
    const shop = rows.filter({ hasText: 'WrenShop' });
    await shop.getByText('Default').waitFor();
    await rows.filter({ hasText: 'WrenAlerts' }).getByText('Approved', { exact: true }).waitFor();

    await press(page, 'Make WrenAlerts the default sender ID');
    await toast(page, '"WrenAlerts" is now your default sender ID.').waitFor();
    await rows.first().filter({ hasText: 'WrenAlerts' }).getByText('Default').waitFor();
    await shop.getByRole('button', { name: 'Make WrenShop the default sender ID' }).waitFor();
    await shoot(page, 'sender-ids', '[data-testid="sender-id-row"]');

    // Delete, after a confirmation.
    await press(page, 'Delete sender ID WrenShop');
    const confirm = dialog(page, 'Delete sender ID');
    await confirm.getByText(/You will no longer be able to send from it/).waitFor();
    await press(confirm, 'Delete sender ID');
    await toast(page, 'Sender ID "WrenShop" has been deleted.').waitFor();
    await rowCount(page, 'sender-id-row', 1);

    assert.deepEqual(errors, []);
  });

  it('creates a group, adds a contact, imports a CSV, exports, and deletes with confirmation', async () => {
    const { page, errors } = await newContext(browser, server.baseUrl, VIEWPORT);
    await signIn(page, user);
    await openPage(page, '/groups');
    await shoot(page, 'groups-empty', 'text=No contact groups yet');
    await press(page, 'New group');
    const naming = dialog(page, 'New group');
    await box(naming, 'Group name').fill('Customers');
    await press(naming, 'Create group');
    await page.waitForURL(/\/groups\/[0-9a-f-]{36}\/contacts$/);
    await shows(page, 'group-name', 'Customers');
    await shoot(page, 'group-contacts-empty', 'text=This group has no contacts yet');

    // Add a contact with a custom field.
    await press(page, 'Add contact');
    const add = dialog(page, 'Add contact');
    await box(add, 'Phone number').fill('+14155550123');
    await box(add, 'Name').fill('Ada Lovelace');
    await press(add, 'Add field');
    await add.getByLabel('Field name 1').fill('city');
    await box(add, 'Field value 1').fill('London');
    await screenshot(page, 'directory-light-contact-form');
    await press(add, 'Add contact');
    await toast(page, 'Ada Lovelace has been added.').waitFor();
    await shows(page, 'group-count', '1 contact');
    await shows(page, 'contact-row', 'London');

    // Import: two new numbers, one invalid, one already in the group.
    mkdirSync(TMP_DIR, { recursive: true });
    const csv = path.join(TMP_DIR, `contacts-${Date.now()}.csv`);
    writeFileSync(
      csv,
      'Mobile,Full Name,City\n+12125550101,Alan Turing,Manchester\n+12125550102,Grace Hopper,New York\n12345,Not A Number,Nowhere\n+14155550123,Ada again,London\n',
    );
    await press(page, 'Import');
    const wizard = dialog(page, 'Import contacts into Customers');
    const file = wizard.locator('input[type="file"]');
    await file.setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF') });
    await wizard.getByText('Choose a CSV, TXT or XLSX file.').waitFor();
    await screenshot(page, 'directory-light-import-upload');
    await file.setInputFiles(csv);
    await wizard.getByRole('combobox', { name: 'Phone number column' }).waitFor();
    assert.equal(await wizard.getByRole('combobox', { name: 'Phone number column' }).inputValue(), 'Mobile');
    assert.equal(await wizard.getByRole('combobox', { name: 'Name column' }).inputValue(), 'Full Name');
    await wizard.getByRole('table', { name: 'File preview' }).getByText('Alan Turing').waitFor();
    await wizard.getByRole('checkbox', { name: 'City' }).check();
    await box(wizard, 'Field name for City').fill('city');
    await screenshot(page, 'directory-light-import-mapping');
    await press(wizard, 'Import contacts');
    await wizard.getByText('Import complete').waitFor({ timeout: 20_000 });
    assert.match(await wizard.getByTestId('import-added').innerText(), /2$/);
    assert.match(await wizard.getByTestId('import-invalid').innerText(), /1$/);
    assert.match(await wizard.getByTestId('import-duplicates').innerText(), /1$/);
    await screenshot(page, 'directory-light-import-done');
    const report = await download(page, wizard, 'Download report');
    assert.match(report.text, /12345[\s\S]*\+14155550123|\+14155550123[\s\S]*12345/);
    await press(wizard, 'Done');
    await wizard.waitFor({ state: 'hidden' });
    await shows(page, 'group-count', '3 contacts');
    await shows(page, 'contact-row', 'Manchester');
    await shoot(page, 'group-contacts', '[data-testid="contact-row"]');

    // Search (debounced) and sort.
    await page.getByRole('searchbox', { name: 'Search contacts' }).fill('grace');
    await rowCount(page, 'contact-row', 1);
    await shows(page, 'contact-row', 'Grace Hopper');
    await page.getByRole('searchbox', { name: 'Search contacts' }).fill('');
    await rowCount(page, 'contact-row', 3);
    await page.getByRole('combobox', { name: 'Sort contacts' }).click();
    await page.getByRole('option', { name: 'Name (A–Z)' }).click();
    await page.getByTestId('contact-row').first().filter({ hasText: 'Ada Lovelace' }).waitFor();

    // Export: the CSV comes through the app's client (with the bearer token).
    const exported = await download(page, page, 'Export CSV');
    for (const n of ['+14155550123', '+12125550101', '+12125550102']) assert.ok(exported.text.includes(n));
    assert.match(exported.name, /\.csv$/);

    // Bulk delete two of them, after confirming.
    await page.getByRole('checkbox', { name: 'Select Alan Turing' }).check();
    await page.getByRole('checkbox', { name: 'Select Grace Hopper' }).check();
    await shows(page, 'selected-count', '2 selected');
    await screenshot(page, 'directory-light-contacts-selected');
    await press(page, 'Delete selected');
    const confirmBulk = dialog(page, 'Delete contacts');
    await confirmBulk.getByText('2 contacts').waitFor();
    await press(confirmBulk, 'Delete');
    await toast(page, '2 contacts have been deleted.').waitFor();
    await shows(page, 'group-count', '1 contact');

    // Groups list: the count, then delete the group (the modal says how many contacts go with it).
    await page.getByRole('link', { name: 'All groups' }).click();
    await page.waitForURL('**/groups');
    await page.getByTestId('group-row').filter({ hasText: 'Customers' }).filter({ hasText: '1' }).waitFor();
    await shoot(page, 'groups', '[data-testid="group-row"]');
    await press(page, 'Delete group Customers');
    const confirmGroup = dialog(page, 'Delete group');
    await confirmGroup.getByText('1 contact', { exact: true }).waitFor();
    await press(confirmGroup, 'Delete group');
    await toast(page, 'Group "Customers" has been deleted.').waitFor();
    await page.getByText('No contact groups yet').waitFor();
    assert.deepEqual(errors, []);
  });

  it('creates a template with a highlighted {{name}} placeholder, edits and deletes it', async () => {
    const { page, errors } = await newContext(browser, server.baseUrl, VIEWPORT);
    await signIn(page, user);
    await openPage(page, '/templates');
    await shoot(page, 'templates-empty', 'text=No saved messages yet');
    await press(page, 'New template');
    const form = dialog(page, 'New template');
    await box(form, 'Name').fill('Order shipped');
    const text = box(form, 'Message');
    await text.fill('Hi ');
    await press(form, '{{name}}');
    await text.press('End');
    await text.pressSequentially(', your order ships today. We’re on it!');
    await form.getByTestId('template-preview').locator('[data-placeholder="name"]').waitFor();
    await shows(form, 'placeholder-list', 'Placeholders: name');
    await shows(form, 'sms-counter', 'Unicode (UCS-2)');
    await shows(form, 'unicode-char', '’');
    await screenshot(page, 'directory-light-template-form');
    await text.fill('Hi {{name}}, your order ships today. We are on it!');
    await shows(form, 'sms-counter', 'GSM-7');
    await shows(form, 'sms-counter', '1 SMS segment');
    await press(form, 'Save template');
    await toast(page, 'Template "Order shipped" has been saved.').waitFor();
    const card = page.getByTestId('template-card').filter({ hasText: 'Order shipped' });
    await card.locator('[data-placeholder="name"]').waitFor();

    // A second one, so the grid shows more than one card; a duplicate name is refused on the field.
    await press(page, 'New template');
    await box(form, 'Name').fill('Order shipped');
    await box(form, 'Message').fill('Your code is {{code}}');
    await press(form, 'Save template');
    await form.getByText(/already have a template named/).waitFor();
    await box(form, 'Name').fill('Login code');
    await press(form, 'Save template');
    await form.waitFor({ state: 'hidden' });
    await page.getByTestId('template-card').nth(1).waitFor();
    await shoot(page, 'templates', '[data-testid="template-card"]');

    await press(page, 'Edit template Login code');
    const edit = dialog(page, 'Edit "Login code"');
    await box(edit, 'Message').fill('Your Wren code is {{code}}. It expires in 5 minutes.');
    await press(edit, 'Save changes');
    await toast(page, 'Template "Login code" has been updated.').waitFor();
    await shows(page, 'template-card', 'expires in 5 minutes');

    await press(page, 'Delete template Login code');
    const confirm = dialog(page, 'Delete template');
    await press(confirm, 'Delete template');
    await toast(page, 'Template "Login code" has been deleted.').waitFor();
    await rowCount(page, 'template-card', 1);
    assert.deepEqual(errors, []);
  });

  it('shows changes made elsewhere at once, through the hub (SenderIdUpdated, GroupListUpdated, SmsTemplatesUpdated)', async () => {
    const { page, errors } = await newContext(browser, server.baseUrl, VIEWPORT);
    await signIn(page, user);
    const login = await apiCall(server.baseUrl, 'POST', '/api/auth/login', {
      username: user.username,
      password: user.password,
    });
    const token = String(login.body?.accessToken);
    const elsewhere = (path: string, body: unknown) => apiCall(server.baseUrl, 'POST', path, body, token);

    await openPage(page, '/sender-id');
    await page.getByText('Connected', { exact: true }).waitFor();
    const created = await elsewhere('/api/sender-ids', {
      value: 'LiveSender',
      purpose: 'Shipping notices from the warehouse',
      sampleMessage: 'Your parcel is on its way.',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await page.getByTestId('sender-id-row').filter({ hasText: 'LiveSender' }).waitFor();

    await openPage(page, '/groups');
    assert.equal((await elsewhere('/api/groups', { name: 'Live group' })).status, 201);
    await page.getByTestId('group-row').filter({ hasText: 'Live group' }).waitFor();

    await openPage(page, '/templates');
    assert.equal(
      (await elsewhere('/api/templates', { name: 'Live note', text: 'Hello {{name}}' })).status,
      201,
    );
    await page.getByTestId('template-card').filter({ hasText: 'Live note' }).waitFor();
    assert.deepEqual(errors, []);
  });
});
