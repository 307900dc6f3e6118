import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startSmsc, type SmscHandle } from '@wren/smsc-simulator';
import type { Browser, Locator, Page } from 'playwright-core';
import { after, before, describe, it } from '../lib/test';
import { apiCall, appReady, newUser, registerViaApi, signIn, type TestUser } from '../lib/app';
import { describeViolations, seriousViolations } from '../lib/axe';
import { launchBrowser, newContext, screenshot } from '../lib/browser';
import { REPO_ROOT } from '../lib/paths';
import { startServer, type RunningServer } from '../lib/server';

/**
 * Admin → Connections (issue 38 item 1) through the real server, its embedded PostgreSQL and
 * worker, and three SMSC simulators in this process: carrier-a (+1, which the route "us" uses) and
 * carrier-b (no prefixes: the default connection) from SMSC_CONNECTIONS, and carrier-c, added here
 * through the form.
 */
let carrierA: SmscHandle;
let carrierB: SmscHandle;
let carrierC: SmscHandle;
let server: RunningServer;
let browser: Browser;
let admin: TestUser;
let adminToken: string;

const smsc = () =>
  startSmsc({
    port: 0,
    host: '127.0.0.1',
    receiptDelayMs: 100,
    credentials: [{ systemId: 'wren', password: 'wrenpass' }],
  });

const connection = (name: string, port: number, prefixes: string[]) => ({
  name,
  host: '127.0.0.1',
  port,
  systemId: 'wren',
  password: 'wrenpass',
  binds: 1,
  prefixes,
});

const strings = (locale: string): Record<string, string> =>
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'apps/web/src/locales', `${locale}.json`), 'utf8')) as Record<
    string,
    string
  >;

async function login(user: TestUser): Promise<string> {
  const res = await apiCall(server.baseUrl, 'POST', '/api/auth/login', {
    username: user.username,
    password: user.password,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return (res.body as { accessToken: string }).accessToken;
}

before(async () => {
  carrierA = await smsc();
  carrierB = await smsc();
  carrierC = await smsc();
  server = await startServer({
    SMSC_CONNECTIONS: JSON.stringify([
      connection('carrier-a', carrierA.port, ['+1']),
      connection('carrier-b', carrierB.port, []),
    ]),
    SMSC_RECONNECT_BASE_MS: '300',
  });
  browser = await launchBrowser();
  admin = await registerViaApi(server.baseUrl, newUser({ name: 'Cora Connections' }));
  execFileSync(
    process.execPath,
    ['--import', 'tsx', 'apps/server/src/main.ts', 'user:promote', admin.username],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'warn' },
      stdio: 'pipe',
    },
  );
  adminToken = await login(admin);
  // A route through carrier-a: removing carrier-a is refused while it lists it.
  const route = await apiCall(
    server.baseUrl,
    'POST',
    '/api/admin/routes',
    {
      name: 'us',
      prefix: '+1',
      strategy: 'priority',
      entries: [{ connection: 'carrier-a', cost: '0.0050', priority: 0, weight: 1 }],
      reason: 'US through carrier A',
    },
    adminToken,
  );
  assert.equal(route.status, 201, JSON.stringify(route.body));
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await carrierA?.close();
  await carrierB?.close();
  await carrierC?.close();
});

async function open(page: Page, path: string) {
  await page.goto(path);
  await appReady(page);
  await page.mouse.move(0, 0);
}

/** A row's binds cell once the workers report its binds up. */
async function bound(row: Locator, text = '1 of 1 up') {
  await row.getByTestId('binds').getByText(text).waitFor({ timeout: 20_000 });
}

/** No sideways scroll, then a full-page screenshot, then axe: no serious or critical violation. */
async function shoot(page: Page, name: string) {
  await page.waitForTimeout(400);
  const width = page.viewportSize()?.width ?? 0;
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollWidth <= width, `${name}: no sideways scroll (${scrollWidth}px in ${width}px)`);
  await screenshot(page, name);
  const violations = await seriousViolations(page);
  assert.deepEqual(violations, [], describeViolations(name, violations));
}

/** The row's "More" menu, then one of its items. */
async function more(page: Page, name: string, item: string) {
  await page.getByRole('button', { name: `More for ${name}` }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

describe('Admin → Connections', () => {
  it('adds a connection through the form, sees it bound, edits, drains, pauses and deletes it', async () => {
    const { page, context } = await newContext(browser, server.baseUrl, { width: 1366, height: 900 });
    await signIn(page, admin);
    await open(page, '/admin/connections');
    assert.equal(await page.title(), 'Connections · Wren');
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('link', { name: 'Connections' }).waitFor();

    // The seeded connections, with their binds up as the worker reports them.
    const rowA = page.locator('tr[data-connection="carrier-a"]');
    const rowB = page.locator('tr[data-connection="carrier-b"]');
    await bound(rowA);
    await bound(rowB);
    assert.match(
      await rowA.innerText(),
      /carrier-a[\s\S]*Environment[\s\S]*127\.0\.0\.1:\d+[\s\S]*wren[\s\S]*\+1/,
    );
    assert.match(await rowB.innerText(), /default/);

    // A first submit with no prefixes: carrier-b is the default already, said on the field.
    await page.getByRole('button', { name: 'Add connection' }).click();
    const form = page.getByRole('dialog', { name: 'Add connection' });
    await form.getByLabel('Name').fill('carrier-c');
    await form.getByLabel('Host').fill('127.0.0.1');
    await form.getByRole('textbox', { name: 'Port' }).fill(String(carrierC.port));
    await form.getByLabel('system_id').fill('wren');
    await form.getByRole('textbox', { name: 'Password' }).fill('wrenpass');
    await form.getByLabel('Reason').fill('A third carrier for the UK');
    await form.getByRole('button', { name: 'Add connection' }).click();
    await form.getByText(/carrier-b is already the default connection/).waitFor();
    await form.getByRole('alert').getByText('Check the fields marked in red.').waitFor();
    // A screenshot only: Mantine's field error red is the app theme's, on every form.
    await page.waitForTimeout(400);
    await screenshot(page, 'connections-form-errors');

    await form.getByLabel('Prefixes').fill('+44');
    await form.getByLabel('Prefixes').press('Enter');
    await form.getByRole('button', { name: 'Add connection' }).click();
    await form.waitFor({ state: 'detached' });
    const rowC = page.locator('tr[data-connection="carrier-c"]');
    await rowC.waitFor();
    assert.match(await rowC.innerText(), /carrier-c[\s\S]*Console[\s\S]*\+44/);
    // Bound within seconds: every worker applies a change within CONNECTIONS_APPLY_SECONDS.
    const t0 = Date.now();
    await bound(rowC);
    assert.ok(Date.now() - t0 < 15_000, `bound in ${Date.now() - t0} ms`);
    await shoot(page, 'connections-desktop');

    // Edit: the name read only, the password left blank (kept: it binds again with it).
    await page.getByRole('button', { name: 'Edit carrier-c' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit connection “carrier-c”' });
    assert.equal(await edit.getByLabel('Name').getAttribute('readonly'), '');
    await edit.getByText('Blank keeps the stored password').waitFor();
    assert.equal(await edit.getByRole('textbox', { name: 'Password' }).inputValue(), '');
    await edit.getByRole('textbox', { name: 'Window' }).fill('20');
    await edit.getByRole('button', { name: 'Advanced: receipts and flapping' }).click();
    await edit.getByRole('textbox', { name: 'Receipt timeout (minutes)', exact: true }).fill('90');
    await edit.getByLabel('Reason').fill('A smaller window for carrier C');
    await page.waitForTimeout(300);
    await screenshot(page, 'connections-form-edit');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    await rowC.getByTestId('window').getByText('20', { exact: true }).waitFor();
    const listed = await apiCall(server.baseUrl, 'GET', '/api/admin/connections', undefined, adminToken);
    const c = (
      listed.body as { items: { name: string; passwordSet: boolean; receiptTimeoutMinutes: number }[] }
    ).items.find((i) => i.name === 'carrier-c');
    assert.equal(c?.passwordSet, true);
    assert.equal(c?.receiptTimeoutMinutes, 90);
    // Rebound with the stored password (a wrong one would keep it down).
    await page.waitForTimeout(3_000);
    await bound(rowC);

    // Drain, then end the drain.
    await more(page, 'carrier-c', 'Drain');
    const drain = page.getByRole('dialog', { name: 'Drain connection' });
    await drain.getByRole('button', { name: 'Drain' }).click();
    await drain.getByText('Give a reason of at least 3 characters').waitFor();
    await drain.getByLabel('Reason').fill('Carrier C maintenance tonight');
    await drain.getByRole('button', { name: 'Drain' }).click();
    await drain.waitFor({ state: 'detached' });
    await rowC.getByText('Draining').waitFor();
    await bound(rowC);
    await more(page, 'carrier-c', 'End drain');
    const undrain = page.getByRole('dialog', { name: 'End the drain' });
    await undrain.getByLabel('Reason').fill('Maintenance over');
    await undrain.getByRole('button', { name: 'End drain' }).click();
    await undrain.waitFor({ state: 'detached' });
    await rowC.getByText('Sending').waitFor();

    // Pause and resume (the system status's controls, here too).
    await more(page, 'carrier-c', 'Pause');
    const pause = page.getByRole('dialog', { name: 'Pause connection' });
    await pause.getByLabel('Reason').fill('Carrier C asked us to stop');
    await pause.getByRole('button', { name: 'Pause' }).click();
    await pause.waitFor({ state: 'detached' });
    await rowC.getByText('Paused').waitFor();
    await bound(rowC, '0 of 1 up');
    await more(page, 'carrier-c', 'Resume');
    const resume = page.getByRole('dialog', { name: 'Resume connection' });
    await resume.getByRole('button', { name: 'Resume' }).click();
    await resume.waitFor({ state: 'detached' });
    await rowC.getByText('Sending').waitFor();
    await bound(rowC);

    // carrier-a is on the route "us": the server's 409 is said in the confirmation.
    await more(page, 'carrier-a', 'Delete');
    const refuse = page.getByRole('dialog', { name: 'Delete connection' });
    await refuse.getByText('Delete the connection “carrier-a”?', { exact: false }).waitFor();
    await refuse.getByLabel('Reason').fill('Carrier A contract ended');
    await refuse.getByRole('button', { name: 'Delete connection' }).click();
    const refusal = refuse.getByRole('alert');
    await refusal.waitFor();
    assert.match(await refusal.innerText(), /\bus\b/);
    await page.waitForTimeout(300);
    await screenshot(page, 'connections-delete-refused');
    await refuse.getByRole('button', { name: 'Cancel' }).click();
    await refuse.waitFor({ state: 'detached' });
    await rowA.waitFor();

    // A connection whose password the SMSC refuses: down, with the SMSC's answer as its last error.
    const wrong = await apiCall(
      server.baseUrl,
      'POST',
      '/api/admin/connections',
      { ...connection('carrier-d', carrierC.port, ['+33']), password: 'nope', reason: 'France, on trial' },
      adminToken,
    );
    assert.equal(wrong.status, 201, JSON.stringify(wrong.body));
    const rowD = page.locator('tr[data-connection="carrier-d"]');
    await bound(rowD, '0 of 1 up');
    await rowD.getByTestId('last-error').waitFor({ timeout: 20_000 });
    await shoot(page, 'connections-last-error');

    // At 390 px: the list as cards and the form in the modal, no sideways scroll.
    const narrow = await newContext(browser, server.baseUrl, { width: 390, height: 844 });
    await signIn(narrow.page, admin);
    await open(narrow.page, '/admin/connections');
    await bound(narrow.page.locator('tr[data-connection="carrier-c"]'));
    await shoot(narrow.page, 'connections-390');
    await narrow.page.getByRole('button', { name: 'Edit carrier-c' }).click();
    await narrow.page
      .getByRole('dialog', { name: 'Edit connection “carrier-c”' })
      .getByLabel('Reason')
      .waitFor();
    await narrow.page.waitForTimeout(400);
    await screenshot(narrow.page, 'connections-form-390');
    await narrow.context.close();

    // Delete carrier-c after the confirmation with a reason.
    await more(page, 'carrier-c', 'Delete');
    const confirm = page.getByRole('dialog', { name: 'Delete connection' });
    await confirm.getByLabel('Reason').fill('Carrier C was a trial');
    await confirm.getByRole('button', { name: 'Delete connection' }).click();
    await confirm.waitFor({ state: 'detached' });
    await rowC.waitFor({ state: 'detached' });
    assert.equal(await rowA.count(), 1);
    await context.close();
  });

  for (const locale of ['fr', 'ar'] as const) {
    it(`shows the page and the form in ${locale}`, async () => {
      const res = await apiCall(server.baseUrl, 'PATCH', '/api/me', { locale }, adminToken);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const t = (key: string) => strings(locale)[key]!;
      for (const width of [1366, 390]) {
        const { page, context } = await newContext(browser, server.baseUrl, { width, height: 900 });
        await signIn(page, admin);
        await open(page, '/admin/connections');
        await page.waitForFunction((l) => document.documentElement.lang === l, locale);
        await page.getByRole('button', { name: t('Add connection') }).waitFor();
        await bound(
          page.locator('tr[data-connection="carrier-a"]'),
          t('{{up}} of {{binds}} up').replace('{{up}}', '1').replace('{{binds}}', '1'),
        );
        await shoot(page, `connections-${locale}-${width}`);
        if (width === 1366) {
          await page.getByRole('button', { name: t('Add connection') }).click();
          const form = page.getByRole('dialog', { name: t('Add connection') });
          await form.getByRole('button', { name: t('Advanced: receipts and flapping') }).click();
          await page.waitForTimeout(400);
          await screenshot(page, `connections-form-${locale}`);
        }
        await context.close();
      }
    });
  }
});
