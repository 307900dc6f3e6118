import assert from 'node:assert/strict';
import { after, before, describe, it } from '../lib/test';
import type { Browser, Page } from 'playwright-core';
import { appReady, pathOf, registerViaApi, signIn, uploadPicture, type TestUser } from '../lib/app';
import { tinyPng } from '../lib/files';
import { launchBrowser, newContext, screenshot, type ContextOptions } from '../lib/browser';
import { APP_PAGES, AUTH_PAGES, fileName } from '../lib/pages';
import { startServer, type RunningServer } from '../lib/server';

let server: RunningServer;
let browser: Browser;
let user: TestUser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  user = await registerViaApi(server.baseUrl);
  await uploadPicture(server.baseUrl, user, tinyPng());
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The title (document title before " · Wren") of every page shot here. */
const TITLES: Record<string, string> = {
  '/auth/login': 'Sign in',
  '/auth/register': 'Create account',
  '/auth/forgot-password': 'Forgot password',
  '/auth/reset-password?token=example': 'Reset password',
  '/auth/reset-password': 'Reset password',
  '/auth/confirm-registration': 'Create account',
  '/404': 'Page not found',
  '/dashboard': 'Dashboard',
  '/sms/single': 'Single SMS',
  '/sms/bulk': 'Bulk SMS',
  '/sms/personalised-bulk': 'Personalised SMS',
  '/reports/sms-log': 'SMS log',
  '/reports/bulk-sms-report': 'Campaign report',
  '/reports/scheduled-sms': 'Scheduled SMS',
  '/reports/bulk-sms-detail/12': 'Campaign detail',
  '/profile': 'Profile',
  '/profile/update': 'Update profile',
  '/profile/password': 'Change password',
  '/profile/api-detail': 'API detail',
  '/profile/api-doc': 'API documentation',
  '/groups': 'Contact groups',
  '/groups/12/contacts': 'Contacts',
  '/sender-id': 'Sender IDs',
  '/templates': 'Saved messages',
  '/otp-service': 'OTP services',
  '/otp-service/create': 'Create OTP service',
  '/otp-service/doc': 'OTP documentation',
  '/otp-service/doc/12': 'OTP service documentation',
  '/otp-service/12/edit': 'Edit OTP service',
  '/otp-service/12/view': 'OTP service',
  '/otp-service/12/test': 'Test OTP service',
  '/api': 'SMS & OTP API',
  '/api/create': 'Create API key',
  '/api/doc': 'API documentation',
  '/api/12/edit': 'Edit API key',
  '/api/12/view': 'API key',
  '/api/12/report': 'API usage report',
  '/api/smpp': 'SMPP accounts',
  '/api/smpp/create': 'Create SMPP account',
  '/api/smpp/12': 'SMPP account',
  '/api/doc/smpp': 'SMPP documentation',
  '/billing/statements': 'Statements',
  '/billing/balance': 'Balance',
  '/billing/prices': 'Prices',
  '/billing/ledger': 'Ledger',
  '/settings/team': 'Team',
  '/settings/send-window': 'Send window',
  '/settings/sub-accounts': 'Sub-accounts',
  '/settings/sub-accounts/12': 'Sub-account',
};

/**
 * Opens a page and checks it before the screenshot: it stayed at its address, carries its title,
 * shows a visible heading, and (on a phone) does not scroll sideways.
 */
async function shoot(page: Page, path: string, name: string): Promise<void> {
  await page.goto(path);
  await appReady(page);
  await page.mouse.move(0, 0);
  const title = TITLES[path];
  assert.ok(title, `no title listed for ${path}`);
  assert.equal(pathOf(page), path, `${path} stays at its address`);
  assert.equal(await page.title(), `${title} · Wren`, `${path}: document title`);
  const heading = page.locator('h1').first();
  assert.ok(await heading.isVisible(), `${path}: a visible h1`);
  assert.ok((await heading.innerText()).trim(), `${path}: the h1 has text`);
  const width = page.viewportSize()?.width ?? 0;
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollWidth <= width, `${path}: no sideways scroll at ${width}px (content is ${scrollWidth}px)`);
  await screenshot(page, name);
}

/** Lets requests finish and menus, drawers and tooltips end their transitions. */
async function settled(page: Page): Promise<void> {
  await appReady(page);
  await page.waitForTimeout(400);
}

async function visitorPage(options: ContextOptions) {
  return (await newContext(browser, server.baseUrl, options)).page;
}

async function memberPage(options: ContextOptions) {
  const page = await visitorPage(options);
  await signIn(page, user);
  return page;
}

describe('screenshots (e2e/screenshots)', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`every page, ${colorScheme}`, async () => {
      const visitor = await visitorPage({ colorScheme });
      for (const path of [...AUTH_PAGES, '/404'])
        await shoot(visitor, path, `${colorScheme}-${fileName(path)}`);
      const member = await memberPage({ colorScheme });
      for (const path of APP_PAGES) await shoot(member, path, `${colorScheme}-${fileName(path)}`);
      await shoot(member, '/dashboard', `${colorScheme}-dashboard`);
      assert.equal(
        await member.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme')),
        colorScheme,
      );
      await member.getByRole('button', { name: `Account menu for ${user.name}` }).click();
      await settled(member);
      for (const item of ['Profile', 'Sign out'])
        assert.ok(await member.getByRole('menuitem', { name: item }).isVisible(), `menu item ${item}`);
      await screenshot(member, `${colorScheme}-user-menu`);
      await member.keyboard.press('Escape');
      await member.getByRole('button', { name: 'Notifications' }).click();
      const events = member.getByRole('dialog', { name: 'Recent activity' });
      await events.waitFor();
      await settled(member);
      const text = await events.innerText();
      assert.ok(/No recent activity/.test(text) || (await events.locator('li').count()) > 0, text);
      await screenshot(member, `${colorScheme}-notifications`);
    });
  }

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`sidebar folded, ${colorScheme}`, async () => {
      const page = await memberPage({ colorScheme });
      await page.getByRole('button', { name: 'Fold menu' }).click();
      const menu = page.getByRole('navigation', { name: 'Main menu' });
      for (const [label, name, path, title] of [
        ['Dashboard', 'dashboard', '/dashboard', 'Dashboard'],
        ['Contact Group', 'groups', '/groups', 'Contact groups'],
        ['SMS Log', 'sms-log', '/reports/sms-log', 'SMS log'],
      ] as const) {
        await menu.getByRole('link', { name: label }).click();
        await page.waitForURL(`**${path}`);
        await page.mouse.move(700, 500);
        await settled(page);
        assert.equal(await page.title(), `${title} · Wren`);
        const sidebar = await page.locator('#sidebar').boundingBox();
        assert.ok(sidebar && sidebar.width < 100, `the sidebar is folded (${sidebar?.width}px)`);
        await screenshot(page, `${colorScheme}-folded-${name}`);
      }
    });
  }

  it('390 px wide', async () => {
    const visitor = await visitorPage({ width: 390, height: 844 });
    for (const path of [...AUTH_PAGES, '/404']) await shoot(visitor, path, `mobile-${fileName(path)}`);
    const member = await memberPage({ width: 390, height: 844 });
    for (const path of APP_PAGES) await shoot(member, path, `mobile-${fileName(path)}`);
    await shoot(member, '/dashboard', 'mobile-dashboard');
    await member.getByRole('button', { name: 'Open menu' }).click();
    const drawer = member.getByRole('dialog');
    await drawer.getByRole('link', { name: 'Dashboard', exact: true }).waitFor();
    await settled(member);
    for (const link of ['Single SMS', 'SMS Log', 'Scheduled SMS'])
      assert.ok(await drawer.getByRole('link', { name: link }).isVisible(), `drawer link ${link}`);
    await screenshot(member, 'mobile-drawer-open');
  });
});
