import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from '../lib/test';
import type { Browser } from 'playwright-core';
import { appReady, newUser, storageKeys, submitRegisterForm } from '../lib/app';
import { launchBrowser, newContext } from '../lib/browser';
import { startServer, type RunningServer } from '../lib/server';

// Issue #14 finding 8: with REGISTRATION_CONFIRM the form says "check your email" and the emailed
// link creates the account and signs in.
let server: RunningServer;
let browser: Browser;

before(async () => {
  server = await startServer({ REGISTRATION_CONFIRM: 'true' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function linkFor(email: string): Promise<string> {
  const outbox = path.join(server.dataDir, 'outbox');
  for (let i = 0; i < 100; i++) {
    try {
      const file = readdirSync(outbox).find((f) => f.includes(email.replace(/[^a-zA-Z0-9@._-]/g, '_')));
      if (file) {
        const text = readFileSync(path.join(outbox, file), 'utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=3D/g, '=');
        const link = /https?:\/\/\S+\/auth\/confirm-registration\?token=[\w%-]+/.exec(text)?.[0];
        if (link) return link;
      }
    } catch {
      // no outbox yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no confirmation email');
}

describe('registration by emailed link', () => {
  it('register → check your email → the link signs in', async () => {
    const { page } = await newContext(browser, server.baseUrl);
    const user = newUser();
    await page.goto('/auth/register');
    await appReady(page);
    await submitRegisterForm(page, user);
    await page.getByText('Check your email').waitFor();
    assert.deepEqual(await storageKeys(page), []);

    const link = new URL(await linkFor(user.email));
    await page.goto(link.pathname + link.search);
    await page.waitForURL('**/dashboard');
    assert.deepEqual(await storageKeys(page), ['accessToken', 'refreshToken', 'user']);
  });
});
