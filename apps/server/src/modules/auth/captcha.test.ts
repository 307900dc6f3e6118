import { CAPTCHA_HEADER } from '@wren/contracts';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';

// Issue #14: self-hosted proof-of-work bot protection (ALTCHA) on register and forgot-password.
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ CAPTCHA: 'true', CAPTCHA_COST: '5' });
});
afterAll(async () => {
  await server?.close();
});

/** What the widget does: fetch a challenge, solve it, send base64(JSON {challenge, solution}). */
async function solved(): Promise<string> {
  const res = await server.client().get('/api/auth/captcha');
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const challenge = res.body as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  expect(solution).not.toBeNull();
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

const registration = (tag: string) => ({
  username: `bot${tag}`,
  name: 'Captcha Test',
  email: `bot${tag}@example.com`,
  phone: '+14155550123',
  password: 'tulip orbit kettle',
});

describe('ALTCHA on register and forgot-password', () => {
  it('refuses a request without a solution, a forged one and a replayed one; accepts a fresh one', async () => {
    const c = server.client();
    const tag = `${process.pid}${Date.now()}`;
    const none = await c.post('/api/auth/register', registration(tag));
    expect(none.status).toBe(400);
    expect(none.body.message).toMatch(/not a robot/);

    const forged = Buffer.from(
      JSON.stringify({ challenge: { parameters: { algorithm: 'SHA-256' } }, solution: { counter: 1 } }),
    ).toString('base64');
    const withForged = await c.request('POST', '/api/auth/register', registration(tag), {
      headers: { [CAPTCHA_HEADER]: forged },
    });
    expect(withForged.status).toBe(400);

    const payload = await solved();
    const ok = await c.request('POST', '/api/auth/register', registration(tag), {
      headers: { [CAPTCHA_HEADER]: payload },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const replay = await server.client().request('POST', '/api/auth/register', registration(`${tag}b`), {
      headers: { [CAPTCHA_HEADER]: payload },
    });
    expect(replay.status).toBe(400);
    expect(replay.body.message).toMatch(/not a robot/);
  });

  it('guards forgot-password the same way', async () => {
    const c = server.client();
    expect((await c.post('/api/auth/forgot-password', { email: 'a@example.com' })).status).toBe(400);
    const res = await c.request(
      'POST',
      '/api/auth/forgot-password',
      { email: 'a@example.com' },
      { headers: { [CAPTCHA_HEADER]: await solved() } },
    );
    expect(res.status).toBe(202);
  });
});
