import { after, before, describe, it } from '../lib/test';
import type { Browser, Page } from 'playwright-core';
import { appReady, registerViaApi, signIn, uploadPicture, type TestUser } from '../lib/app';
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

async function shoot(page: Page, path: string, name: string): Promise<void> {
  await page.goto(path);
  await appReady(page);
  await page.mouse.move(0, 0);
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
      await member.getByRole('button', { name: `Account menu for ${user.name}` }).click();
      await settled(member);
      await screenshot(member, `${colorScheme}-user-menu`);
      await member.keyboard.press('Escape');
      await member.getByRole('button', { name: 'Notifications' }).click();
      await member.getByRole('dialog', { name: 'Recent activity' }).waitFor();
      await settled(member);
      await screenshot(member, `${colorScheme}-notifications`);
    });
  }

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`sidebar folded, ${colorScheme}`, async () => {
      const page = await memberPage({ colorScheme });
      await page.getByRole('button', { name: 'Fold menu' }).click();
      const menu = page.getByRole('navigation', { name: 'Main menu' });
      for (const [label, name] of [
        ['Dashboard', 'dashboard'],
        ['Contact Group', 'groups'],
        ['SMS Log', 'sms-log'],
      ] as const) {
        await menu.getByRole('link', { name: label }).click();
        await page.mouse.move(700, 500);
        await settled(page);
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
    await member.getByRole('dialog').getByRole('link', { name: 'Dashboard', exact: true }).waitFor();
    await settled(member);
    await screenshot(member, 'mobile-drawer-open');
  });
});
