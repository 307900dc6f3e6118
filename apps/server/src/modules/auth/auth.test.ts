import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TEST_JWT_SECRET, type TestServer } from '../../../test/harness';
import { createTestClock } from '../../platform/clock';
import { until } from '../../realtime/test-client';
import { REGISTRATION_CLASH_MESSAGE } from './auth.service';
import { AUDIENCE, ISSUER } from './tokens';

// The server's clock stands still unless a test moves it: expiry, grace windows and locks are
// tested by advancing it, not by waiting or by editing timestamps in the database.
const clock = createTestClock();
const MINUTE = 60_000;

let server: TestServer;
beforeAll(async () => {
  server = await startServer({}, { clock });
});
afterAll(async () => {
  await server?.close();
});

const expectDomainError = (
  res: { status: number; headers: Headers; body: any },
  status: number,
  code: string,
) => {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ code, message: expect.any(String) });
  expect(res.headers.get('application-error')).toBe(res.body.message);
};

describe('register', () => {
  it('creates an account with a trial balance in the ledger and signs in', async () => {
    const c = server.client();
    const r = await c.register({ phone: '(415) 555-0123' });
    expect(r.user).toMatchObject({
      name: expect.any(String),
      username: expect.any(String),
      phone: '+14155550123',
      role: 'user',
    });
    expect(r.accessToken.split('.')).toHaveLength(3);
    expect(r.refreshToken.length).toBeGreaterThan(30);
    const entries = await server.ctx.db
      .selectFrom('ledger_entries')
      .selectAll()
      .where('account_id', '=', r.user.accountId)
      .execute();
    expect(entries.map((e) => [e.kind, e.amount_minor])).toEqual([['trial_credit', 500]]);
    expect(await server.ctx.services.ledger.verify(server.ctx.db, r.user.accountId)).toEqual({
      cached: 500,
      sum: 500,
    });
    const me = await c.get('/api/me');
    expect(me.status).toBe(200);
    expect(me.body.username).toBe(r.user.username);
  });

  it('rejects a duplicate username (any case) and a duplicate email, storing nothing', async () => {
    const c = server.client();
    const first = await c.register();
    const before = await server.ctx.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const dup = await server.client().post('/api/auth/register', {
      username: first.user.username.toUpperCase(),
      name: 'X',
      email: first.user.email,
      phone: '+14155550124',
      password: 'another pass 99',
    });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({
      errors: {
        username: [REGISTRATION_CLASH_MESSAGE],
        email: [REGISTRATION_CLASH_MESSAGE],
      },
    });
    const after = await server.ctx.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('validates every field with clear messages', async () => {
    const res = await server.client().post('/api/auth/register', {
      username: 'a',
      name: '',
      email: 'not-an-email',
      phone: '',
      password: 'short',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('application-error')).toBeNull();
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'name', 'password', 'phone', 'username']);
    expect(res.body.errors.password).toContain('Password must be at least 10 characters');
  });

  it('rejects a weak password and an invalid phone number', async () => {
    const weak = await server.client().post('/api/auth/register', {
      username: 'weakling1',
      name: 'Weak',
      email: 'weak@example.com',
      phone: '+14155550123',
      password: 'aaaaaaaaaaaa',
    });
    expect(weak.status).toBe(400);
    expect(weak.body.errors.password).toEqual([
      'This password repeats too few characters; choose a longer mix or a few unrelated words',
    ]);
    const phone = await server.client().post('/api/auth/register', {
      username: 'badphone1',
      name: 'Bad Phone',
      email: 'badphone@example.com',
      phone: '12',
      password: 'correct horse 42',
    });
    expect(phone.status).toBe(400);
    expect(phone.body.errors.phone[0]).toMatch(/valid phone number/);
  });
});

describe('login and lockout', () => {
  it('signs in with username or email and refuses a wrong password with the domain error shape', async () => {
    const reg = await server.client().register();
    const ok = await server
      .client()
      .post('/api/auth/login', { username: reg.user.username, password: reg.password });
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.body).sort()).toEqual(['accessToken', 'refreshToken', 'user']);
    const byEmail = await server
      .client()
      .post('/api/auth/login', { username: reg.user.email, password: reg.password });
    expect(byEmail.status).toBe(200);
    const bad = await server
      .client()
      .post('/api/auth/login', { username: reg.user.username, password: 'wrong password 1' });
    expectDomainError(bad, 401, 'INVALID_CREDENTIALS');
    expect(bad.body.message).toBe('Incorrect username or password');
    const unknown = await server
      .client()
      .post('/api/auth/login', { username: 'nobody-here', password: 'whatever 123' });
    expectDomainError(unknown, 401, 'INVALID_CREDENTIALS');
  });

  it('locks the account after 5 failures, even for the right password, and unlocks after the lock time', async () => {
    const reg = await server.client().register();
    const c = server.client();
    for (let i = 0; i < 4; i++) {
      expect(
        (await c.post('/api/auth/login', { username: reg.user.username, password: `nope nope ${i}` })).status,
      ).toBe(401);
    }
    const fifth = await c.post('/api/auth/login', { username: reg.user.username, password: 'nope nope 5' });
    expectDomainError(fifth, 423, 'ACCOUNT_LOCKED');
    const right = await c.post('/api/auth/login', { username: reg.user.username, password: reg.password });
    expectDomainError(right, 423, 'ACCOUNT_LOCKED');
    expect(right.body.message).toMatch(/Try again in 15 minutes/);
    clock.advance(14 * MINUTE + 30_000);
    const stillLocked = await c.post('/api/auth/login', {
      username: reg.user.username,
      password: reg.password,
    });
    expectDomainError(stillLocked, 423, 'ACCOUNT_LOCKED');
    expect(stillLocked.body.message).toMatch(/Try again in 1 minute\./);
    clock.advance(31_000);
    expect(
      (await c.post('/api/auth/login', { username: reg.user.username, password: reg.password })).status,
    ).toBe(200);
  });

  it('rate-limits login per IP with a clear 429', async () => {
    const limited = await startServer({ AUTH_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const c = limited.client();
      for (let i = 0; i < 3; i++) {
        expect((await c.post('/api/auth/login', { username: 'someone', password: 'x' })).status).toBe(401);
      }
      const res = await c.post('/api/auth/login', { username: 'someone', password: 'x' });
      expectDomainError(res, 429, 'RATE_LIMITED');
      expect(res.body.message).toMatch(/Too many attempts\. Please wait \d+ seconds/);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe('refresh tokens', () => {
  it('rotates the refresh token on each use', async () => {
    const c = server.client();
    const reg = await c.register();
    const res = await c.post('/api/auth/refreshToken', {
      accessToken: reg.accessToken,
      refreshToken: reg.refreshToken,
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['accessToken', 'refreshToken']);
    expect(res.body.refreshToken).not.toBe(reg.refreshToken);
    c.useSession(res.body);
    expect((await c.get('/api/me')).status).toBe(200);
    const stored = await server.ctx.db.selectFrom('refresh_tokens').select('token_hash').execute();
    expect(stored.some((t) => t.token_hash === reg.refreshToken)).toBe(false); // only hashes are stored
  });

  it('lets two concurrent refreshes with the same token both succeed (grace window)', async () => {
    const c = server.client();
    const reg = await c.register();
    const body = { accessToken: reg.accessToken, refreshToken: reg.refreshToken };
    const [a, b] = await Promise.all([
      c.post('/api/auth/refreshToken', body),
      c.post('/api/auth/refreshToken', body),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.refreshToken).toBe(b.body.refreshToken); // one successor (idempotent rotation)
  });

  it('revokes the whole family when a used refresh token is presented after the grace window', async () => {
    const c = server.client();
    const reg = await c.register();
    const first = await c.post('/api/auth/refreshToken', {
      accessToken: reg.accessToken,
      refreshToken: reg.refreshToken,
    });
    expect(first.status).toBe(200);
    // Within the grace window (30 s) the used token still works, as for a second tab.
    clock.advance(29_000);
    const inGrace = await c.post('/api/auth/refreshToken', {
      accessToken: reg.accessToken,
      refreshToken: reg.refreshToken,
    });
    expect(inGrace.status).toBe(200);
    clock.advance(2_000);
    const replay = await c.post('/api/auth/refreshToken', {
      accessToken: reg.accessToken,
      refreshToken: reg.refreshToken,
    });
    expectDomainError(replay, 401, 'TOKEN_REUSED');
    // The legitimate, rotated token dies with its family, and so does the session's access token.
    const next = await c.post('/api/auth/refreshToken', first.body);
    expectDomainError(next, 401, 'TOKEN_INVALID');
    c.useSession(first.body);
    expect((await c.get('/api/me')).status).toBe(401);
  });

  it('refuses a refresh token paired with another session’s access token', async () => {
    const a = await server.client().register();
    const b = await server.client().register();
    const res = await server
      .client()
      .post('/api/auth/refreshToken', { accessToken: b.accessToken, refreshToken: a.refreshToken });
    expectDomainError(res, 401, 'TOKEN_INVALID');
  });
});

describe('access tokens', () => {
  const serverSeconds = () => Math.floor(clock.now().getTime() / 1000);
  const sign = (
    claims: Record<string, unknown>,
    opts: { aud?: string; exp?: number; typ?: string; secret?: string } = {},
  ) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: opts.typ ?? 'at+jwt' })
      .setSubject(String(claims.sub))
      .setIssuer(ISSUER)
      .setAudience(opts.aud ?? AUDIENCE)
      .setIssuedAt(serverSeconds() - 3600)
      .setExpirationTime(opts.exp ?? serverSeconds() + 600)
      .sign(new TextEncoder().encode(opts.secret ?? TEST_JWT_SECRET));

  it('rejects alg=none, wrong audience, wrong typ, wrong key and expired tokens', async () => {
    const c = server.client();
    const reg = await c.register();
    const payload = JSON.parse(Buffer.from(reg.accessToken.split('.')[1]!, 'base64url').toString());
    const claims = {
      sub: payload.sub,
      aid: payload.aid,
      sid: payload.sid,
      role: payload.role,
      arl: payload.arl,
    };
    // Control: a correctly signed token for the same session is accepted.
    c.accessToken = await sign(claims);
    expect((await c.get('/api/me')).status).toBe(200);

    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${reg.accessToken.split('.')[1]}.`;
    const bad = [
      none,
      await sign(claims, { aud: 'someone-else' }),
      await sign(claims, { typ: 'JWT' }),
      await sign(claims, { secret: 'another-secret-that-is-long-enough' }),
      await sign(claims, { exp: serverSeconds() - 60 }),
      await sign({ ...claims, role: 'admin' }, { secret: 'x'.repeat(40) }),
    ];
    for (const token of bad) {
      c.accessToken = token;
      const res = await c.get('/api/me');
      expectDomainError(res, 401, 'UNAUTHORIZED');
    }
  });

  it('expire after their lifetime (15 minutes, 5 s tolerance) and are renewed with the refresh token', async () => {
    const c = server.client();
    const reg = await c.register();
    expect((await c.get('/api/me')).status).toBe(200);
    clock.advance(15 * MINUTE + 4_000); // past its expiry, inside the tolerance for clock skew
    expect((await c.get('/api/me')).status).toBe(200);
    clock.advance(2_000);
    expectDomainError(await c.get('/api/me'), 401, 'UNAUTHORIZED');
    const renewed = await c.post('/api/auth/refreshToken', {
      accessToken: reg.accessToken,
      refreshToken: reg.refreshToken,
    });
    expect(renewed.status).toBe(200);
    c.useSession(renewed.body);
    expect((await c.get('/api/me')).status).toBe(200);
    const exp = JSON.parse(Buffer.from(renewed.body.accessToken.split('.')[1], 'base64url').toString()).exp;
    expect(exp).toBe(serverSeconds() + 15 * 60); // issued on the server's clock
  });

  it('requires a bearer token on protected routes', async () => {
    const res = await server.client().get('/api/me');
    expectDomainError(res, 401, 'UNAUTHORIZED');
  });
});

describe('logout', () => {
  it('revokes the session: the access and refresh tokens stop working', async () => {
    const c = server.client();
    const reg = await c.register();
    const res = await c.post('/api/auth/logout');
    expect(res.status).toBe(204);
    expect((await c.get('/api/me')).status).toBe(401);
    const refresh = await server
      .client()
      .post('/api/auth/refreshToken', { accessToken: reg.accessToken, refreshToken: reg.refreshToken });
    expect(refresh.status).toBe(401);
  });
});

describe('sessions across nodes', () => {
  it('a session ended on one node is refused by another when its NOTIFY arrives, long before its 5 s memory lapses', async () => {
    const nodeB = await startServer({}, { clock, databaseUrl: server.databaseUrl });
    try {
      await Promise.all([server.ctx.services.sessions.ready(), nodeB.ctx.services.sessions.ready()]);
      const onA = server.client();
      const reg = await onA.register();
      const onB = nodeB.client();
      onB.useSession(reg);
      expect((await onA.get('/api/me')).status).toBe(200); // node A now remembers the session
      expect((await onB.post('/api/auth/logout')).status).toBe(204);
      expect((await onB.get('/api/me')).status).toBe(401); // at once on the node that ended it
      // Node A still remembers the session (its clock has not moved) but heard of the logout.
      await until(async () => (await onA.get('/api/me')).status === 401, 1_000, 'node A refuses');
    } finally {
      await nodeB.close();
    }
  });
});

describe('forgot and reset password', () => {
  const readResetToken = (email: string) => {
    const outbox = path.join(server.dataDir, 'outbox');
    const file = readdirSync(outbox)
      .filter((f) => f.includes(email))
      .sort()
      .pop();
    if (!file) throw new Error('no email');
    const text = readFileSync(path.join(outbox, file), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    return /reset-password\?token=([A-Za-z0-9_%-]+)/.exec(text)![1]!;
  };

  it('emails a single-use link; reset changes the password and ends every session', async () => {
    const c = server.client();
    const reg = await c.register();
    const forgot = await server
      .client()
      .post('/api/auth/forgot-password', { email: reg.user.email.toUpperCase() });
    expect(forgot.status).toBe(202);
    await server.ctx.services.auth.whenIdle(); // the email is sent after the uniform reply
    const token = decodeURIComponent(readResetToken(reg.user.email));
    const reset = await server
      .client()
      .post('/api/auth/reset-password', { token, password: 'brand new pass 7' });
    expect(reset.status).toBe(204);
    expect((await c.get('/api/me')).status).toBe(401);
    const old = await server
      .client()
      .post('/api/auth/login', { username: reg.user.username, password: reg.password });
    expect(old.status).toBe(401);
    const fresh = await server
      .client()
      .post('/api/auth/login', { username: reg.user.username, password: 'brand new pass 7' });
    expect(fresh.status).toBe(200);
    const again = await server
      .client()
      .post('/api/auth/reset-password', { token, password: 'another new pass 8' });
    expectDomainError(again, 400, 'RESET_TOKEN_INVALID');
  });

  it('refuses an expired token and answers 202 for unknown emails without sending anything', async () => {
    const reg = await server.client().register();
    await server.client().post('/api/auth/forgot-password', { email: reg.user.email });
    await server.ctx.services.auth.whenIdle();
    const token = decodeURIComponent(readResetToken(reg.user.email));
    clock.advance(30 * MINUTE + 1_000); // the link is good for 30 minutes
    const res = await server
      .client()
      .post('/api/auth/reset-password', { token, password: 'brand new pass 7' });
    expectDomainError(res, 400, 'RESET_TOKEN_INVALID');
    const unknown = await server
      .client()
      .post('/api/auth/forgot-password', { email: 'nobody@nowhere.example' });
    expect(unknown.status).toBe(202);
    await server.ctx.services.auth.whenIdle();
    expect(readdirSync(path.join(server.dataDir, 'outbox')).some((f) => f.includes('nobody'))).toBe(false);
  });
});

describe('change password', () => {
  it('needs the current password and signs out the other sessions only', async () => {
    const c = server.client();
    const reg = await c.register();
    const other = server.client();
    other.useSession(
      (await other.post('/api/auth/login', { username: reg.user.username, password: reg.password })).body,
    );
    const wrong = await c.post('/api/me/password', {
      currentPassword: 'not it at all 1',
      newPassword: 'new password 22',
    });
    expectDomainError(wrong, 400, 'WRONG_PASSWORD');
    const weak = await c.post('/api/me/password', { currentPassword: reg.password, newPassword: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.errors.newPassword).toBeDefined();
    const ok = await c.post('/api/me/password', {
      currentPassword: reg.password,
      newPassword: 'new password 22',
    });
    expect(ok.status).toBe(204);
    expect((await c.get('/api/me')).status).toBe(200);
    expect((await other.get('/api/me')).status).toBe(401);
  });
});
