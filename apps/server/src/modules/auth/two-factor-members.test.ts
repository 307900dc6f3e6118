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

  it('switching into an account that requires two-factor needs it turned on first', async () => {
    const owner = server.client();
    const o = await owner.register();
    expect((await owner.request('PUT', '/api/account/two-factor', { requireTwoFactor: true })).status).toBe(
      200,
    );
    const v = server.client();
    const reg = await v.register();
    const token = await invite(owner, reg.user.email);
    // Known gap: accepting while signed in is not held to the requirement (only the switch is).
    expect((await v.post(`/api/invites/${token}/accept`, {})).status).toBe(200);
    const home = server.client();
    home.useSession(
      (await home.post('/api/auth/login', { username: reg.user.username, password: reg.password })).body,
    );
    const refused = await home.post('/api/auth/switch-account', { accountId: o.user.accountId });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'This account requires two-factor sign-in: turn it on in your profile, then switch again.',
    );
    const start = await home.post('/api/me/two-factor/enroll');
    const code = totpCode(start.body.secret, clock.now().getTime());
    expect((await home.post('/api/me/two-factor/confirm', { code })).status).toBe(200);
    const switched = await home.post('/api/auth/switch-account', { accountId: o.user.accountId });
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
  });
});
