import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import pino from 'pino';
import { ApiClient } from '../../../test/client';
import { createTestClock, type TestClock } from '../../platform/clock';
import { startAppWith } from '../../../test/test-app';

/**
 * Issue #12 through the real HTTP server, PostgreSQL and the built-in SMSC simulator: the verify
 * flow, every security rule of the issue and the bad inputs (4xx, no SMS).
 */
let server: TestServer;
let clock: TestClock;
let c: ApiClient;
let other: ApiClient;
let accountId: string;

beforeAll(async () => {
  clock = createTestClock();
  server = await startServer({}, { worker: true, clock });
  c = server.client();
  other = server.client();
  accountId = (await c.register()).user.accountId;
  await other.register();
});
afterAll(async () => {
  await server?.close();
});

let serial = 0;
async function createService(overrides: Record<string, unknown> = {}) {
  serial += 1;
  const res = await c.post('/api/otp-services', {
    name: `Acme ${serial}`,
    template: 'Your {{service}} code is {{code}}. Valid {{minutes}} min.',
    ...overrides,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; maxAttempts: number; codeLength: number };
}

/** The SMS of a send as stored for the dispatcher (what the simulator receives). */
async function smsOf(messageId: string) {
  return server.ctx.db
    .selectFrom('messages')
    .select(['body', 'priority', 'status', 'price_minor', 'recipient'])
    .where('id', '=', messageId)
    .executeTakeFirstOrThrow();
}
const codeIn = (body: string) => /code is ([0-9A-Z]+)\./.exec(body)?.[1] ?? '';

async function messageCount() {
  const r = await server.ctx.db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Numbers of a fresh velocity range (+1 415 2NN 5xxx), so tests do not share ranges. */
let rangeSeq = 0;
const freshRange = () => {
  rangeSeq += 1;
  const exchange = 200 + rangeSeq;
  return (i: number) => `+1415${exchange}5${String(i).padStart(3, '0')}`;
};

describe('OTP services', () => {
  it('creates, lists, updates and deletes a service; the template must contain {{code}}', async () => {
    const bad = await c.post('/api/otp-services', { name: 'No code', template: 'Hello {{service}}' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('{{code}}');
    const unknown = await c.post('/api/otp-services', { name: 'X', template: '{{code}} {{foo}}' });
    expect(unknown.status).toBe(400);
    const length = await c.post('/api/otp-services', { name: 'X', template: '{{code}}', codeLength: 11 });
    expect(length.status).toBe(400);
    const ttl = await c.post('/api/otp-services', { name: 'X', template: '{{code}}', ttlMinutes: 61 });
    expect(ttl.status).toBe(400);

    const svc = await createService();
    expect(svc).toMatchObject({ codeLength: 6, codeType: 'numeric', ttlMinutes: 10, maxAttempts: 5 });
    expect(svc).toMatchObject({ sendLimit: 5, sendWindowMinutes: 10, resendCooldownSeconds: 30 });
    const list = await c.get('/api/otp-services');
    expect(list.body.items.map((s: { id: string }) => s.id)).toContain(svc.id);
    const patched = await c.patch(`/api/otp-services/${svc.id}`, { name: 'Renamed', codeLength: 8 });
    expect(patched.body).toMatchObject({ name: 'Renamed', codeLength: 8 });
    const noCode = await c.patch(`/api/otp-services/${svc.id}`, { template: 'just text' });
    expect(noCode.status).toBe(400);
    expect((await c.delete(`/api/otp-services/${svc.id}`)).status).toBe(204);
    expect((await c.get(`/api/otp-services/${svc.id}`)).status).toBe(404);
  });

  it('sends a code on the OTP lane through the simulator, approves it once, and refuses a replay', async () => {
    const svc = await createService();
    const balanceBefore = (await c.get('/api/balance')).body.balanceMinor;
    const send = await c.post(`/v1/otp/${svc.id}/send`, { to: '+14155550142' });
    expect(send.status, JSON.stringify(send.body)).toBe(201);
    expect(send.body).toMatchObject({ to: '+14155550142', status: 'pending' });
    expect(Date.parse(send.body.expiresAt) - clock.now().getTime()).toBe(10 * 60_000);
    expect(Date.parse(send.body.resendAfter) - clock.now().getTime()).toBe(30_000);

    // Priced and debited like a single send; queued with the highest priority.
    const sms = await smsOf(send.body.messageId);
    expect(sms.priority).toBe(0);
    expect(sms.price_minor).toBe(1);
    expect((await c.get('/api/balance')).body.balanceMinor).toBe(balanceBefore - 1);
    const code = codeIn(sms.body);
    expect(code).toMatch(/^\d{6}$/);
    // The code is not stored: only its HMAC (32 bytes) is.
    const row = await server.ctx.db
      .selectFrom('otp_verifications')
      .selectAll()
      .where('id', '=', send.body.id)
      .executeTakeFirstOrThrow();
    expect(row.code_hash?.length).toBe(32);
    expect(row.code_hash?.toString('hex')).not.toContain(Buffer.from(code).toString('hex'));

    // The simulator receives it.
    const deadline = Date.now() + 15_000;
    let status = sms.status;
    while (!['sent', 'delivered', 'undelivered', 'expired', 'rejected'].includes(status)) {
      if (Date.now() > deadline) throw new Error(`not submitted: ${status}`);
      await new Promise((r) => setTimeout(r, 50));
      status = (await smsOf(send.body.messageId)).status;
    }

    const wrong = await c.post(`/v1/otp/${svc.id}/check`, {
      to: '+14155550142',
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.body).toMatchObject({ status: 'pending', attemptsLeft: 4 });
    const ok = await c.post(`/v1/otp/${svc.id}/check`, { to: '(415) 555-0142', code });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: send.body.id, status: 'approved' });
    const replay = await c.post(`/v1/otp/${svc.id}/check`, { id: send.body.id, code });
    expect(replay.status).toBe(409);
    expect(replay.body.message).toMatch(/already used/);
    const replayByNumber = await c.post(`/v1/otp/${svc.id}/check`, { to: '+14155550142', code });
    expect(replayByNumber.status).toBe(409);

    // The view's table: masked number, status, attempts; the SMS status joined in.
    const page = await c.get(`/api/otp-services/${svc.id}/verifications`);
    expect(page.body.items[0]).toMatchObject({ id: send.body.id, status: 'approved', attempts: 2 });
    expect(page.body.items[0].to).toBe('+1415•••••42');
    expect(JSON.stringify(page.body)).not.toContain('5550142');
    const one = await c.get(`/api/otp-services/${svc.id}`);
    expect(one.body.stats).toMatchObject({ sends24h: 1, approved24h: 1, verificationRate24h: 1 });
    const stats = await c.get(`/api/otp-services/${svc.id}/stats?timezone=Europe/Berlin&days=7`);
    expect(stats.body.days).toHaveLength(7);
    expect(stats.body.days.at(-1)).toMatchObject({ sends: 1, approved: 1, conversion: 1 });
  });

  it('brute force: of 50 parallel wrong guesses only max-attempts are evaluated', async () => {
    const svc = await createService({ maxAttempts: 5 });
    const send = await c.post(`/v1/otp/${svc.id}/send`, { to: '+14155550143' });
    const code = codeIn((await smsOf(send.body.messageId)).body);
    const guesses = Array.from({ length: 50 }, (_, i) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'),
    );
    const results = await Promise.all(
      guesses.map((g) => c.post(`/v1/otp/${svc.id}/check`, { id: send.body.id, code: g })),
    );
    const statuses = results.map((r) => r.body.status);
    const evaluated = statuses.filter((s) => s === 'pending').length;
    const refused = statuses.filter((s) => s === 'max_attempts_reached').length;
    // Four wrong guesses leave attempts; the fifth uses the last one; the other 45 are refused.
    expect(evaluated).toBe(4);
    expect(refused).toBe(46);
    expect(statuses.filter((s) => s === 'approved')).toEqual([]);
    const row = await server.ctx.db
      .selectFrom('otp_verifications')
      .select(['attempts', 'status'])
      .where('id', '=', send.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ attempts: 5, status: 'max_attempts_reached' });
    // Even the right code is refused now.
    const right = await c.post(`/v1/otp/${svc.id}/check`, { id: send.body.id, code });
    expect(right.body.status).toBe('max_attempts_reached');
  });

  it('a check by number decides in the statement that takes the attempt; codes sent before 0017 still check', async () => {
    const svc = await createService({ maxAttempts: 3, resendCooldownSeconds: 0 });
    const to = '+14155550151';
    const send = await c.post(`/v1/otp/${svc.id}/send`, { to });
    const code = codeIn((await smsOf(send.body.messageId)).body);
    const wrongCode = (k: number) => String((Number(code) + k) % 1_000_000).padStart(6, '0');
    const row = () =>
      server.ctx.db
        .selectFrom('otp_verifications')
        .select(['attempts', 'status', 'approved_at', 'code_hash', 'recipient_code_hash'])
        .where('id', '=', send.body.id)
        .executeTakeFirstOrThrow();
    // Two keyed hashes, neither of them the code: by id, and by service and number.
    const stored = await row();
    expect(stored.recipient_code_hash?.length).toBe(32);
    expect(stored.recipient_code_hash?.equals(stored.code_hash!)).toBe(false);

    // Two wrong codes, then the right one on the last attempt: approved (a right code wins the last try).
    expect((await c.post(`/v1/otp/${svc.id}/check`, { to, code: wrongCode(1) })).body).toMatchObject({
      status: 'pending',
      attemptsLeft: 2,
    });
    expect((await c.post(`/v1/otp/${svc.id}/check`, { to, code: wrongCode(2) })).body).toMatchObject({
      status: 'pending',
      attemptsLeft: 1,
    });
    const ok = await c.post(`/v1/otp/${svc.id}/check`, { to, code });
    expect(ok.body).toMatchObject({ id: send.body.id, status: 'approved' });
    const approved = await row();
    expect(approved).toMatchObject({ attempts: 3, status: 'approved' });
    expect(approved.approved_at).not.toBeNull();

    // The last wrong code ends the verification in the same statement.
    clock.advance(1000);
    const second = await c.post(`/v1/otp/${svc.id}/send`, { to });
    const code2 = codeIn((await smsOf(second.body.messageId)).body);
    const wrong2 = (k: number) => String((Number(code2) + k) % 1_000_000).padStart(6, '0');
    const parallel = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((k) => c.post(`/v1/otp/${svc.id}/check`, { to, code: wrong2(k) })),
    );
    expect(parallel.filter((r) => r.body.status === 'pending')).toHaveLength(2);
    expect(parallel.filter((r) => r.body.status === 'max_attempts_reached')).toHaveLength(4);
    const ended = await server.ctx.db
      .selectFrom('otp_verifications')
      .select(['attempts', 'status'])
      .where('id', '=', second.body.id)
      .executeTakeFirstOrThrow();
    expect(ended).toEqual({ attempts: 3, status: 'max_attempts_reached' });
    expect((await c.post(`/v1/otp/${svc.id}/check`, { to, code: code2 })).body.status).toBe(
      'max_attempts_reached',
    );

    // A code sent before 0017 has no number-bound hash: checked by number, it is compared in Wren.
    clock.advance(1000);
    const legacy = await c.post(`/v1/otp/${svc.id}/send`, { to });
    const code3 = codeIn((await smsOf(legacy.body.messageId)).body);
    await server.ctx.db
      .updateTable('otp_verifications')
      .set({ recipient_code_hash: null })
      .where('id', '=', legacy.body.id)
      .execute();
    const wrong3 = String((Number(code3) + 1) % 1_000_000).padStart(6, '0');
    expect((await c.post(`/v1/otp/${svc.id}/check`, { to, code: wrong3 })).body).toMatchObject({
      status: 'pending',
      attemptsLeft: 2,
    });
    expect((await c.post(`/v1/otp/${svc.id}/check`, { to, code: code3 })).body).toMatchObject({
      id: legacy.body.id,
      status: 'approved',
    });
  });

  it('an expired code is refused as expired', async () => {
    const svc = await createService({ ttlMinutes: 2 });
    const send = await c.post(`/v1/otp/${svc.id}/send`, { to: '+14155550144' });
    const code = codeIn((await smsOf(send.body.messageId)).body);
    clock.advance(2 * 60_000 + 1);
    const res = await c.post(`/v1/otp/${svc.id}/check`, { to: '+14155550144', code });
    expect(res.body).toMatchObject({ status: 'expired' });
    const again = await c.post(`/v1/otp/${svc.id}/check`, { to: '+14155550144', code });
    expect(again.body.status).toBe('expired');
  });

  it('a new send invalidates the previous code', async () => {
    const svc = await createService({ resendCooldownSeconds: 0 });
    const first = await c.post(`/v1/otp/${svc.id}/send`, { to: '+14155550145' });
    const oldCode = codeIn((await smsOf(first.body.messageId)).body);
    clock.advance(1000);
    const second = await c.post(`/v1/otp/${svc.id}/send`, { to: '+14155550145' });
    const newCode = codeIn((await smsOf(second.body.messageId)).body);
    const old = await c.post(`/v1/otp/${svc.id}/check`, { id: first.body.id, code: oldCode });
    expect(old.body.status).toBe('expired');
    const ok = await c.post(`/v1/otp/${svc.id}/check`, { to: '+14155550145', code: newCode });
    expect(ok.body.status).toBe('approved');
  });

  it('enforces the resend cooldown and the send limit per number, without sending', async () => {
    const svc = await createService({ sendLimit: 3, sendWindowMinutes: 10, resendCooldownSeconds: 30 });
    const to = '+14155550146';
    expect((await c.post(`/v1/otp/${svc.id}/send`, { to })).status).toBe(201);
    const before = await messageCount();
    const cooldown = await c.post(`/v1/otp/${svc.id}/send`, { to });
    expect(cooldown.status).toBe(429);
    expect(cooldown.body.message).toMatch(/Wait \d+ seconds/);
    expect(Number(cooldown.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await messageCount()).toBe(before);
    clock.advance(31_000);
    expect((await c.post(`/v1/otp/${svc.id}/send`, { to })).status).toBe(201);
    clock.advance(31_000);
    expect((await c.post(`/v1/otp/${svc.id}/send`, { to })).status).toBe(201);
    clock.advance(31_000);
    const limited = await c.post(`/v1/otp/${svc.id}/send`, { to });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/3 codes in the last 10 minutes/);
    expect(await messageCount()).toBe(before + 2);
    // Recorded as a blocked attempt with its reason.
    const page = await c.get(`/api/otp-services/${svc.id}/verifications`);
    expect(page.body.items[0]).toMatchObject({ status: 'blocked', messageId: null });
    expect(page.body.items[0].blockedReason).toMatch(/Send limit/);
    expect((await c.get(`/api/otp-services/${svc.id}`)).body.stats).toMatchObject({
      sends24h: 3,
      blocked24h: 1,
    });
    // Parallel sends cannot beat the cooldown (the earlier sends have left the window): one goes out.
    clock.advance(10 * 60_000);
    const burst = await Promise.all(
      Array.from({ length: 10 }, () => c.post(`/v1/otp/${svc.id}/send`, { to })),
    );
    expect(burst.filter((r) => r.status === 201)).toHaveLength(1);
  });

  it('refuses a destination outside the country allowlist, without sending', async () => {
    const svc = await createService({ allowedCountries: ['GB'] });
    const before = await messageCount();
    const us = await c.post(`/v1/otp/${svc.id}/send`, { to: '+14155550147' });
    expect(us.status).toBe(422);
    expect(us.body.message).toMatch(/does not send to United States \(US\)/);
    expect(await messageCount()).toBe(before);
    const gb = await c.post(`/v1/otp/${svc.id}/send`, { to: '+442071838750' });
    expect(gb.status, JSON.stringify(gb.body)).toBe(201);
  });

  it('refuses country codes that are no country, and fields a send or check does not have', async () => {
    const bad = await c.post('/api/otp-services', {
      name: 'Bad countries',
      template: 'Your {{service}} code is {{code}}.',
      allowedCountries: ['GB', 'XX', 'UK'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.allowedCountries[0]).toMatch(
      /Not a country code: XX, UK \(the United Kingdom is GB\)/,
    );
    const svc = await createService({ allowedCountries: ['GB'] });
    const edit = await c.request('PATCH', `/api/otp-services/${svc.id}`, { allowedCountries: ['ZZ'] });
    expect(edit.status).toBe(400);
    const before = await messageCount();
    const extra = await c.post(`/v1/otp/${svc.id}/send`, { to: '+442071838751', channel: 'sms' });
    expect(extra.status).toBe(400);
    expect(JSON.stringify(extra.body)).toMatch(/channel/);
    const check = await c.post(`/v1/otp/${svc.id}/check`, {
      to: '+442071838751',
      code: '123456',
      remember: true,
    });
    expect(check.status).toBe(400);
    expect(JSON.stringify(check.body)).toMatch(/remember/);
    expect(await messageCount()).toBe(before);
  });

  it('velocity guard: sequential numbers in one prefix block that range and record why', async () => {
    const svc = await createService({
      velocityMaxSends: 5,
      velocityWindowMinutes: 10,
      velocityRangeDigits: 3,
    });
    const n = freshRange();
    const results: number[] = [];
    for (let i = 0; i < 8; i++) results.push((await c.post(`/v1/otp/${svc.id}/send`, { to: n(i) })).status);
    expect(results).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    const page = await c.get(`/api/otp-services/${svc.id}/verifications`);
    expect(page.body.blockedRanges).toHaveLength(1);
    expect(page.body.blockedRanges[0].range).toMatch(/^\+14152\d{3}xxx$/);
    expect(page.body.blockedRanges[0].reason).toMatch(/SMS pumping guard: more than 5 sends/);
    const blocked = page.body.items.filter((v: { status: string }) => v.status === 'blocked');
    expect(blocked).toHaveLength(3);
    // Another range of the same service still works; the same range elsewhere is not this service's.
    expect((await c.post(`/v1/otp/${svc.id}/send`, { to: freshRange()(0) })).status).toBe(201);
    const svc2 = await createService();
    expect((await c.post(`/v1/otp/${svc2.id}/send`, { to: n(9) })).status).toBe(201);
  });

  it('bad input gets a clear 4xx and sends nothing', async () => {
    const svc = await createService();
    const before = await messageCount();
    const invalid = await c.post(`/v1/otp/${svc.id}/send`, { to: '12' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.to[0]).toMatch(/Not a valid phone number/);
    const missing = await c.post(`/v1/otp/${svc.id}/send`, {});
    expect(missing.status).toBe(400);
    const nul = await c.post(`/v1/otp/${svc.id}/send`, { to: '+1415555\u00000148' });
    expect(nul.status).toBe(400);
    const unknown = await c.post(`/v1/otp/${randomUUID()}/send`, { to: '+14155550148' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('OTP service not found');
    const malformed = await c.post(`/v1/otp/not-a-uuid/send`, { to: '+14155550148' });
    expect(malformed.status).toBe(400);
    const gone = await createService();
    await c.delete(`/api/otp-services/${gone.id}`);
    expect((await c.post(`/v1/otp/${gone.id}/send`, { to: '+14155550148' })).status).toBe(404);
    expect((await c.post(`/v1/otp/${gone.id}/check`, { to: '+14155550148', code: '123456' })).status).toBe(
      404,
    );
    expect(await messageCount()).toBe(before);

    await c.post(`/v1/otp/${svc.id}/send`, { to: '+14155550149' });
    const letters = await c.post(`/v1/otp/${svc.id}/check`, { to: '+14155550149', code: '12a456' });
    expect(letters.status).toBe(400);
    expect(letters.body.errors.code[0]).toBe('The code has digits only');
    const neither = await c.post(`/v1/otp/${svc.id}/check`, { code: '123456' });
    expect(neither.status).toBe(400);
    const noCodeSent = await c.post(`/v1/otp/${svc.id}/check`, { to: '+14155550150', code: '123456' });
    expect(noCodeSent.status).toBe(404);
    // A rejected check format does not use an attempt.
    const row = await server.ctx.db
      .selectFrom('otp_verifications')
      .select('attempts')
      .where('recipient', '=', '+14155550149')
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(0);
  });

  it('alphanumeric codes use the look-alike-free alphabet and are checked case-insensitively', async () => {
    const svc = await createService({ codeType: 'alphanumeric', codeLength: 8 });
    const send = await c.post(`/v1/otp/${svc.id}/send`, { to: '+14155550151' });
    const code = codeIn((await smsOf(send.body.messageId)).body);
    expect(code).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/);
    const ok = await c.post(`/v1/otp/${svc.id}/check`, { id: send.body.id, code: code.toLowerCase() });
    expect(ok.body.status).toBe('approved');
  });

  it("another account's service id gets 404 everywhere and changes nothing", async () => {
    const svc = await createService();
    const send = await c.post(`/v1/otp/${svc.id}/send`, { to: '+14155550152' });
    const code = codeIn((await smsOf(send.body.messageId)).body);
    const attempts = [
      await other.post(`/v1/otp/${svc.id}/send`, { to: '+14155550153' }),
      await other.post(`/v1/otp/${svc.id}/check`, { id: send.body.id, code }),
      await other.post(`/v1/otp/${svc.id}/check`, { to: '+14155550152', code }),
      await other.get(`/api/otp-services/${svc.id}`),
      await other.patch(`/api/otp-services/${svc.id}`, { name: 'stolen' }),
      await other.get(`/api/otp-services/${svc.id}/stats`),
      await other.get(`/api/otp-services/${svc.id}/verifications`),
      await other.delete(`/api/otp-services/${svc.id}`),
    ];
    expect(attempts.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404, 404, 404]);
    expect((await other.get('/api/otp-services')).body.items).toEqual([]);
    // The owner's code still works, untouched.
    const ok = await c.post(`/v1/otp/${svc.id}/check`, { id: send.body.id, code });
    expect(ok.body.status).toBe('approved');
  });

  it('logs numbers masked, never in full', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
    const app = await startAppWith(server, () => undefined, { logger });
    try {
      const api = new ApiClient(app.url);
      await api.register();
      const svc = (
        await api.post('/api/otp-services', {
          name: 'Logged',
          template: '{{code}}',
          allowedCountries: ['GB'],
          sendLimit: 1,
        })
      ).body;
      expect((await api.post(`/v1/otp/${svc.id}/send`, { to: '+14155550160' })).status).toBe(422);
      expect((await api.post(`/v1/otp/${svc.id}/send`, { to: '+442071838761' })).status).toBe(201);
      clock.advance(60_000);
      expect((await api.post(`/v1/otp/${svc.id}/send`, { to: '+442071838761' })).status).toBe(429);
      const text = lines.join('');
      expect(text).toContain('+1415•••••60');
      expect(text).toContain('+4420••••••61');
      expect(text).not.toMatch(/4155550160|2071838761/);
    } finally {
      await app.close();
    }
  });
});
