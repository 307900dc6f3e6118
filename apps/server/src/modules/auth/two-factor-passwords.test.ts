import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { createTestClock } from '../../platform/clock';
import { totpCode } from './two-factor-crypto';

// Issue 39: a password change or reset forgets the user's remembered devices (the 30-day cookie of
// two-factor sign-in) and ends the other sessions, as the existing mechanism (sessions.invalidate).

const clock = createTestClock(Date.parse('2026-06-01T12:00:00Z'));
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ REFRESH_GRACE_SECONDS: '0' }, { clock });
});
afterAll(async () => {
  await server?.close();
});

const code = (secret: string) => totpCode(secret, clock.now().getTime());
const nextStep = () => clock.advance(30_000);
const login = (c: ApiClient, u: { username: string; password: string }) =>
  c.post('/api/auth/login', { username: u.username, password: u.password });

/** A user with two-factor on, and a second browser `device` that remembered itself. */
async function withRememberedDevice() {
  const c = server.client();
  const reg = await c.register();
  const start = await c.post('/api/me/two-factor/enroll');
  expect((await c.post('/api/me/two-factor/confirm', { code: code(start.body.secret) })).status).toBe(200);
  nextStep();
  const u = { username: reg.user.username, password: reg.password, email: reg.user.email };
  const device = server.client();
  const one = await login(device, u);
  const done = await device.post('/api/auth/2fa', {
    challenge: one.body.challenge,
    code: code(start.body.secret),
    rememberDevice: true,
  });
  expect(done.status).toBe(200);
  device.useSession(done.body);
  nextStep();
  // Remembered: the password alone signs this browser in.
  expect((await login(device, u)).body.accessToken).toEqual(expect.any(String));
  return { c, u, device };
}

describe('a password change or reset forgets remembered devices', () => {
  it('after a change, the remembered browser needs the code again, and its session has ended', async () => {
    const { c, u, device } = await withRememberedDevice();
    const newPassword = 'A quite new pass phrase 9';
    expect((await c.post('/api/me/password', { currentPassword: u.password, newPassword })).status).toBe(204);
    expect((await device.get('/api/me')).status).toBe(401);
    expect((await c.get('/api/me')).status).toBe(200);
    const again = await login(device, { username: u.username, password: newPassword });
    expect(again.body.accessToken).toBeUndefined();
    expect(again.body.twoFactor).toBe('code');
  });

  it('after a reset, too', async () => {
    const { u, device } = await withRememberedDevice();
    const mails: { to: string; text: string }[] = [];
    const mailer = server.ctx.mailer as { send: (m: { to: string; text: string }) => Promise<void> };
    const send = mailer.send;
    mailer.send = async (m) => {
      mails.push(m);
    };
    try {
      await server.client().post('/api/auth/forgot-password', { email: u.email });
      await server.ctx.services.auth.whenIdle();
    } finally {
      mailer.send = send;
    }
    const token = /reset-password\?token=([A-Za-z0-9_%-]+)/.exec(
      mails.find((m) => m.to === u.email)!.text,
    )![1]!;
    const password = 'Reset pass phrase number 4';
    expect(
      (await server.client().post('/api/auth/reset-password', { token: decodeURIComponent(token), password }))
        .status,
    ).toBe(204);
    expect((await device.get('/api/me')).status).toBe(401);
    const again = await login(device, { username: u.username, password });
    expect(again.body.accessToken).toBeUndefined();
    expect(again.body.twoFactor).toBe('code');
  });
});
