import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { REGISTRATION_CLASH_MESSAGE } from './auth.service';

// Issue #14 finding 8 without email (REGISTRATION_CONFIRM off, the default when SMTP_URL is unset):
// registration still signs a new person in at once, but a clash no longer says which of the
// username or the email is taken, so it never confirms that an address has an account.
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ REGISTRATION_CONFIRM: 'false' });
});
afterAll(async () => {
  await server?.close();
});

let n = 0;
const person = () => {
  n += 1;
  const tag = `${process.pid}m${n}${Math.random().toString(36).slice(2, 6)}`;
  return {
    username: `nomail${tag}`,
    name: 'No Mail',
    email: `nomail${tag}@example.com`,
    phone: '+14155550123',
    password: 'tulip orbit kettle',
  };
};

const userCount = async () =>
  Number(
    (
      await server.ctx.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('registration without a mailer (finding 8)', () => {
  it('answers a taken username, a taken email and both alike, and stores nothing', async () => {
    const existing = await server.client().register();
    const sameUsername = { ...person(), username: existing.user.username.toUpperCase() };
    const sameEmail = { ...person(), email: existing.user.email.toUpperCase() };
    const both = { ...person(), username: existing.user.username, email: existing.user.email };
    const before = await userCount();
    const replies = [];
    for (const body of [sameUsername, sameEmail, both]) {
      const res = await server.client().post('/api/auth/register', body);
      replies.push({ status: res.status, body: res.body as unknown });
    }
    expect(replies[0]).toEqual({
      status: 400,
      body: { errors: { username: [REGISTRATION_CLASH_MESSAGE], email: [REGISTRATION_CLASH_MESSAGE] } },
    });
    expect(replies[1]).toEqual(replies[0]);
    expect(replies[2]).toEqual(replies[0]);
    // Nothing in the reply names the field, the address or the account.
    const text = JSON.stringify(replies[0]);
    expect(text).not.toMatch(/already taken|already exists|email already/i);
    expect(text).not.toContain(existing.user.email);
    expect(await userCount()).toBe(before);
  });

  it('still signs a new person in at once (no email to wait for)', async () => {
    const p = person();
    const res = await server.client().post('/api/auth/register', p);
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ username: p.username, email: p.email });
    expect(typeof res.body.accessToken).toBe('string');
  });

  it('checks the password policy before the lookup: a weak password on a taken name says only that', async () => {
    const existing = await server.client().register();
    const res = await server.client().post('/api/auth/register', {
      ...person(),
      email: existing.user.email,
      password: 'password12',
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['password']);
  });
});
