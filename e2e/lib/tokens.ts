import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { E2E_JWT_SECRET } from './server';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * The same access token (same user, session and role), signed with the test server's key, but issued
 * `ttlSeconds` before it expired `agoSeconds` ago: what a tab holds once its token has run out, without
 * waiting for that to happen.
 */
export function expiredCopy(token: string, ttlSeconds: number, agoSeconds = 60): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
    iat: number;
    exp: number;
  };
  const exp = Math.floor(Date.now() / 1000) - agoSeconds;
  const unsigned = `${b64({ alg: 'HS256', typ: 'at+jwt' })}.${b64({ ...payload, iat: exp - ttlSeconds, exp })}`;
  const signature = createHmac('sha256', E2E_JWT_SECRET).update(unsigned).digest('base64url');
  return `${unsigned}.${signature}`;
}

/** Replaces the signed-in page's access token with an expired copy of it; returns the copy. */
export async function expireAccessToken(page: Page, ttlSeconds: number): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  if (!token) throw new Error('the page holds no access token');
  const expired = expiredCopy(token, ttlSeconds);
  await page.evaluate((t) => localStorage.setItem('accessToken', t), expired);
  return expired;
}
