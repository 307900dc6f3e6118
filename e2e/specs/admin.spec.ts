import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { parseMix, startSmsc, type SmscHandle } from '@wren/smsc-simulator';
import type { Browser, Page } from 'playwright-core';
import { after, before, describe, it } from '../lib/test';
import { apiCall, appReady, newUser, pathOf, registerViaApi, signIn, type TestUser } from '../lib/app';
import { describeViolations, seriousViolations } from '../lib/axe';
import { launchBrowser, newContext, screenshot } from '../lib/browser';
import { REPO_ROOT } from '../lib/paths';
import { startServer, type RunningServer } from '../lib/server';

/**
 * The operator console (issue #16) through the real server, its embedded PostgreSQL and an SMSC
 * simulator in this process (so the test can drop the binds).
 */
let smsc: SmscHandle;
let server: RunningServer;
let browser: Browser;
let admin: TestUser;
let customer: TestUser;
let customerAccountId: string;

/** `wren user:promote` against the running server's data directory (it joins the embedded cluster). */
function promote(username: string) {
  execFileSync(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts', 'user:promote', username], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'warn' },
    stdio: 'pipe',
  });
}

async function login(user: TestUser) {
  const res = await apiCall(server.baseUrl, 'POST', '/api/auth/login', {
    username: user.username,
    password: user.password,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { accessToken: string; user: { accountId: string } };
}

before(async () => {
  smsc = await startSmsc({
    port: 0,
    host: '127.0.0.1',
    receiptDelayMs: 200,
    statMix: parseMix('DELIVRD=100'),
    credentials: [{ systemId: 'wren', password: 'wrenpass' }],
  });
  server = await startServer({
    SMSC_HOST: '127.0.0.1',
    SMSC_PORT: String(smsc.port),
    SMSC_SYSTEM_ID: 'wren',
    SMSC_PASSWORD: 'wrenpass',
    SMSC_BINDS: '1',
    SMSC_RECONNECT_BASE_MS: '300',
    SENDER_ID_APPROVAL: 'manual',
  });
  browser = await launchBrowser();
  admin = await registerViaApi(server.baseUrl, newUser({ name: 'Olive Operator' }));
  promote(admin.username);
  customer = await registerViaApi(server.baseUrl, newUser({ name: 'Cara Customer' }));
  const session = await login(customer);
  customerAccountId = session.user.accountId;
  const sent = await apiCall(
    server.baseUrl,
    'POST',
    '/api/sms/single',
    { recipients: ['+14155550199'], text: 'Hello from the console test' },
    session.accessToken,
  );
  assert.equal(sent.status, 202, JSON.stringify(sent.body));
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await smsc?.close();
});

async function adminPage(colorScheme: 'light' | 'dark' = 'light') {
  const ctx = await newContext(browser, server.baseUrl, { colorScheme, width: 1366, height: 900 });
  await signIn(ctx.page, admin);
  return ctx;
}

/**
 * Opens a page by its address. Under heavy machine load (load average above 10 on this 2-core box)
 * a full page load was seen to keep the boot overlay up for over 30 s; the page is loaded again
 * once, and the retry is logged, so a slow boot does not hide what this spec checks.
 */
async function open(page: Page, path: string) {
  await page.goto(path);
  try {
    await page.waitForSelector('#boot-overlay', { state: 'detached', timeout: 15_000 });
  } catch {
    console.log(`${path}: boot overlay still up after 15 s; loading the page again`);
    await page.reload();
  }
  await appReady(page);
}

/** Opens an admin page and checks its title, heading and width, shoots it, then runs axe (0 serious/critical). */
async function shoot(page: Page, path: string, title: string, name: string) {
  await open(page, path);
  await page.mouse.move(0, 0);
  assert.equal(pathOf(page), path);
  assert.equal(await page.title(), `${title} · Wren`);
  assert.ok(await page.locator('h1').first().isVisible(), `${path}: a visible h1`);
  await page.waitForTimeout(500);
  const width = page.viewportSize()?.width ?? 0;
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollWidth <= width, `${path}: no sideways scroll (${scrollWidth}px)`);
  await screenshot(page, name);
  const violations = await seriousViolations(page);
  assert.deepEqual(violations, [], describeViolations(path, violations));
}

describe('Operator console', () => {
  it('is in the sidebar only for admins; a customer gets the 404 page under /admin', async () => {
    const { page } = await newContext(browser, server.baseUrl);
    await signIn(page, customer);
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    assert.equal(await menu.getByRole('button', { name: 'Admin' }).count(), 0);
    await page.goto('/admin/accounts');
    await page.waitForURL('**/404');
    await page.close();

    const own = await adminPage();
    const adminMenu = own.page.getByRole('navigation', { name: 'Main menu' });
    await adminMenu.getByRole('button', { name: 'Admin' }).click();
    await adminMenu.getByRole('link', { name: 'Accounts' }).click();
    await own.page.waitForURL('**/admin/accounts');
    await own.page.getByRole('link', { name: customer.username }).waitFor();
    await own.context.close();
  });

  it('the accounts list: status badges whole at 1280 px; at 390 px email and phone stay in the card, apart', async () => {
    // Issue 47, defects 3 and 4: "ACT…" in the list at 1280 px; at 390 px the email overlapped the
    // phone number, which ran out of the card.
    const wide = await newContext(browser, server.baseUrl, { width: 1280, height: 800 });
    await signIn(wide.page, admin);
    await open(wide.page, '/admin/accounts');
    await wide.page.getByRole('link', { name: customer.username }).waitFor();
    const cut = await wide.page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('tbody .mantine-Badge-label')]
        .filter((l) => l.scrollWidth > l.clientWidth + 1)
        .map((l) => l.textContent),
    );
    assert.ok(
      (await wide.page.locator('tbody .mantine-Badge-label').count()) > 0,
      'the list has status badges',
    );
    assert.deepEqual(cut, [], 'badges cut');
    await wide.context.close();

    const narrow = await newContext(browser, server.baseUrl, { width: 390, height: 844 });
    await signIn(narrow.page, admin);
    await open(narrow.page, '/admin/accounts');
    await narrow.page.getByRole('link', { name: customer.username }).waitFor();
    const problems = await narrow.page.evaluate(() => {
      const out: string[] = [];
      for (const cell of document.querySelectorAll<HTMLElement>('td[data-label="Email / phone"]')) {
        const card = cell.closest('tr')!.getBoundingClientRect();
        const texts = [...cell.querySelectorAll<HTMLElement>('p')].map((p) => {
          const range = document.createRange();
          range.selectNodeContents(p);
          return { text: p.textContent ?? '', r: range.getBoundingClientRect() };
        });
        for (const t of texts) {
          if (t.r.left < card.left - 1 || t.r.right > card.right + 1)
            out.push(`${t.text} runs out of the card`);
        }
        const [a, b] = texts;
        if (a && b && a.r.bottom > b.r.top + 1 && a.r.right > b.r.left && b.r.right > a.r.left) {
          out.push(`${a.text} overlaps ${b.text}`);
        }
      }
      return out;
    });
    assert.deepEqual(problems, []);
    await screenshot(narrow.page, 'admin-accounts-390');
    await narrow.context.close();
  });

  it('credits an account with a reason: the balance and the ledger show it, and the audit log records it', async () => {
    const { page, context } = await adminPage();
    await open(page, '/admin/accounts');
    await page.getByLabel('Search accounts').fill(customer.email);
    await page.getByRole('link', { name: customer.username }).click();
    await page.waitForURL(`**/admin/accounts/${customerAccountId}`);
    const before = await page.getByTestId('account-balance').innerText();
    await page.getByLabel(/^Amount/).fill('12.50');
    await page.getByLabel('Reason').fill('Bank transfer 7781');
    await page.getByRole('button', { name: 'Credit account' }).click();
    await page
      .getByRole('dialog', { name: 'Confirm adjustment' })
      .getByRole('button', { name: 'Confirm credit' })
      .click();
    await page.getByRole('cell', { name: 'Bank transfer 7781' }).waitFor();
    // The ledger and the header are separate reads: wait (up to 10 s) for the header to move.
    await page
      .waitForFunction(
        (b) => document.querySelector('[data-testid="account-balance"]')?.textContent !== b,
        before,
        { timeout: 10_000 },
      )
      .catch(() => undefined);
    const afterText = await page.getByTestId('account-balance').innerText();
    const money = (s: string) => Math.round(Number(s.replace(/[^\d.-]/g, '')) * 100);
    assert.equal(money(afterText) - money(before), 1250, `${before} → ${afterText}`);
    await open(page, '/admin/audit');
    await page.getByText(/Credited \$12\.50: Bank transfer 7781/).waitFor();
    await context.close();
  });

  it('shows operators the account’s SMS log with each message’s connection, and its whole history', async () => {
    const { page, context } = await adminPage();
    await open(page, `/admin/accounts/${customerAccountId}`);
    const row = page.getByRole('row', { name: /Message to \+14155550199/ });
    await row.waitFor();
    // Sent through the one configured connection (no route chose it: no route, no carrier cost).
    await page.waitForFunction(
      () =>
        document.querySelector('tr[aria-label^="Message to +14155550199"] td[data-label="Connection"]')
          ?.textContent !== '—',
      undefined,
      { timeout: 20_000 },
    );
    const connection = await row.locator('td[data-label="Connection"]').innerText();
    assert.notEqual(connection.trim(), '');
    assert.equal((await row.locator('td[data-label="Route"]').innerText()).trim(), '—');
    await page.getByLabel('Search messages by recipient').fill('+1999');
    await page.getByText('No messages to +1999.').waitFor();
    await page.getByLabel('Search messages by recipient').fill('+14155550199');
    await row.waitFor();
    await row.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Message history' });
    await dialog.getByText(`Connection ${connection.trim()}`).waitFor();
    await screenshot(page, 'admin-account-sms-log');
    await page.keyboard.press('Escape');
    await context.close();

    const narrow = await newContext(browser, server.baseUrl, { width: 390, height: 844 });
    await signIn(narrow.page, admin);
    await open(narrow.page, `/admin/accounts/${customerAccountId}`);
    await narrow.page.getByRole('row', { name: /Message to \+14155550199/ }).waitFor();
    const scrollWidth = await narrow.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scrollWidth <= 390, `no sideways scroll at 390 px (${scrollWidth}px)`);
    await narrow.page.getByRole('row', { name: /Message to \+14155550199/ }).scrollIntoViewIfNeeded();
    await screenshot(narrow.page, 'admin-account-sms-log-390');
    await narrow.context.close();
  });

  it('locks an account after a confirmation that says what stops; its scheduled message is canceled and refunded', async () => {
    const user = await registerViaApi(server.baseUrl, newUser({ name: 'Lou Locked' }));
    const session = await login(user);
    const scheduled = await apiCall(
      server.baseUrl,
      'POST',
      '/api/sms/single',
      {
        recipients: ['+14155550177'],
        text: 'Tomorrow',
        scheduleAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
      session.accessToken,
    );
    assert.equal(scheduled.status, 202, JSON.stringify(scheduled.body));
    const { page, context } = await adminPage();
    await open(page, `/admin/accounts/${session.user.accountId}`);
    const balance = await page.getByTestId('account-balance').innerText();
    await page.getByRole('button', { name: 'Lock account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Lock account' });
    await dialog
      .getByText(
        /scheduled and queued messages and unfinished campaigns are canceled now and their cost refunded/,
      )
      .waitFor();
    // The reason field has the focus: type, then confirm.
    await page.keyboard.type('Account taken over');
    await screenshot(page, 'admin-lock-dialog');
    await dialog.getByRole('button', { name: 'Lock account' }).click();
    await page.getByRole('alert').filter({ hasText: 'Account taken over' }).waitFor();
    // The scheduled message's price came back.
    const refunded = await page.getByTestId('account-balance').innerText();
    const money = (s: string) => Math.round(Number(s.replace(/[^\d.-]/g, '')) * 100);
    assert.ok(money(refunded) > money(balance), `${balance} → ${refunded}`);
    await open(page, '/admin/audit');
    await page.getByText(/1 waiting message canceled and refunded\): Account taken over/).waitFor();
    await context.close();
  });

  it('a rejected sender ID shows as rejected to its requester live', async () => {
    const session = await login(customer);
    const requested = await apiCall(
      server.baseUrl,
      'POST',
      '/api/sender-ids',
      { value: 'CARACO', purpose: 'Order updates', sampleMessage: 'Your order has shipped' },
      session.accessToken,
    );
    assert.equal(requested.status, 201, JSON.stringify(requested.body));
    const requester = await newContext(browser, server.baseUrl);
    await signIn(requester.page, customer);
    await open(requester.page, '/sender-id');
    await requester.page.getByText('CARACO').waitFor();

    const { page, context } = await adminPage();
    await open(page, '/admin/sender-ids');
    await page.getByRole('button', { name: 'Reject CARACO' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject sender ID' });
    await dialog.getByLabel('Reason').fill('The brand is not on the account');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await page.getByText('Nothing waiting for approval').waitFor();
    // No reload on the requester's page: the hub's SenderIdUpdated brings the reason.
    await requester.page.getByText('The brand is not on the account').waitFor({ timeout: 10_000 });
    await requester.context.close();
    await context.close();
  });

  it('a bind dropped by the simulator shows as down within 5 s, and up again after reconnect', async () => {
    const { page, context } = await adminPage();
    await open(page, '/admin/system');
    const badge = page.getByTestId('connection-state').first();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="connection-state"]')?.textContent === 'Up',
      undefined,
      { timeout: 15_000 },
    );
    assert.equal(await badge.textContent(), 'Up');
    const dropped = Date.now();
    // The SMSC crashes (no unbind) and refuses connections for 4 s.
    void smsc.restart({ downMs: 4000 });
    await page.waitForFunction(
      () => document.querySelector('[data-testid="connection-state"]')?.textContent === 'Down',
      undefined,
      { timeout: 5000 },
    );
    const downAfter = Date.now() - dropped;
    assert.ok(downAfter <= 5000, `down shown after ${downAfter} ms`);
    await screenshot(page, 'admin-system-bind-down');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="connection-state"]')?.textContent === 'Up',
      undefined,
      { timeout: 20_000 },
    );
    console.log(`bind down shown after ${downAfter} ms; up again after ${Date.now() - dropped} ms`);
    await context.close();
  });

  it('pauses and resumes a connection from the status page', async () => {
    const { page, context } = await adminPage();
    await open(page, '/admin/system');
    const card = page.locator('[data-testid^="connection-"]').first();
    await card.getByRole('button', { name: 'Pause' }).click();
    await page
      .getByRole('dialog', { name: 'Pause connection' })
      .getByRole('button', { name: 'Pause' })
      .click();
    await card.getByText('Paused').waitFor({ timeout: 5000 });
    // Paused, the connection's sessions are unbound (not down: the operator did it).
    await card.getByTestId('connection-state').getByText('Unbound').waitFor({ timeout: 10_000 });
    await screenshot(page, 'admin-system-paused');
    await card.getByRole('button', { name: 'Resume' }).click();
    await page
      .getByRole('dialog', { name: 'Resume connection' })
      .getByRole('button', { name: 'Resume' })
      .click();
    await card.getByText('Paused').waitFor({ state: 'detached', timeout: 5000 });
    await card.getByTestId('connection-state').getByText('Up').waitFor({ timeout: 15_000 });
    await context.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`screenshots of every admin screen, ${colorScheme}`, async () => {
      const { page, context } = await adminPage(colorScheme);
      const session = await login(customer);
      await apiCall(
        server.baseUrl,
        'POST',
        '/api/sender-ids',
        {
          value: `WAIT${colorScheme.toUpperCase()}`.slice(0, 11),
          purpose: 'Alerts',
          sampleMessage: 'Code 1234',
        },
        session.accessToken,
      );
      await shoot(page, '/admin/accounts', 'Accounts', `${colorScheme}-admin-accounts`);
      await shoot(page, `/admin/accounts/${customerAccountId}`, 'Account', `${colorScheme}-admin-account`);
      await shoot(page, '/admin/rate-plans', 'Rate plans', `${colorScheme}-admin-rate-plans`);
      await shoot(page, '/admin/sender-ids', 'Sender ID approvals', `${colorScheme}-admin-sender-ids`);
      await shoot(page, '/admin/audit', 'Audit log', `${colorScheme}-admin-audit`);
      await shoot(page, '/admin/system', 'System status', `${colorScheme}-admin-system`);
      await shoot(page, '/admin/top-ups', 'Top-up requests', `${colorScheme}-admin-top-ups`);
      await context.close();
    });
  }
});
