import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { createTestClock } from '../../platform/clock';
import { totpCode } from './two-factor-crypto';

// Two-factor sign-in (issue 39 item 3) through the real HTTP server and PostgreSQL. The server runs
// on a test clock: codes are computed for the clock's "now", and a step is moved past when a test
// needs a fresh code (a code cannot be used twice in its window).

const clock = createTestClock(Date.parse('2026-06-01T12:00:00Z'));
const STEP_MS = 30_000;
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ LOGIN_LOCK_THRESHOLD: '3', REFRESH_GRACE_SECONDS: '0' }, { clock });
});
afterAll(async () => {
  await server?.close();
});

const code = (secret: string) => totpCode(secret, clock.now().getTime());
const nextStep = () => clock.advance(STEP_MS);

interface Enrolled {
  c: ApiClient;
  username: string;
  password: string;
  secret: string;
  recoveryCodes: string[];
  userId: string;
  accountId: string;
}

/** A fresh user with two-factor turned on (their client stays signed in). */
async function enrolled(): Promise<Enrolled> {
  const c = server.client();
  const reg = await c.register();
  const start = await c.post('/api/me/two-factor/enroll');
  expect(start.status).toBe(200);
  const confirm = await c.post('/api/me/two-factor/confirm', { code: code(start.body.secret) });
  expect(confirm.status).toBe(200);
  nextStep();
  return {
    c,
    username: reg.user.username,
    password: reg.password,
    secret: start.body.secret,
    recoveryCodes: confirm.body.recoveryCodes,
    userId: reg.user.id,
    accountId: reg.user.accountId,
  };
}

const login = (c: ApiClient, u: { username: string; password: string }) =>
  c.post('/api/auth/login', { username: u.username, password: u.password });

describe('enrollment', () => {
  it('gives a secret, its otpauth URI and a QR image; a code enables it and returns 10 recovery codes once', async () => {
    const c = server.client();
    const reg = await c.register();
    expect((await c.get('/api/me/two-factor')).body).toMatchObject({
      enabled: false,
      accountRequires: false,
      canSetRequirement: true,
    });
    const start = await c.post('/api/me/two-factor/enroll');
    expect(start.status).toBe(200);
    expect(start.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(start.body.otpauthUri).toMatch(/^otpauth:\/\/totp\/Wren:.+secret=/);
    expect(start.body.otpauthUri).toContain('issuer=Wren');
    expect(start.body.qrDataUrl).toMatch(/^data:image\/png;base64,/);
    expect(start.headers.get('cache-control')).toBe('no-store');

    const wrong = await c.post('/api/me/two-factor/confirm', { code: '000000' });
    expect(wrong.status).toBe(401);
    const bad = await c.post('/api/me/two-factor/confirm', { code: '12ab' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.code).toEqual(['Enter the 6-digit code from your authenticator app']);

    const ok = await c.post('/api/me/two-factor/confirm', { code: code(start.body.secret) });
    expect(ok.status).toBe(200);
    expect(ok.body.recoveryCodes).toHaveLength(10);
    expect(new Set(ok.body.recoveryCodes).size).toBe(10);
    const status = await c.get('/api/me/two-factor');
    expect(status.body).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    expect(JSON.stringify(status.body)).not.toContain(start.body.secret);
    // Stored encrypted, codes hashed.
    const row = await server.ctx.db
      .selectFrom('user_two_factor')
      .selectAll()
      .where('user_id', '=', reg.user.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_enc).not.toContain(start.body.secret);
    const hashes = await server.ctx.db
      .selectFrom('two_factor_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', reg.user.id)
      .execute();
    expect(hashes.map((h) => h.code_hash)).not.toContain(ok.body.recoveryCodes[0]);
    // Once on, a new enrollment is refused (the secret cannot be read or replaced that way).
    expect((await c.post('/api/me/two-factor/enroll')).status).toBe(409);
    const audit = await server.ctx.db
      .selectFrom('audit_log')
      .select('kind')
      .where('user_id', '=', reg.user.id)
      .execute();
    expect(audit.map((a) => a.kind)).toContain('auth.two_factor_enabled');
    nextStep();
  });
});

describe('sign-in with two-factor', () => {
  it('the password step gives a challenge, not tokens; the code completes it', async () => {
    const u = await enrolled();
    const c = server.client();
    const first = await login(c, u);
    expect(first.status).toBe(200);
    expect(first.body.accessToken).toBeUndefined();
    expect(first.body).toMatchObject({ twoFactor: 'code' });
    expect(typeof first.body.challenge).toBe('string');
    const done = await c.post('/api/auth/2fa', { challenge: first.body.challenge, code: code(u.secret) });
    expect(done.status).toBe(200);
    expect(done.body.user.username).toBe(u.username);
    c.useSession(done.body);
    expect((await c.get('/api/me')).status).toBe(200);
    // Refresh works as for everyone.
    const refreshed = await c.post('/api/auth/refreshToken', {
      accessToken: done.body.accessToken,
      refreshToken: done.body.refreshToken,
    });
    expect(refreshed.status).toBe(200);
    nextStep();
  });

  it('refuses a wrong code, and wrong codes count toward the sign-in lock', async () => {
    const u = await enrolled();
    const c = server.client();
    const { challenge } = (await login(c, u)).body;
    const wrong1 = await c.post('/api/auth/2fa', { challenge, code: '000000' });
    expect(wrong1.status).toBe(401);
    expect(wrong1.body.message).toBe('Incorrect code. Try again.');
    expect((await c.post('/api/auth/2fa', { challenge, code: '000001' })).status).toBe(401);
    const third = await c.post('/api/auth/2fa', { challenge, code: '000002' });
    expect(third.status).toBe(423);
    // Locked: even the right code (and the right password) is refused until the lock ends.
    expect((await c.post('/api/auth/2fa', { challenge, code: code(u.secret) })).status).toBe(423);
    expect((await login(c, u)).status).toBe(423);
    // The signed-in session of the user ended with the lock.
    expect((await u.c.get('/api/me')).status).toBe(401);
    clock.advance(16 * 60_000);
  });

  it('refuses a code used before within its window (replay)', async () => {
    const u = await enrolled();
    const c = server.client();
    const now = code(u.secret);
    const one = await login(c, u);
    expect((await c.post('/api/auth/2fa', { challenge: one.body.challenge, code: now })).status).toBe(200);
    const two = await login(c, u);
    const replay = await c.post('/api/auth/2fa', { challenge: two.body.challenge, code: now });
    expect(replay.status).toBe(401);
    expect(replay.body.message).toBe('That code was used already. Wait for the next one.');
    nextStep();
    expect(
      (await c.post('/api/auth/2fa', { challenge: two.body.challenge, code: code(u.secret) })).status,
    ).toBe(200);
    nextStep();
  });

  it('a recovery code signs in once', async () => {
    const u = await enrolled();
    const c = server.client();
    const rc = u.recoveryCodes[3]!;
    const one = await login(c, u);
    const used = await c.post('/api/auth/2fa', {
      challenge: one.body.challenge,
      recoveryCode: rc.toUpperCase(),
    });
    expect(used.status).toBe(200);
    const two = await login(c, u);
    const again = await c.post('/api/auth/2fa', { challenge: two.body.challenge, recoveryCode: rc });
    expect(again.status).toBe(401);
    c.useSession(used.body);
    expect((await c.get('/api/me/two-factor')).body.recoveryCodesLeft).toBe(9);
  });

  it('a remembered device skips the code for 30 days, and not after', async () => {
    const u = await enrolled();
    const c = server.client();
    const one = await login(c, u);
    const done = await c.post('/api/auth/2fa', {
      challenge: one.body.challenge,
      code: code(u.secret),
      rememberDevice: true,
    });
    expect(done.status).toBe(200);
    const cookie = done.headers.getSetCookie().find((s) => s.startsWith('wren_2fa_device='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Path=\/api\/auth/);
    expect(cookie).toMatch(/Max-Age=2592000/);
    // Another browser (no cookie) still needs the code.
    expect((await login(server.client(), u)).body.twoFactor).toBe('code');
    clock.advance(29 * 86_400_000);
    const within = await login(c, u);
    expect(within.body.accessToken).toEqual(expect.any(String));
    clock.advance(86_400_000 + 60_000);
    const after = await login(c, u);
    expect(after.body.accessToken).toBeUndefined();
    expect(after.body.twoFactor).toBe('code');
    nextStep();
  });

  it('a challenge expires after 5 minutes and is single-use', async () => {
    const u = await enrolled();
    const c = server.client();
    const one = await login(c, u);
    clock.advance(5 * 60_000 + 1_000);
    const late = await c.post('/api/auth/2fa', { challenge: one.body.challenge, code: code(u.secret) });
    expect(late.status).toBe(401);
    expect(late.body.message).toBe('This sign-in has expired. Please sign in again.');
    nextStep();
    const two = await login(c, u);
    expect(
      (await c.post('/api/auth/2fa', { challenge: two.body.challenge, code: code(u.secret) })).status,
    ).toBe(200);
    nextStep();
    const reused = await c.post('/api/auth/2fa', { challenge: two.body.challenge, code: code(u.secret) });
    expect(reused.status).toBe(401);
    expect(reused.body.message).toBe('This sign-in has expired. Please sign in again.');
    nextStep();
  });
});

describe('an account that requires two-factor', () => {
  it('an owner turns it on; a member without two-factor must enroll before getting tokens', async () => {
    const c = server.client();
    const reg = await c.register();
    const put = await c.request('PUT', '/api/account/two-factor', { requireTwoFactor: true });
    expect(put.status).toBe(200);
    expect((await c.get('/api/me/two-factor')).body.accountRequires).toBe(true);

    const b = server.client();
    const first = await login(b, { username: reg.user.username, password: reg.password });
    expect(first.body).toMatchObject({ twoFactor: 'enroll' });
    expect(first.body.accessToken).toBeUndefined();
    // The challenge is not a code step, and not a token.
    expect((await b.post('/api/auth/2fa', { challenge: first.body.challenge, code: '123456' })).status).toBe(
      401,
    );
    b.accessToken = first.body.challenge;
    expect((await b.get('/api/me')).status).toBe(401);
    b.accessToken = null;

    const start = await b.post('/api/auth/2fa/enroll', { challenge: first.body.challenge });
    expect(start.status).toBe(200);
    const done = await b.post('/api/auth/2fa/enroll/confirm', {
      challenge: first.body.challenge,
      code: code(start.body.secret),
    });
    expect(done.status).toBe(200);
    expect(done.body.recoveryCodes).toHaveLength(10);
    b.useSession(done.body);
    expect((await b.get('/api/me')).status).toBe(200);
    // Turning it off is refused while the account requires it.
    nextStep();
    const off = await b.post('/api/me/two-factor/disable', {
      password: reg.password,
      code: code(start.body.secret),
    });
    expect(off.status).toBe(403);
    // The next sign-in asks for a code.
    nextStep();
    expect(
      (await login(server.client(), { username: reg.user.username, password: reg.password })).body.twoFactor,
    ).toBe('code');
  });
});

describe('users without two-factor', () => {
  it('sign in with tokens straight away, as before', async () => {
    const c = server.client();
    const reg = await c.register();
    const res = await login(server.client(), { username: reg.user.username, password: reg.password });
    expect(res.status).toBe(200);
    expect(res.body.accessToken).toEqual(expect.any(String));
    expect(res.body.twoFactor).toBeUndefined();
  });
});

describe('sessions end when two-factor changes', () => {
  it('enabling, regenerating codes and disabling end the user other sessions, not this one', async () => {
    const c = server.client();
    const reg = await c.register();
    const other = server.client();
    other.useSession((await login(other, { username: reg.user.username, password: reg.password })).body);
    expect((await other.get('/api/me')).status).toBe(200);

    const start = await c.post('/api/me/two-factor/enroll');
    expect((await c.post('/api/me/two-factor/confirm', { code: code(start.body.secret) })).status).toBe(200);
    expect((await other.get('/api/me')).status).toBe(401);
    expect((await c.get('/api/me')).status).toBe(200);
    nextStep();

    const signInOther = async () => {
      const ch = await login(other, { username: reg.user.username, password: reg.password });
      const done = await other.post('/api/auth/2fa', {
        challenge: ch.body.challenge,
        code: code(start.body.secret),
      });
      expect(done.status).toBe(200);
      other.useSession(done.body);
      nextStep();
    };
    await signInOther();
    const regen = await c.post('/api/me/two-factor/recovery-codes', { code: code(start.body.secret) });
    expect(regen.status).toBe(200);
    expect(regen.body.recoveryCodes).toHaveLength(10);
    expect((await other.get('/api/me')).status).toBe(401);
    expect((await c.get('/api/me')).status).toBe(200);
    nextStep();

    await signInOther();
    const wrongPassword = await c.post('/api/me/two-factor/disable', {
      password: 'not the password',
      code: code(start.body.secret),
    });
    expect(wrongPassword.status).toBe(400);
    const off = await c.post('/api/me/two-factor/disable', {
      password: reg.password,
      code: code(start.body.secret),
    });
    expect(off.status).toBe(204);
    expect((await other.get('/api/me')).status).toBe(401);
    expect((await c.get('/api/me')).status).toBe(200);
    expect((await c.get('/api/me/two-factor')).body.enabled).toBe(false);
    const kinds = (
      await server.ctx.db.selectFrom('audit_log').select('kind').where('user_id', '=', reg.user.id).execute()
    ).map((a) => a.kind);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'auth.two_factor_enabled',
        'auth.two_factor_recovery_regenerated',
        'auth.two_factor_disabled',
      ]),
    );
    // Without two-factor, sign-in gives tokens again.
    expect(
      (await login(server.client(), { username: reg.user.username, password: reg.password })).body
        .accessToken,
    ).toEqual(expect.any(String));
  });
});
