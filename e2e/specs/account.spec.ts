import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from '../lib/test';
import type { Browser, Page } from 'playwright-core';
import { appReady, fillLogin, newUser, pathOf, registerViaApi, storageKeys } from '../lib/app';
import { launchBrowser, newContext } from '../lib/browser';
import { tinyPng } from '../lib/files';
import { startServer, type RunningServer } from '../lib/server';

let server: RunningServer;
let browser: Browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text });

async function signOut(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: `Account menu for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL('**/auth/login');
  assert.deepEqual(await storageKeys(page), []);
}

describe('account', () => {
  it('register → sign out → login → update profile and picture → change password → logout', async () => {
    const { page, errors } = await newContext(browser, server.baseUrl);
    const user = newUser();

    // Register: the contract's rules run in the browser first.
    await page.goto('/auth/register');
    await appReady(page);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Username must be at least 3 characters').waitFor();
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Full name').fill(user.name);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Phone').fill('12');
    await page.getByLabel(/^Password/).fill(user.password);
    await page.getByLabel('Confirm password').fill('something else 1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Passwords do not match').waitFor();
    await page.getByLabel('Confirm password').fill(user.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    // The server's own check (a real phone number) comes back as a 400 and lands on the field.
    const phoneError = page.locator('[id$="-error"]', { hasText: /phone/i });
    await phoneError.waitFor();
    await page.getByLabel('Phone').fill(user.phone);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/dashboard');
    assert.deepEqual(await storageKeys(page), ['accessToken', 'refreshToken', 'user']);
    await page.getByRole('button', { name: `Account menu for ${user.name}` }).waitFor();

    await signOut(page, user.name);

    // Login: a wrong password shows the server's message; the right one signs in.
    await fillLogin(page, { username: user.username, password: 'wrong password 1' });
    await page
      .getByRole('alert')
      .filter({ hasText: /invalid|incorrect/i })
      .waitFor();
    await fillLogin(page, user);
    await page.waitForURL('**/dashboard');

    // Profile: initials until a picture is uploaded.
    await page.getByRole('button', { name: `Account menu for ${user.name}` }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.waitForURL('**/profile');
    await page.getByText(user.email).waitFor();
    assert.equal(await page.locator('main img[alt^="Picture of"]').count(), 0);

    await page.getByRole('link', { name: 'Edit profile' }).click();
    await page.waitForURL('**/profile/update');
    const fileInput = page.locator('input[type="file"]');
    await fileInput.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    });
    await page.getByText('Choose a PNG, JPEG, WebP or GIF image.').waitFor();
    await fileInput.setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(2 * 1024 * 1024 + 1),
    });
    await page.getByText('The picture must be 2 MB or smaller.').waitFor();
    await fileInput.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: tinyPng() });
    await toast(page, 'Your picture has been updated.').waitFor();
    const picture = page.locator('main img[alt^="Picture of"]');
    await picture.waitFor();
    assert.match((await picture.getAttribute('src')) ?? '', /^blob:/);

    await page.getByLabel('Full name').fill(`${user.name} Jr`);
    await page.getByLabel('Time zone').first().click();
    await page.getByLabel('Time zone').first().fill('Europe/Lisb');
    await page.getByRole('option', { name: 'Europe/Lisbon' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Your profile has been updated.').waitFor();
    await page.getByRole('button', { name: `Account menu for ${user.name} Jr` }).waitFor();

    await page.goto('/profile');
    await appReady(page);
    await page.getByText('Europe/Lisbon').waitFor();
    await page.locator('main img[alt^="Picture of"]').waitFor();

    // Change password: a wrong current password is reported on its field.
    await page.getByRole('link', { name: 'Change password' }).click();
    await page.waitForURL('**/profile/password');
    const newPassword = 'battery staple 77';
    await page.getByLabel('Current password').fill('not my password 9');
    await page.getByLabel(/^New password/).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page
      .locator('[id$="-error"]')
      .filter({ hasText: /password/i })
      .first()
      .waitFor();
    await page.getByLabel('Current password').fill(user.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await toast(page, 'Your password has been changed.').waitFor();

    await signOut(page, `${user.name} Jr`);
    await fillLogin(page, { username: user.username, password: newPassword });
    await page.waitForURL('**/dashboard');
    assert.deepEqual(errors, []);
  });

  it('resets a forgotten password through the emailed link', async () => {
    const user = await registerViaApi(server.baseUrl);
    const { page } = await newContext(browser, server.baseUrl);
    await page.goto('/auth/login');
    await appReady(page);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Check your email').waitFor();

    const outbox = path.join(server.dataDir, 'outbox');
    // The reset email is sent after the uniform reply (no timing difference for unknown emails).
    const findMail = () => {
      try {
        return readdirSync(outbox).find((f) => f.includes(user.email.replace(/[^a-zA-Z0-9@._-]/g, '_')));
      } catch {
        return undefined; // no outbox yet
      }
    };
    for (let i = 0; i < 100 && !findMail(); i++) await new Promise((r) => setTimeout(r, 50));
    const mail = findMail();
    assert.ok(mail, 'the reset email was written to the outbox');
    const text = readFileSync(path.join(outbox, mail), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    const link = /https?:\/\/\S+\/auth\/reset-password\?token=[\w%-]+/.exec(text)?.[0];
    assert.ok(link, 'the email holds a reset link');

    await page.goto(new URL(link).pathname + new URL(link).search);
    await appReady(page);
    const newPassword = 'fresh password 88';
    await page.getByLabel(/^New password/).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL('**/auth/login');
    await toast(page, 'Your password has been reset.').waitFor();
    await fillLogin(page, { username: user.username, password: newPassword });
    await page.waitForURL('**/dashboard');

    // The same link does not work twice.
    const again = await newContext(browser, server.baseUrl);
    await again.page.goto(new URL(link).pathname + new URL(link).search);
    await appReady(again.page);
    await again.page.getByLabel(/^New password/).fill('another pass 99');
    await again.page.getByLabel('Confirm new password').fill('another pass 99');
    await again.page.getByRole('button', { name: 'Set new password' }).click();
    await again.page.getByRole('alert').waitFor();
    assert.equal(pathOf(again.page).startsWith('/auth/reset-password'), true);
  });
});
