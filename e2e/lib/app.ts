import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';

export interface TestUser {
  username: string;
  name: string;
  email: string;
  phone: string;
  password: string;
}

export function newUser(overrides: Partial<TestUser> = {}): TestUser {
  const id = randomBytes(4).toString('hex');
  return {
    username: `user_${id}`,
    name: `Grace Hopper ${id.slice(0, 3)}`,
    email: `grace.${id}@example.com`,
    phone: '+14155552671',
    password: 'correct horse 42',
    ...overrides,
  };
}

/** Fills the register form with `user` and submits it (the page is on /auth/register). */
export async function submitRegisterForm(page: Page, user: TestUser): Promise<void> {
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Full name').fill(user.name);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Phone').fill(user.phone);
  await page.getByLabel(/^Password/).fill(user.password);
  await page.getByLabel('Confirm password').fill(user.password);
  await page.getByRole('button', { name: 'Create account' }).click();
}

/** Calls the browser API from Node the way the web app does: XSRF cookie echoed in a header. */
export async function apiCall(baseUrl: string, method: string, path: string, body?: unknown, token?: string) {
  const xsrf = await fetch(`${baseUrl}/api/auth/xsrf`);
  const cookie = /XSRF-TOKEN=([^;]+)/.exec(xsrf.headers.get('set-cookie') ?? '')?.[1] ?? '';
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      cookie: `XSRF-TOKEN=${cookie}`,
      'x-xsrf-token': cookie,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

/** Creates an account through the API (the server signs it in; the tokens are not used here). */
export async function registerViaApi(baseUrl: string, user: TestUser = newUser()): Promise<TestUser> {
  const res = await apiCall(baseUrl, 'POST', '/api/auth/register', {
    username: user.username,
    name: user.name,
    email: user.email,
    phone: user.phone,
    password: user.password,
  });
  assert.equal(res.status, 201, `register failed: ${JSON.stringify(res.body)}`);
  return user;
}

/** Signs in through the API and uploads a profile picture (multipart field `file`). */
export async function uploadPicture(baseUrl: string, user: TestUser, png: Buffer): Promise<void> {
  const login = await apiCall(baseUrl, 'POST', '/api/auth/login', {
    username: user.username,
    password: user.password,
  });
  const token = String(login.body?.accessToken);
  const xsrf = await fetch(`${baseUrl}/api/auth/xsrf`);
  const cookie = /XSRF-TOKEN=([^;]+)/.exec(xsrf.headers.get('set-cookie') ?? '')?.[1] ?? '';
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png');
  const res = await fetch(`${baseUrl}/api/me/picture/fileUpload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, cookie: `XSRF-TOKEN=${cookie}`, 'x-xsrf-token': cookie },
    body: form,
  });
  assert.equal(res.status, 200, `picture upload failed: ${await res.text()}`);
}

/** Waits until index.html's boot overlay is gone and the busy overlay has faded out. */
export async function appReady(page: Page): Promise<void> {
  await page.waitForSelector('#boot-overlay', { state: 'detached' });
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll('.wren-overlay')).every(
      (el) => getComputedStyle(el).visibility === 'hidden',
    ),
  );
}

/** Signs in through the login page (wherever the page currently is on it). */
export async function fillLogin(page: Page, user: Pick<TestUser, 'username' | 'password'>): Promise<void> {
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel(/^Password/).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export async function signIn(page: Page, user: TestUser, path = '/auth/login'): Promise<void> {
  await page.goto(path);
  await appReady(page);
  await fillLogin(page, user);
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/'));
  await appReady(page);
}

/** The path and query of the page's current address. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

export async function heading(page: Page): Promise<string> {
  return (await page.locator('h1').first().innerText()).trim();
}

export const storageKeys = (page: Page) => page.evaluate(() => Object.keys(localStorage).sort());
