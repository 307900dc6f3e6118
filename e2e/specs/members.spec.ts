import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { after, before, describe, it } from '../lib/test';
import { appReady, newUser, registerViaApi, signIn } from '../lib/app';
import { inviteLink as invitedAt } from '../lib/invites';
import { launchBrowser, newContext, screenshot } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';
import type { Browser } from 'playwright-core';

/** Issue 39: invite → accept → switch account; a sender sees no API keys (menu) and is refused them. */

let server: RunningServer;
let browser: Browser;

before(async () => {
  server = await startServer({ CAPTCHA: 'false' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const inviteLink = (email: string) => invitedAt(server, email);

/** The menu's entries (on a phone, from the drawer). */
async function menuLinks(page: Page, mobile: boolean): Promise<string[]> {
  if (mobile) {
    // By keyboard: a toast may cover the header's burger.
    await page.getByRole('button', { name: 'Open menu' }).focus();
    await page.keyboard.press('Enter');
  }
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await nav.getByRole('link', { name: 'Dashboard' }).waitFor();
  const settings = nav.getByRole('button', { name: 'Settings' });
  if ((await settings.count()) && (await settings.getAttribute('aria-expanded')) === 'false')
    await settings.click();
  const labels = await nav
    .getByRole('link')
    .evaluateAll((as) => as.map((a) => a.getAttribute('aria-label') ?? a.textContent ?? ''));
  if (mobile) await page.keyboard.press('Escape');
  return labels.map((l) => l.trim());
}

async function switchTo(page: Page, accountName: string) {
  await page.getByRole('button', { name: /^Account: / }).click();
  await page.getByRole('menuitem', { name: new RegExp(`^${accountName}`) }).click();
  await page.getByText(`Switched to ${accountName}`).waitFor();
  await appReady(page);
}

describe('members and roles', () => {
  it('invite → accept as a signed-in user → switch account; the sender sees no API keys (390 px)', async () => {
    const owner = await registerViaApi(server.baseUrl, newUser({ name: 'Olive Owner' }));
    const grace = await registerViaApi(server.baseUrl, newUser({ name: 'Grace Sender' }));

    // The owner invites Grace as a sender from Settings → Team.
    const o = await newContext(browser, server.baseUrl);
    await signIn(o.page, owner);
    await o.page.goto('/settings/team');
    await appReady(o.page);
    await o.page.getByRole('table', { name: 'Members' }).getByText(owner.email).waitFor();
    const form = o.page.getByRole('form', { name: 'Invite a member' });
    await form.getByRole('button', { name: 'Send invite' }).click();
    await form.getByText('Email is required').waitFor(); // validated before sending
    await form.getByLabel('Email').fill(grace.email);
    await form.locator('input').and(form.getByLabel('Role')).click();
    await o.page.getByRole('option', { name: 'Sender' }).click();
    await form.getByRole('button', { name: 'Send invite' }).click();
    await o.page.getByRole('list', { name: 'Pending invites' }).getByText(grace.email).waitFor();
    await screenshot(o.page, 'team-desktop');
    const link = await inviteLink(grace.email);

    // Grace, signed in to her own account on a phone, opens the link and accepts.
    const g = await newContext(browser, server.baseUrl, { width: 390, height: 844 });
    await signIn(g.page, grace);
    assert.ok((await menuLinks(g.page, true)).includes('SMS & OTP API'), 'owner of her own account');
    await g.page.goto(link);
    await appReady(g.page);
    await g.page.getByText('Olive Owner', { exact: false }).first().waitFor();
    await g.page.getByRole('button', { name: `Accept as ${grace.username}` }).click();
    await g.page.waitForURL('**/dashboard');
    await appReady(g.page);

    // Now in Olive's account as a sender: no API keys in the menu, and the server refuses them.
    const asSender = await menuLinks(g.page, true);
    assert.ok(asSender.includes('Single SMS'), asSender.join(', '));
    assert.ok(!asSender.includes('SMS & OTP API'), asSender.join(', '));
    assert.ok(!asSender.includes('Team'), asSender.join(', '));
    const token = await g.page.evaluate(() => localStorage.getItem('accessToken'));
    const keys = await fetch(`${server.baseUrl}/api/api-keys`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(keys.status, 403);
    assert.ok(await g.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
    await screenshot(g.page, 'members-sender-390');

    // The header's switcher: back to her own account (owner there), then to Olive's again.
    await switchTo(g.page, 'Grace Sender');
    assert.ok((await menuLinks(g.page, true)).includes('SMS & OTP API'));
    await switchTo(g.page, 'Olive Owner');
    assert.ok(!(await menuLinks(g.page, true)).includes('SMS & OTP API'));
    // The header with its switcher, once the drawer and the toasts have gone.
    await g.page.getByRole('dialog').waitFor({ state: 'detached' });
    await g.page
      .locator('.mantine-Notifications-notification')
      .last()
      .waitFor({ state: 'detached', timeout: 20_000 });
    assert.ok(await g.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
    await screenshot(g.page, 'members-switcher-390');

    // The owner sees Grace as a member now.
    await o.page.reload();
    await appReady(o.page);
    await o.page.getByRole('table', { name: 'Members' }).getByText(grace.email).waitFor();
    await o.context.close();
    await g.context.close();
  });
});
