import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { createTestClock } from '../../platform/clock';

// Finding 7 of issue #14: a refresh token reused within the grace window must give back the
// successor it was rotated to, not mint a second working token (the family would fork).
const clock = createTestClock();
let server: TestServer;
beforeAll(async () => {
  server = await startServer({}, { clock });
});
afterAll(async () => {
  await server?.close();
});

const liveTokens = async (sessionId: string) =>
  server.ctx.db
    .selectFrom('refresh_tokens')
    .select(['token_hash', 'used_at'])
    .where('session_id', '=', sessionId)
    .where('used_at', 'is', null)
    .execute();

const sessionOf = async (userId: string) =>
  (
    await server.ctx.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
  ).id;

describe('idempotent refresh-token rotation (finding 7)', () => {
  it('a reuse within the grace window returns the same successor; the family has one live token', async () => {
    const c = server.client();
    const reg = await c.register();
    const body = { accessToken: reg.accessToken, refreshToken: reg.refreshToken };
    const first = await c.post('/api/auth/refreshToken', body);
    expect(first.status).toBe(200);
    clock.advance(1_000);
    const again = await c.post('/api/auth/refreshToken', body);
    expect(again.status).toBe(200);
    expect(again.body.refreshToken).toBe(first.body.refreshToken);
    expect(await liveTokens(await sessionOf(reg.user.id))).toHaveLength(1);
    // The successor rotates normally, once.
    const next = await c.post('/api/auth/refreshToken', first.body);
    expect(next.status).toBe(200);
    expect(next.body.refreshToken).not.toBe(first.body.refreshToken);
    expect(await liveTokens(await sessionOf(reg.user.id))).toHaveLength(1);
  });

  it('two concurrent refreshes with one token get the same successor', async () => {
    const c = server.client();
    const reg = await c.register();
    const body = { accessToken: reg.accessToken, refreshToken: reg.refreshToken };
    const [a, b] = await Promise.all([
      c.post('/api/auth/refreshToken', body),
      c.post('/api/auth/refreshToken', body),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.refreshToken).toBe(b.body.refreshToken);
    expect(await liveTokens(await sessionOf(reg.user.id))).toHaveLength(1);
  });

  it('after the grace window a reuse still revokes the family, successor included', async () => {
    const c = server.client();
    const reg = await c.register();
    const body = { accessToken: reg.accessToken, refreshToken: reg.refreshToken };
    const first = await c.post('/api/auth/refreshToken', body);
    clock.advance(31_000);
    expect((await c.post('/api/auth/refreshToken', body)).body.code).toBe('TOKEN_REUSED');
    expect((await c.post('/api/auth/refreshToken', first.body)).status).toBe(401);
  });
});
