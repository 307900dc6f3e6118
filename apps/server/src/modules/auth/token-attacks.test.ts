import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, TEST_JWT_SECRET, type TestServer } from '../../../test/harness';
import { createTestClock } from '../../platform/clock';
import { AUDIENCE, ISSUER } from './tokens';

/**
 * Issue #14: the token-attack family, table-driven with a summary line. Each case builds a token
 * or a sequence an attacker would try; every one must end in a refusal.
 */
const clock = createTestClock();
let server: TestServer;
beforeAll(async () => {
  server = await startServer({}, { clock });
});
afterAll(async () => {
  await server?.close();
});

const now = () => Math.floor(clock.now().getTime() / 1000);
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

interface Victim {
  c: ApiClient;
  access: string;
  refresh: string;
  claims: Record<string, unknown>;
  username: string;
  password: string;
}

async function victim(): Promise<Victim> {
  const c = server.client();
  const reg = await c.register();
  const payload = JSON.parse(Buffer.from(reg.accessToken.split('.')[1]!, 'base64url').toString());
  return {
    c,
    access: reg.accessToken,
    refresh: reg.refreshToken,
    claims: { sub: payload.sub, aid: payload.aid, sid: payload.sid, role: payload.role },
    username: reg.user.username,
    password: reg.password,
  };
}

const hs256 = (
  claims: Record<string, unknown>,
  secret: string | Uint8Array,
  header: Record<string, unknown> = {},
) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', ...header } as { alg: string })
    .setSubject(String(claims.sub))
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now())
    .setExpirationTime(now() + 600)
    .sign(typeof secret === 'string' ? new TextEncoder().encode(secret) : secret);

const meStatus = async (token: string) => {
  const c = server.client();
  c.accessToken = token;
  return (await c.get('/api/me')).status;
};
const refreshStatus = async (access: string, refresh: string) =>
  (await server.client().post('/api/auth/refreshToken', { accessToken: access, refreshToken: refresh }))
    .status;

const WEAK_KEYS = [
  '',
  'secret',
  'password',
  'wren',
  'changeme',
  'jwt-secret',
  '0123456789abcdef',
  'wren-web',
];

/** Each case returns the status of the attacker's last step: it must be a 401. */
const CASES: Record<string, (v: Victim) => Promise<number>> = {
  'alg=none': async (v) => meStatus(`${b64({ alg: 'none', typ: 'at+jwt' })}.${v.access.split('.')[1]}.`),
  'alg=None, signature kept': async (v) =>
    meStatus(`${b64({ alg: 'None', typ: 'at+jwt' })}.${v.access.split('.')[1]}.${v.access.split('.')[2]}`),
  ...Object.fromEntries(
    WEAK_KEYS.map((key) => [
      `HS256 with weak key "${key}"`,
      async (v: Victim) => meStatus(await hs256({ ...v.claims, role: 'admin' }, key || new Uint8Array(32))),
    ]),
  ),
  'tampered payload (role admin), signature kept': async (v) => {
    const [h, p, s] = v.access.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    return meStatus(`${h}.${b64({ ...claims, role: 'admin' })}.${s}`);
  },
  'tampered payload (another account), signature kept': async (v) => {
    const [h, p, s] = v.access.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    return meStatus(`${h}.${b64({ ...claims, aid: '00000000-0000-0000-0000-000000000000' })}.${s}`);
  },
  'RS256 public-key confusion': async (v) => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const token = await new SignJWT(v.claims)
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt' })
      .setSubject(String(v.claims.sub))
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(now())
      .setExpirationTime(now() + 600)
      .sign(privateKey);
    return meStatus(token);
  },
  'HS512 with the real key': async (v) =>
    meStatus(
      await new SignJWT(v.claims)
        .setProtectedHeader({ alg: 'HS512', typ: 'at+jwt' })
        .setSubject(String(v.claims.sub))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now())
        .setExpirationTime(now() + 600)
        .sign(new TextEncoder().encode(TEST_JWT_SECRET)),
    ),
  'expired access token': async (v) => {
    clock.advance(15 * 60_000 + 6_000);
    return meStatus(v.access);
  },
  'refresh reuse outside the grace window': async (v) => {
    expect(await refreshStatus(v.access, v.refresh)).toBe(200);
    clock.advance(31_000);
    return refreshStatus(v.access, v.refresh);
  },
  'refresh reuse inside the grace window gives no second token': async (v) => {
    const a = await server
      .client()
      .post('/api/auth/refreshToken', { accessToken: v.access, refreshToken: v.refresh });
    const b = await server
      .client()
      .post('/api/auth/refreshToken', { accessToken: v.access, refreshToken: v.refresh });
    expect(b.body.refreshToken).toBe(a.body.refreshToken);
    // Rotating the successor leaves no other live token: the replayed copy is the same one, now used.
    expect(await refreshStatus(a.body.accessToken, a.body.refreshToken)).toBe(200);
    clock.advance(31_000);
    return refreshStatus(b.body.accessToken, b.body.refreshToken);
  },
  'refresh token with another session': async (v) => {
    const other = await victim();
    return refreshStatus(other.access, v.refresh);
  },
  'access token after logout': async (v) => {
    expect((await v.c.post('/api/auth/logout')).status).toBe(204);
    return meStatus(v.access);
  },
  'refresh token after logout': async (v) => {
    expect((await v.c.post('/api/auth/logout')).status).toBe(204);
    return refreshStatus(v.access, v.refresh);
  },
  'other session after a password change': async (v) => {
    const other = server.client();
    const login = await other.post('/api/auth/login', { username: v.username, password: v.password });
    expect(
      (
        await v.c.post('/api/me/password', {
          currentPassword: v.password,
          newPassword: 'tulip orbit kettle 2',
        })
      ).status,
    ).toBe(204);
    return refreshStatus(login.body.accessToken, login.body.refreshToken);
  },
  'session after the account locks': async (v) => {
    for (let i = 0; i < 5; i++) {
      await server.client().post('/api/auth/login', { username: v.username, password: 'wrong wrong 1' });
    }
    const access = await meStatus(v.access);
    clock.advance(16 * 60_000);
    return access === 401 ? refreshStatus(v.access, v.refresh) : access;
  },
};

describe('token attacks', () => {
  it('every attack ends in a 401', async () => {
    const failures: string[] = [];
    for (const [name, attack] of Object.entries(CASES)) {
      const status = await attack(await victim());
      if (status !== 401) failures.push(`${name}: ${status}`);
    }
    console.log(`token attacks: ${Object.keys(CASES).length} cases tried, ${failures.length} failures`);
    expect(failures).toEqual([]);
  });
});
