import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';

// Migration 0023: the references of messages (account, user, campaign) and of api_messages
// (account, key) are checked once per INSERT statement, not by a foreign key per row. These tests
// hold the triggers to what the constraints guaranteed.
let server: TestServer;
let db: pg.Client;
beforeAll(async () => {
  server = await startServer({ TRIAL_BALANCE_MINOR: '100000' });
  db = new pg.Client({ connectionString: server.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await server?.close();
});

/** A signed-up account with one queued web send and one /v1 send; their ids. */
async function sender() {
  const c = server.client();
  const { user } = await c.register();
  const web = await c.post('/api/sms/single', { recipients: ['+14155550111'], text: 'web send' });
  expect(web.status).toBe(202);
  const created = await c.post('/api/api-keys', { name: 'Backend', scopes: ['sms:send'] });
  expect(created.status).toBe(201);
  const { key, secret } = created.body as { key: { id: string }; secret: string };
  const api = await fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ to: '+14155550112', text: 'api send' }),
  });
  expect(api.status).toBe(202);
  const apiMessageId = ((await api.json()) as { data: { id: string }[] }).data[0]!.id;
  return { accountId: user.accountId, userId: user.id, keyId: key.id, apiMessageId };
}

/** A message row as a send writes it, with the references given. */
const insertMessage = (refs: { account: string; user: string | null; campaign?: string | null }) =>
  db.query(
    `INSERT INTO messages (id, account_id, campaign_id, user_id, recipient, sender, body, encoding, segments,
       price_minor, currency, status, priority, next_attempt_at, validity_until)
     SELECT gen_random_uuid(), $1, $3, $2, '+1415555' || lpad(g::text, 4, '0'), 'Wren', 'refs', 'GSM-7', 1, 1,
       'USD', 'queued', 1, now(), now() + interval '1 day'
       FROM generate_series(1, 3) g`,
    [refs.account, refs.user, refs.campaign ?? null],
  );

const pgError = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e as { code: string; message: string; detail?: string },
  );
  expect(err, 'the statement should have failed').not.toBeNull();
  return err!;
};

const count = async (q: string, params: unknown[]) =>
  Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${q}`, params)).rows[0]!.n);

describe('message references, checked per statement', () => {
  it('has no foreign key left on messages or api_messages (none checks row by row)', async () => {
    const { rows } = await db.query(
      `SELECT conrelid::regclass::text AS t, conname FROM pg_constraint
        WHERE contype = 'f' AND (conrelid::regclass::text ~ '^messages' OR conrelid = 'api_messages'::regclass)`,
    );
    expect(rows).toEqual([]);
  });

  it('refuses a message whose account, user or campaign does not exist, and writes none of the statement', async () => {
    const s = await sender();
    const before = await count('messages WHERE account_id = $1', [s.accountId]);
    const cases = [
      { refs: { account: randomUUID(), user: s.userId }, table: 'accounts' },
      { refs: { account: s.accountId, user: randomUUID() }, table: 'users' },
      { refs: { account: s.accountId, user: s.userId, campaign: randomUUID() }, table: 'campaigns' },
    ];
    for (const { refs, table } of cases) {
      const err = await pgError(insertMessage(refs));
      expect(err.code).toBe('23503');
      // The wording of a foreign key's error: the API maps it to "not found" (database-errors.ts).
      expect(err.message).toMatch(/^insert or update on table "messages" violates foreign key constraint/);
      expect(err.detail).toContain(`is not present in table "${table}"`);
    }
    expect(await count('messages WHERE account_id = $1', [s.accountId])).toBe(before);
    // The same statement with real parents goes in (a user is optional).
    await insertMessage({ account: s.accountId, user: s.userId });
    await insertMessage({ account: s.accountId, user: null });
    expect(await count('messages WHERE account_id = $1', [s.accountId])).toBe(before + 6);
  });

  it('refuses an API record whose account or key does not exist', async () => {
    const s = await sender();
    for (const [account, key, table] of [
      [randomUUID(), s.keyId, 'accounts'],
      [s.accountId, randomUUID(), 'api_keys'],
    ] as const) {
      const err = await pgError(
        db.query(
          `INSERT INTO api_messages (message_id, account_id, api_key_id) VALUES (gen_random_uuid(), $1, $2)`,
          [account, key],
        ),
      );
      expect(err.code).toBe('23503');
      expect(err.detail).toContain(`is not present in table "${table}"`);
    }
  });

  it('never moves a message or an API record to another parent', async () => {
    const s = await sender();
    const other = await sender();
    for (const q of [
      [`UPDATE messages SET account_id = $2 WHERE account_id = $1`, [s.accountId, other.accountId]],
      [`UPDATE messages SET user_id = $2 WHERE account_id = $1`, [s.accountId, other.userId]],
      [`UPDATE api_messages SET api_key_id = $2 WHERE message_id = $1`, [s.apiMessageId, other.keyId]],
    ] as const) {
      expect((await pgError(db.query(q[0], [...q[1]]))).code).toBe('23503');
    }
    // Status updates, the hot path, touch no reference and pass.
    await db.query(`UPDATE messages SET status = 'canceled' WHERE account_id = $1`, [s.accountId]);
  });

  it('keeps the delete actions: an account in use stays, a deleted key takes its API records along', async () => {
    const s = await sender();
    const err = await pgError(db.query(`DELETE FROM accounts WHERE id = $1`, [s.accountId]));
    expect(err.code).toBe('23503');
    // Refused by the messages' guard (it runs before any other table's constraint is checked).
    expect(err.message).toBe(
      'update or delete on table "accounts" violates foreign key constraint "messages_accounts_ref"',
    );

    await db.query(`DELETE FROM api_keys WHERE id = $1`, [s.keyId]);
    expect(await count('api_messages WHERE api_key_id = $1', [s.keyId])).toBe(0);
    expect(await count('messages WHERE id = $1', [s.apiMessageId])).toBe(1); // the message stays
  });

  it('clears the user of the messages of a deleted user', async () => {
    // A user row of its own (no sessions or other rows refer to it), named by messages.
    const s = await sender();
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO users (account_id, username, name, email, phone, password_hash)
       SELECT account_id, username || 'x', name, 'x' || email, phone, password_hash FROM users WHERE id = $1
       RETURNING id`,
      [s.userId],
    );
    const extra = rows[0]!.id;
    await insertMessage({ account: s.accountId, user: extra });
    expect(await count('messages WHERE user_id = $1', [extra])).toBe(3);
    await db.query(`DELETE FROM users WHERE id = $1`, [extra]);
    expect(await count('messages WHERE user_id = $1', [extra])).toBe(0);
    expect(
      await count(`messages WHERE account_id = $1 AND user_id IS NULL AND body = 'refs'`, [s.accountId]),
    ).toBe(3);
  });

  it('locks the parents a send names until it commits, as a foreign key check does', async () => {
    const { user } = await server.client().register();
    const other = new pg.Client({ connectionString: server.databaseUrl });
    await other.connect();
    try {
      await db.query('BEGIN');
      await insertMessage({ account: user.accountId, user: null });
      await other.query(`SET lock_timeout = '300ms'`);
      // The uncommitted send holds the account: a delete waits for it (here: gives up waiting).
      const waited = await pgError(other.query(`DELETE FROM accounts WHERE id = $1`, [user.accountId]));
      expect(waited.code).toBe('55P03');
      await db.query('COMMIT');
      // Committed, the messages name the account: the delete is refused.
      const refused = await pgError(other.query(`DELETE FROM accounts WHERE id = $1`, [user.accountId]));
      expect(refused.message).toMatch(/"messages_accounts_ref"$/);
    } finally {
      await db.query('ROLLBACK').catch(() => undefined);
      await other.end();
    }
  });
});
