import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { createTestClock } from '../../platform/clock';

// Issue #14 findings 8-10 on the auth side: a weak-password policy (NIST SP 800-63B), a
// forgot-password reply that does not depend on the account existing, locks for unknown names,
// and a lock that ends the account's sessions.
const clock = createTestClock();
let server: TestServer;
beforeAll(async () => {
  server = await startServer({}, { clock });
});
afterAll(async () => {
  await server?.close();
});

let n = 0;
const fresh = () => {
  n += 1;
  const tag = `${process.pid}x${n}${Math.random().toString(36).slice(2, 6)}`;
  return {
    username: `harbor${tag}`,
    name: 'Policy Test',
    email: `lantern${tag}@example.com`,
    phone: '+14155550123',
  };
};

describe('password policy (finding 9)', () => {
  it('refuses common, repetitive and own-name passwords with a reason; accepts a plain long one', async () => {
    const c = server.client();
    const base = fresh();
    const weak: [string, RegExp][] = [
      ['password12', /too common/],
      ['qwertyuiop1', /too common/],
      ['Password123!', /too common/],
      ['aaaaaaaaa1', /repeats too few/],
      [`${' '.repeat(10)}a1`, /repeats too few/],
      [base.username, /username or email/],
      [`${base.username}!!`, /username or email/],
      [`my ${base.email.split('@')[0]}`, /username or email/],
    ];
    const results: string[] = [];
    for (const [password, reason] of weak) {
      const res = await c.post('/api/auth/register', { ...base, password });
      expect(res.status, password).toBe(400);
      expect(res.body.errors.password?.[0], password).toMatch(reason);
      results.push(res.body.errors.password[0]);
    }
    // No composition rule: lower-case words with spaces are fine.
    const ok = await c.post('/api/auth/register', { ...base, password: 'tulip orbit kettle' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  it('applies the same policy on change-password', async () => {
    const c = server.client();
    const reg = await c.register();
    const res = await c.post('/api/me/password', {
      currentPassword: reg.password,
      newPassword: 'iloveyou12',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.newPassword[0]).toMatch(/too common/);
    const own = await c.post('/api/me/password', {
      currentPassword: reg.password,
      newPassword: `${reg.user.username}2`,
    });
    expect(own.body.errors.newPassword[0]).toMatch(/username or email/);
  });
});

describe('forgot-password does not reveal accounts (finding 8)', () => {
  it('answers before any lookup or email: a stalled mailer does not delay the reply', async () => {
    const reg = await server.client().register();
    const mailer = server.ctx.mailer as { send: (...a: unknown[]) => Promise<unknown> };
    const send = mailer.send;
    let release!: () => void;
    const stalled = new Promise<void>((r) => (release = r));
    let sent = 0;
    mailer.send = async (...a: unknown[]) => {
      await stalled;
      sent += 1;
      return send.apply(mailer, a);
    };
    try {
      const known = await server.client().post('/api/auth/forgot-password', { email: reg.user.email });
      const unknown = await server
        .client()
        .post('/api/auth/forgot-password', { email: 'nobody-here@example.com' });
      expect(known.status).toBe(202);
      expect(unknown.status).toBe(202);
      expect(known.body).toEqual(unknown.body);
      expect(sent).toBe(0); // both replied while the known account's email was still waiting
    } finally {
      release();
      // The lookup may still be running: the stalled send must stay in place until it has sent.
      await server.ctx.services.auth.whenIdle();
      mailer.send = send;
    }
    expect(sent).toBe(1);
  });
});

describe('locks (findings 8 and 10)', () => {
  it('locks an unknown username exactly like a real one', async () => {
    const reg = await server.client().register();
    const statuses = async (username: string) => {
      const out: number[] = [];
      for (let i = 0; i < 6; i++) {
        out.push(
          (await server.client().post('/api/auth/login', { username, password: 'wrong wrong 1' })).status,
        );
      }
      return out;
    };
    const real = await statuses(reg.user.username);
    const ghost = await statuses(`ghost${Date.now()}`);
    expect(real).toEqual([401, 401, 401, 401, 423, 423]);
    expect(ghost).toEqual(real);
    clock.advance(16 * 60_000);
  });

  it('locking an account ends its sessions and refresh tokens', async () => {
    const c = server.client();
    const reg = await c.register();
    expect((await c.get('/api/me')).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      await server
        .client()
        .post('/api/auth/login', { username: reg.user.username, password: 'wrong wrong 1' });
    }
    expect((await c.get('/api/me')).status).toBe(401);
    const refresh = await server
      .client()
      .post('/api/auth/refreshToken', { accessToken: reg.accessToken, refreshToken: reg.refreshToken });
    expect(refresh.status).toBe(401);
    clock.advance(16 * 60_000);
  });
});
