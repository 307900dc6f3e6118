import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { until } from '../../realtime/test-client';

// The SSRF guard on webhook URLs, with the server's default (WEBHOOK_ALLOW_PRIVATE off): a customer
// cannot make Wren call loopback, private, link-local or other internal addresses, neither by the
// URL it saves nor by a name that resolves to such an address when a delivery connects.

let server: TestServer;
let owner: ApiClient;

beforeAll(async () => {
  server = await startServer(
    { SIMULATOR_DELAY_MS: '20', SIMULATOR_MIX: 'DELIVRD=100', WEBHOOK_RETRY_BASE_MS: '300' },
    { worker: true },
  );
  owner = server.client();
  await owner.register();
});
afterAll(async () => {
  await server?.close();
});

const BAD_URLS = [
  'http://127.0.0.1/hook',
  'http://127.1.2.3:8080/hook',
  'http://localhost:3000/hook',
  'http://api.localhost/hook',
  'http://10.1.2.3/hook',
  'http://172.16.5.4/hook',
  'http://192.168.1.10/hook',
  'http://100.64.0.1/hook',
  'http://169.254.169.254/latest/meta-data/',
  'http://0.0.0.0/hook',
  'http://0x7f.0.0.1/hook',
  'http://2130706433/hook',
  'http://[::1]/hook',
  'http://[::]/hook',
  'http://[::ffff:127.0.0.1]/hook',
  'http://[::ffff:10.0.0.1]/hook',
  'http://[fc00::1]/hook',
  'http://[fd12:3456::1]/hook',
  'http://[fe80::1]/hook',
  'http://224.0.0.1/hook',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://intranet/hook',
  'https://user:secret@hooks.example.com/hook',
  'https://token@hooks.example.com/hook',
  'ftp://hooks.example.com/hook',
];

async function v1(secret: string, method: string, path: string, body?: unknown) {
  const res = await fetch(server.url + path, {
    method,
    headers: {
      authorization: `Bearer ${secret}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe('API key settings', () => {
  it('an update changes only the fields it names: a rename keeps the allowlist, expiry, rate limit and webhook', async () => {
    const settings = {
      ipAllowlist: ['10.0.0.0/8'],
      expiresAt: '2027-01-01T00:00:00.000Z',
      rateLimitPerMinute: 5,
      webhookUrl: 'https://hooks.example.com/keep',
    };
    const created = await owner.post('/api/api-keys', {
      name: 'Locked down',
      scopes: ['sms:send'],
      ...settings,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { key, secret } = created.body as { key: { id: string }; secret: string };
    const renamed = await owner.request('PATCH', `/api/api-keys/${key.id}`, { name: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', ...settings });
    expect((await owner.get(`/api/api-keys/${key.id}`)).body).toMatchObject({ name: 'Renamed', ...settings });
    // Still refused from outside its allowlist (this test calls from 127.0.0.1).
    expect((await v1(secret, 'GET', '/v1/balance')).status).toBe(403);
    // Cleared only when asked.
    const cleared = await owner.request('PATCH', `/api/api-keys/${key.id}`, {
      ipAllowlist: [],
      webhookUrl: null,
    });
    expect(cleared.body).toMatchObject({ ipAllowlist: [], webhookUrl: null, rateLimitPerMinute: 5 });
  });

  it('an IPv4 allowlist entry is four decimal numbers: zero-padded (octal to inet_aton) or short forms are refused', async () => {
    for (const entry of ['192.168.010.001', '010.0.0.0/8', '1.2.3', '0x7f.0.0.1', '3232235777']) {
      const res = await owner.post('/api/api-keys', {
        name: 'Odd IP',
        scopes: ['sms:send'],
        ipAllowlist: [entry],
      });
      expect(res.status, entry).toBe(400);
      expect(res.body.errors?.ipAllowlist ?? res.body.errors?.['ipAllowlist.0'], entry).toBeDefined();
    }
    const ok = await owner.post('/api/api-keys', {
      name: 'Plain IP',
      scopes: ['sms:send'],
      ipAllowlist: ['192.168.10.1', '10.0.0.0/8', '::ffff:10.1.2.3', '2001:db8::/32'],
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.key.ipAllowlist).toEqual(['192.168.10.1', '10.0.0.0/8', '10.1.2.3', '2001:db8::/32']);
  });
});

describe('webhook URLs: refused when saved or accepted', () => {
  it('refuses every internal, credentialed or non-http(s) form on keys, the account and callbackUrl', async () => {
    const created = await owner.post('/api/api-keys', { name: 'Guarded', scopes: ['sms:send'] });
    expect(created.status).toBe(201);
    const { key, secret } = created.body as { key: { id: string }; secret: string };
    const accepted: string[] = [];
    for (const url of BAD_URLS) {
      const onCreate = await owner.post('/api/api-keys', {
        name: 'x',
        scopes: ['sms:send'],
        webhookUrl: url,
      });
      const onEdit = await owner.request('PATCH', `/api/api-keys/${key.id}`, { webhookUrl: url });
      const onAccount = await owner.request('PUT', '/api/developer/webhook', { webhookUrl: url });
      const onSend = await v1(secret, 'POST', '/v1/messages', {
        to: '+14155550170',
        text: 'guarded callback',
        callbackUrl: url,
      });
      for (const [where, res] of [
        ['key create', onCreate],
        ['key edit', onEdit],
        ['account URL', onAccount],
      ] as const) {
        if (res.status !== 400 || !res.body.errors?.webhookUrl)
          accepted.push(`${where}: ${url} -> ${res.status}`);
      }
      if (onSend.status !== 400 || onSend.body.error?.param !== 'callbackUrl') {
        accepted.push(`callbackUrl: ${url} -> ${onSend.status} ${JSON.stringify(onSend.body.error)}`);
      }
    }
    expect(accepted).toEqual([]);
    // Nothing was sent or saved.
    const sent = await server.ctx.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('body', '=', 'guarded callback')
      .executeTakeFirstOrThrow();
    expect(Number(sent.n)).toBe(0);
    expect((await owner.get(`/api/api-keys/${key.id}`)).body.webhookUrl).toBeNull();
    expect((await owner.get('/api/developer')).body.webhookUrl).toBeNull();

    // The refusal says why, in words a developer can act on.
    const why = await owner.request('PUT', '/api/developer/webhook', {
      webhookUrl: 'http://169.254.169.254/latest/meta-data/',
    });
    expect(why.body.errors.webhookUrl[0]).toMatch(/169\.254\.169\.254 is a link-local address/);

    // A public URL is still accepted everywhere.
    const ok = 'https://hooks.example.com/wren?token=abc';
    expect((await owner.request('PATCH', `/api/api-keys/${key.id}`, { webhookUrl: ok })).status).toBe(200);
    expect((await owner.request('PUT', '/api/developer/webhook', { webhookUrl: ok })).status).toBe(200);
    expect((await owner.request('PUT', '/api/developer/webhook', { webhookUrl: null })).status).toBe(200);
    expect(
      (await v1(secret, 'POST', '/v1/messages', { to: '+14155550171', text: 'public hook', callbackUrl: ok }))
        .status,
    ).toBe(202);
  });
});

describe('webhook URLs: checked again when a delivery connects', () => {
  it('a host name that resolves to loopback is refused and logged as a failed attempt', async () => {
    // A receiver on loopback, reachable as "localhost": it must never be called.
    let calls = 0;
    const receiver: Server = createServer((_req, res) => {
      calls += 1;
      res.writeHead(204).end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const port = (receiver.address() as AddressInfo).port;
      const c = server.client();
      const { user } = await c.register();
      // As if the name had resolved to a public address when the URL was saved (DNS changes):
      // stored directly, past the save-time check.
      await c.get('/api/developer'); // creates the account's webhook settings
      await server.ctx.db
        .updateTable('webhook_settings')
        .set({ url: `http://localhost:${port}/hook` })
        .where('account_id', '=', user.accountId)
        .execute();
      const sent = await c.post('/api/sms/single', { recipients: ['+14155550172'], text: 'rebound' });
      expect(sent.status).toBe(202);
      const id = sent.body.messages[0].id as string;
      const attempts = () =>
        server.ctx.db
          .selectFrom('webhook_attempts')
          .selectAll()
          .where('delivery_id', '=', `evt_${id}`)
          .orderBy('id')
          .execute();
      await until(async () => (await attempts()).length >= 1, 30_000, 'a delivery attempt');
      const [first] = await attempts();
      expect(first).toMatchObject({ status_code: null });
      expect(first!.error).toMatch(/Refused: localhost resolves to (127\.0\.0\.1|::1) is a loopback address/);
      const delivery = await server.ctx.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('id', '=', `evt_${id}`)
        .executeTakeFirstOrThrow();
      expect(delivery.status).not.toBe('delivered');
      expect(delivery.last_error).toMatch(/loopback/);
      expect(calls).toBe(0);
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  }, 60_000);
});
