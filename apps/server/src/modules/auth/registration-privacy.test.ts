import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { createTestClock } from '../../platform/clock';

// Issue #14 finding 8: registration must not reveal whether a username or email exists. With
// REGISTRATION_CONFIRM (on by default when SMTP is configured) every registration gets the same
// 202; the address owner learns the rest by email.
const clock = createTestClock();
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ REGISTRATION_CONFIRM: 'true' }, { clock });
});
afterAll(async () => {
  await server?.close();
});

function mailsTo(email: string): string[] {
  const outbox = path.join(server.dataDir, 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(outbox);
  } catch {
    return [];
  }
  return files
    .filter((f) => f.includes(email.replace(/[^a-zA-Z0-9@._-]/g, '_')))
    .sort()
    .map((f) =>
      readFileSync(path.join(outbox, f), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '='),
    );
}

let n = 0;
const person = () => {
  n += 1;
  const tag = `${process.pid}r${n}${Math.random().toString(36).slice(2, 6)}`;
  return {
    username: `reg${tag}`,
    name: 'Reg Test',
    email: `reg${tag}@example.com`,
    phone: '+14155550123',
    password: 'tulip orbit kettle',
  };
};

describe('registration without enumeration (finding 8)', () => {
  it('answers a new, a taken username and a taken email alike; the owner is told by email', async () => {
    // An account that exists already (created directly through the service).
    const existing = await server.ctx.services.auth.register(person(), { ip: null, userAgent: null });
    const fresh = person();
    const sameUsername = { ...person(), username: existing.user.username.toUpperCase() };
    const sameEmail = { ...person(), email: existing.user.email };
    const replies = [];
    for (const body of [fresh, sameUsername, sameEmail]) {
      const res = await server.client().post('/api/auth/register', body);
      replies.push({ status: res.status, body: String(res.body.message).replace(body.email, '<email>') });
    }
    expect(replies[0]).toEqual({ status: 202, body: expect.stringContaining('<email>') });
    expect(replies[1]).toEqual(replies[0]);
    expect(replies[2]).toEqual(replies[0]);
    await server.ctx.services.auth.whenIdle();

    expect(mailsTo(sameUsername.email).join()).toMatch(/is already taken, so no account was created/);
    expect(mailsTo(existing.user.email).join()).toMatch(/which already has one/);
    const users = await server.ctx.db.selectFrom('users').select('email').execute();
    expect(users.map((u) => u.email)).not.toContain(sameUsername.email);

    // The new person's link creates the account and signs in, once.
    const mail = mailsTo(fresh.email).join();
    const token = decodeURIComponent(/confirm-registration\?token=([A-Za-z0-9_%-]+)/.exec(mail)![1]!);
    const c = server.client();
    const confirmed = await c.post('/api/auth/register/confirm', { token });
    expect(confirmed.status).toBe(201);
    expect(confirmed.body.user).toMatchObject({ username: fresh.username, email: fresh.email });
    c.useSession(confirmed.body);
    expect((await c.get('/api/balance')).body.balanceMinor).toBe(500);
    expect((await server.client().post('/api/auth/register/confirm', { token })).status).toBe(409);
    const login = await server
      .client()
      .post('/api/auth/login', { username: fresh.username, password: fresh.password });
    expect(login.status).toBe(200);
  });

  it('refuses a forged, altered or expired link', async () => {
    const p = person();
    await server.client().post('/api/auth/register', p);
    await server.ctx.services.auth.whenIdle();
    const token = decodeURIComponent(
      /confirm-registration\?token=([A-Za-z0-9_%-]+)/.exec(mailsTo(p.email).join())![1]!,
    );
    // Change the second-to-last character (to a different one: it may already be 'A').
    const flip = token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.slice(-1);
    for (const bad of ['x', flip, Buffer.alloc(64).toString('base64url')]) {
      const res = await server.client().post('/api/auth/register/confirm', { token: bad });
      expect(res.status).toBe(400);
    }
    clock.advance(24 * 60 * 60_000 + 1_000);
    expect((await server.client().post('/api/auth/register/confirm', { token })).status).toBe(400);
  });
});
