/**
 * Operator console benchmark (issue #16): starts Wren (`wren start`, real HTTP API, embedded
 * PostgreSQL unless BENCH_DATABASE_URL), signs up an admin, seeds N accounts (one user and one
 * session each), N ledger entries on one account and 10 × N audit entries with SQL, then measures
 * the admin API through HTTP: the accounts list (first page, a page 99 % deep, searches), an account,
 * its ledger, the audit log (filters), the system status and a /metrics scrape. Prints p50/p99.
 *
 *   npm run bench:admin                        (default: 100,000 accounts)
 *   BENCH_ADMIN_ACCOUNTS=1000000 npm run bench:admin
 *   BENCH_ADMIN_RUNS=30                        (requests per case, default 20)
 */
import pg from 'pg';
import { embeddedDatabase, freshPostgres, percentile, signUp, startWren } from './lib/wren-process';

const N = Number(process.env.BENCH_ADMIN_ACCOUNTS ?? 100_000);
const RUNS = Number(process.env.BENCH_ADMIN_RUNS ?? 20);
const PORT = 3900 + Math.floor(Math.random() * 90) * 3;
const BASE_DB = process.env.BENCH_DATABASE_URL;
const TOKEN = 'bench-metrics-token-0123456789';

async function seed(client: pg.Client, ledgerAccount: string, actor: string) {
  await client.query(
    `WITH a AS (
       INSERT INTO accounts (name, created_at, balance_minor)
       SELECT 'Company ' || i, now() - (i || ' minutes')::interval, 0 FROM generate_series(1, $1::int) i
       RETURNING id, name)
     INSERT INTO users (account_id, username, name, email, phone, password_hash, updated_at)
     SELECT id, 'cust' || substr(name, 9), name, 'cust' || substr(name, 9) || '@example.com',
            '+1415' || lpad(substr(name, 9), 7, '0'), 'x', now() FROM a`,
    [N],
  );
  // Each customer owns its account, as registration makes it (issue 39's account_members).
  await client.query(
    `INSERT INTO account_members (account_id, user_id, role) SELECT account_id, id, 'owner' FROM users
     ON CONFLICT DO NOTHING`,
  );
  await client.query(
    `INSERT INTO sessions (user_id, last_used_at) SELECT id, now() - random() * interval '30 days' FROM users`,
  );
  await client.query(
    `INSERT INTO ledger_entries (account_id, amount_minor, currency, kind, note)
     SELECT $1::uuid, CASE WHEN i % 10 = 0 THEN 1000 ELSE -1 END, 'USD',
            CASE WHEN i % 10 = 0 THEN 'adjustment' ELSE 'sms_debit' END, 'entry ' || i
       FROM generate_series(1, $2::int) i`,
    [ledgerAccount, N],
  );
  await client.query(
    `UPDATE accounts SET balance_minor = (SELECT sum(amount_minor) FROM ledger_entries WHERE account_id = $1::uuid)
      WHERE id = $1::uuid`,
    [ledgerAccount],
  );
  await client.query(
    `INSERT INTO audit_log (account_id, user_id, actor_user_id, kind, message, ip, created_at)
     SELECT NULL, NULL, CASE WHEN i % 100 = 0 THEN $1::uuid END,
            (ARRAY['auth.login', 'auth.login_failed', 'profile.updated', 'admin.credit'])[1 + i % 4],
            'event ' || i, '10.0.0.' || (i % 250), now() - (i || ' seconds')::interval
       FROM generate_series(1, $2::int) i`,
    [actor, N * 10],
  );
  await client.query('VACUUM (ANALYZE) accounts, users, sessions, ledger_entries, audit_log');
}

async function timed(base: string, headers: Record<string, string>, path: string) {
  const times: number[] = [];
  let items = 0;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const res = await fetch(base + path, { headers });
    const text = await res.text();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
    times.push(performance.now() - t);
    if (i === 0 && text.startsWith('{'))
      items = ((JSON.parse(text) as { items?: unknown[] }).items ?? []).length;
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), items };
}

async function main() {
  const db = BASE_DB ? await freshPostgres(BASE_DB, `wren_bench_admin_${process.pid}`) : embeddedDatabase();
  const wren = await startWren({ ...db.env, CAPTCHA: 'false', METRICS_TOKEN: TOKEN }, PORT);
  const base = `http://127.0.0.1:${PORT}`;
  const client = new pg.Client({ connectionString: db.url });
  try {
    const admin = await signUp(base);
    await client.connect();
    const { rows } = await client.query<{ id: string; username: string }>(
      `UPDATE users SET role = 'admin' WHERE account_id = $1 RETURNING id, username`,
      [admin.accountId],
    );
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: admin.headers,
      body: JSON.stringify({ username: rows[0]!.username, password: 'bench password 1' }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const headers = { ...admin.headers, authorization: `Bearer ${accessToken}` };
    const customer = await signUp(base);

    const t0 = performance.now();
    await seed(client, customer.accountId, rows[0]!.id);
    console.log(
      `seeded ${N.toLocaleString()} accounts, ${N.toLocaleString()} ledger entries, ${(N * 10).toLocaleString()} audit entries in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const deep = await client.query<{ created_at: Date; id: string }>(
      `SELECT created_at, id FROM accounts ORDER BY created_at DESC, id DESC OFFSET $1 LIMIT 1`,
      [Math.floor(N * 0.99)],
    );
    const cursor = Buffer.from(
      JSON.stringify({ t: deep.rows[0]!.created_at.toISOString(), id: deep.rows[0]!.id }),
    ).toString('base64url');
    const mid = String(Math.floor(N / 2));
    const cases: [string, string, Record<string, string>][] = [
      ['accounts: first page', '/api/admin/accounts?limit=25', headers],
      ['accounts: page 99% deep (cursor)', `/api/admin/accounts?limit=25&cursor=${cursor}`, headers],
      ['accounts: search username (1 match)', `/api/admin/accounts?limit=25&q=cust${mid}@`, headers],
      ['accounts: search fragment (many)', '/api/admin/accounts?limit=25&q=cust12', headers],
      ['accounts: search phone digits', `/api/admin/accounts?limit=25&q=${mid.padStart(7, '0')}`, headers],
      ['accounts: search no match', '/api/admin/accounts?limit=25&q=zzqqxx', headers],
      ['accounts: locked (none)', '/api/admin/accounts?limit=25&status=locked', headers],
      ['account detail', `/api/admin/accounts/${customer.accountId}`, headers],
      ['ledger: first page', `/api/admin/accounts/${customer.accountId}/ledger?limit=25`, headers],
      ['audit: first page', '/api/admin/audit?limit=50', headers],
      ['audit: kind auth.login_failed', '/api/admin/audit?limit=50&kind=auth.login_failed', headers],
      ['audit: actor (1%)', `/api/admin/audit?limit=50&actor=${rows[0]!.username}`, headers],
      ['system status', '/api/admin/system', headers],
      ['GET /metrics', '/metrics', { authorization: `Bearer ${TOKEN}` }],
    ];
    console.log(`\n${RUNS} requests per case, ${N.toLocaleString()} accounts`);
    console.log('case'.padEnd(40) + 'p50 ms'.padStart(10) + 'p99 ms'.padStart(10) + 'rows'.padStart(7));
    for (const [name, path, h] of cases) {
      const r = await timed(base, h, path);
      console.log(
        name.padEnd(40) +
          r.p50.toFixed(1).padStart(10) +
          r.p99.toFixed(1).padStart(10) +
          String(r.items).padStart(7),
      );
    }

    const t = performance.now();
    const res = await fetch(`${base}/api/admin/accounts/${customer.accountId}/ledger/export`, { headers });
    const body = await res.text();
    const lines = body.split('\r\n').length - 2;
    const s = (performance.now() - t) / 1000;
    console.log(
      `\nledger CSV export: ${lines.toLocaleString()} rows in ${s.toFixed(2)} s (${Math.round(lines / s).toLocaleString()} rows/s)`,
    );
  } finally {
    await client.end().catch(() => undefined);
    wren.kill('SIGTERM');
    await new Promise((r) => wren.once('exit', r));
    await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
