import assert from 'node:assert/strict';
import { after, before, describe, it } from '../lib/test';
import type { Browser, Page } from 'playwright-core';
import { appReady, fillLogin, registerViaApi, signIn } from '../lib/app';
import { launchBrowser, newContext, screenshot } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';
// The server's own TOTP (otpauth, RFC 6238): the codes an authenticator app would show.
import { totpCode } from '../../apps/server/src/modules/auth/two-factor-crypto';

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

const step = () => Math.floor(Date.now() / 30_000);
/** A code is accepted once: wait for the authenticator's next code after using one. */
async function nextCode(secret: string, usedStep: number): Promise<string> {
  while (step() <= usedStep) await new Promise((r) => setTimeout(r, 500));
  return totpCode(secret, Date.now());
}

async function signOut(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: `Account menu for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL('**/auth/login');
}

/** The page scrolls no wider than its viewport (the 390 px layout). */
const noSideScroll = async (page: Page) =>
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));

describe('two-factor sign-in', () => {
  it('enroll in the profile → sign out → sign in with a code; a recovery code at 390 px', async () => {
    const user = await registerViaApi(server.baseUrl);
    const { page } = await newContext(browser, server.baseUrl);
    await signIn(page, user);
    await page.goto('/profile');
    await appReady(page);
    const security = page.getByRole('region', { name: 'Security' });
    await security.getByText('Two-factor sign-in is off').waitFor();
    await security.getByRole('button', { name: 'Set up two-factor' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await page.getByTestId('two-factor-secret').innerText()).replace(/\s+/g, '');
    assert.match(secret, /^[A-Z2-7]{32}$/);

    // The form's own check, then the server's answer to a wrong code.
    const codeField = page.getByLabel('Code from the app');
    await codeField.fill('12');
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    await page.getByText('Enter the 6-digit code from your authenticator app', { exact: true }).waitFor();
    await codeField.fill('000000');
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    await page.getByRole('alert').filter({ hasText: 'Incorrect code' }).waitFor();
    await appReady(page);
    await screenshot(page, 'two-factor-enroll-desktop');

    const enrolledAt = step();
    await codeField.fill(totpCode(secret, Date.now()));
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    const codes = page.getByTestId('recovery-codes').locator('li');
    await codes.first().waitFor();
    assert.equal(await codes.count(), 10);
    const recoveryCodes = await codes.allInnerTexts();
    const done = page.getByRole('button', { name: 'Done' });
    assert.equal(await done.isDisabled(), true, 'Done waits for the saved-codes confirmation');
    await appReady(page);
    await screenshot(page, 'two-factor-recovery-codes-desktop');
    await page.getByLabel('I have saved these codes somewhere safe').check();
    await done.click();
    await security.getByText('Two-factor sign-in is on').waitFor();

    await signOut(page, user.name);
    // Password, then the code step; the next code of the app signs in.
    await fillLogin(page, user);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Enter the 6-digit code from your authenticator app', { exact: true }).waitFor();
    await appReady(page);
    await screenshot(page, 'two-factor-sign-in-desktop');
    await page.getByRole('textbox', { name: /^Code/ }).fill(await nextCode(secret, enrolledAt));
    await page.getByLabel('Remember this device for 30 days').check();
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/dashboard');
    await appReady(page);

    // This browser is remembered: the password alone signs in again.
    await signOut(page, user.name);
    await fillLogin(page, user);
    await page.waitForURL('**/dashboard');

    // Another browser at 390 px: the code step again; a recovery code signs in.
    const phone = await newContext(browser, server.baseUrl, { width: 390, height: 844 });
    await phone.page.goto('/auth/login');
    await appReady(phone.page);
    await fillLogin(phone.page, user);
    await phone.page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await phone.page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await phone.page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
    await noSideScroll(phone.page);
    await appReady(phone.page);
    await screenshot(phone.page, 'two-factor-sign-in-390');
    await phone.page.getByRole('button', { name: 'Verify' }).click();
    await phone.page.waitForURL('**/dashboard');
    await phone.page.goto('/profile');
    await appReady(phone.page);
    await phone.page.getByText('9 of 10 recovery codes left').waitFor();
    await noSideScroll(phone.page);
    await appReady(phone.page);
    await screenshot(phone.page, 'two-factor-profile-390');
    await phone.context.close();
  });
});
