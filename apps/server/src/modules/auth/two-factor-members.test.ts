import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { createTestClock } from '../../platform/clock';
import { totpCode } from './two-factor-crypto';

// Two-factor sign-in with members (issue 39 items 1 and 3): the paths that open a session in
// another account (accepting an invite, switching) do not skip the second factor or the account's
// requirement.

const clock = createTestClock(Date.parse('2026-06-01T12:00:00Z'));
let server: TestServer;
const mails: { to: string; text: string }[] = [];

beforeAll(async () => {
  server = await startServer({}, { clock });
  const mailer = server.ctx.mailer as { send: (m: { to: string; text: string }) => Promise<void> };
  mailer.send = async (m) => {
    mails.push(m);
  };
});
afterAll(async () => {
  await server?.close();
});

async function invite(owner: ApiClient, email: string) {
  const res = await owner.post('/api/invites', { email, role: 'sender' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return /\/invite\/([^\s]+)/.exec(mails.filter((m) => m.to === email).at(-1)!.text)![1]!;
}

describe('two-factor and members', () => {
  it('an invite accepted with the password alone does not skip two-factor; signed in it is accepted', async () => {
    const owner = server.client();
    await owner.register();
    const u = server.client();
    const reg = await u.register();
    const start = await u.post('/api/me/two-factor/enroll');
    expect(
      (
        await u.post('/api/me/two-factor/confirm', {
          code: totpCode(start.body.secret, clock.now().getTime()),
        })
      ).status,
    ).toBe(200);

    const token = await invite(owner, reg.user.email);
    const anonymous = await server.client().post(`/api/invites/${token}/accept`, { password: reg.password });
    expect(anonymous.status).toBe(409);
    expect(anonymous.body.message).toBe(
      'Your account uses two-factor sign-in: sign in first, then open the invite link again.',
    );
    expect(anonymous.body.accessToken).toBeUndefined();
    const signedIn = await u.post(`/api/invites/${token}/accept`, {});
    expect(signedIn.status).toBe(200);
  });

  it('accepting an invite into an account that requires two-factor enrolls first (signed in, password, new user)', async () => {
    const owner = server.client();
    const o = await owner.register();
    await requireTwoFactor(owner);

    // Signed in without two-factor: the enrollment step, no token for the account.
    const v = server.client();
    const reg = await v.register();
    const signedIn = await v.post(`/api/invites/${await invite(owner, reg.user.email)}/accept`, {});
    expectEnrollStep(signedIn);
    const bare = server.client();
    expect(
      (await bare.post('/api/auth/2fa/enroll/confirm', { challenge: 'nope', code: '000000' })).status,
    ).toBe(401);
    const session = await enroll(signedIn.body.challenge);
    expect(accountOf(session.accessToken)).toBe(o.user.accountId);

    // An existing user giving their password, and a new user: the same step.
    const w = server.client();
    const wReg = await w.register();
    const byPassword = await server
      .client()
      .post(`/api/invites/${await invite(owner, wReg.user.email)}/accept`, { password: wReg.password });
    expectEnrollStep(byPassword);
    expect(accountOf((await enroll(byPassword.body.challenge)).accessToken)).toBe(o.user.accountId);

    const fresh = await server
      .client()
      .post(`/api/invites/${await invite(owner, 'new-2fa@example.com')}/accept`, {
        username: 'new2fa',
        name: 'New Member',
        phone: '+14155550123',
        password: 'Correct-Horse-9-battery',
      });
    expectEnrollStep(fresh);
  });

  it('switching into an account that requires two-factor enrolls first; the session opens there', async () => {
    const owner = server.client();
    const o = await owner.register();
    await requireTwoFactor(owner);
    const v = server.client();
    const reg = await v.register();
    const token = await invite(owner, reg.user.email);
    expectEnrollStep(await v.post(`/api/invites/${token}/accept`, {}));
    const home = server.client();
    home.useSession(
      (await home.post('/api/auth/login', { username: reg.user.username, password: reg.password })).body,
    );
    const step = await home.post('/api/auth/switch-account', { accountId: o.user.accountId });
    expectEnrollStep(step);
    const session = await enroll(step.body.challenge);
    expect(accountOf(session.accessToken)).toBe(o.user.accountId);
    const inAccount = server.client();
    inAccount.useSession(session);
    const mine = await inAccount.get('/api/me/accounts');
    expect(mine.body.items.find((a: { current: boolean }) => a.current).accountId).toBe(o.user.accountId);

    // Not a member: refused, never an enrollment for someone else's account.
    const stranger = server.client();
    await stranger.register();
    expect((await stranger.post('/api/auth/switch-account', { accountId: o.user.accountId })).status).toBe(
      403,
    );

    // Enrolled now: a switch opens the session at once.
    const again = await inAccount.post('/api/auth/switch-account', { accountId: o.user.accountId });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.accessToken).toBeDefined();
  });
});

async function requireTwoFactor(owner: ApiClient) {
  const res = await owner.request('PUT', '/api/account/two-factor', { requireTwoFactor: true });
  expect(res.status).toBe(200);
}

function expectEnrollStep(res: { status: number; body: Record<string, unknown> }) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.twoFactor).toBe('enroll');
  expect(res.body.accessToken).toBeUndefined();
  expect(res.body.refreshToken).toBeUndefined();
}

/** Finishes a sign-in enrollment with the challenge; answers its session. */
async function enroll(challenge: string) {
  const c = server.client();
  const start = await c.post('/api/auth/2fa/enroll', { challenge });
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const code = totpCode(start.body.secret, clock.now().getTime());
  const done = await c.post('/api/auth/2fa/enroll/confirm', { challenge, code });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  expect(done.body.recoveryCodes).toHaveLength(10);
  return done.body as { accessToken: string; refreshToken: string };
}

const accountOf = (accessToken: string) =>
  (JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { aid: string }).aid;
