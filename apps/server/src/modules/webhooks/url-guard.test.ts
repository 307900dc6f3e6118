import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { until } from '../../realtime/test-client';
import { blockedAddress, guardedLookup, resolver, webhookUrlProblem } from './url-guard';

// Issue 46 finding 1: the SSRF guard must read every notation of an internal address as that
// address: IPv4 in decimal, octal, hex and short forms, and every IPv6 form that embeds an IPv4
// address (IPv4-compatible ::/96, mapped, translated, NAT64, 6to4, Teredo, ISATAP), at save time
// on each webhook field and again when a delivery connects.

/** Hosts (as written in a URL) that must never receive a webhook, with what they really are. */
const INTERNAL_HOSTS: [host: string, what: string][] = [
  // loopback
  ['127.0.0.1', 'loopback'],
  ['2130706433', 'loopback'],
  ['0177.0.0.1', 'loopback'],
  ['0x7f.0.0.1', 'loopback'],
  ['0x7f000001', 'loopback'],
  ['017700000001', 'loopback'],
  ['127.1', 'loopback'],
  ['127.0.1', 'loopback'],
  ['[::1]', 'loopback'],
  ['[0:0:0:0:0:0:0:1]', 'loopback'],
  ['[::127.0.0.1]', 'loopback'],
  ['[::7f00:1]', 'loopback'],
  ['[0:0:0:0:0:0:127.0.0.1]', 'loopback'],
  ['[::ffff:127.0.0.1]', 'loopback'],
  ['[::ffff:7f00:1]', 'loopback'],
  ['[::ffff:0:127.0.0.1]', 'loopback'],
  ['[64:ff9b::127.0.0.1]', 'loopback'],
  ['[2002:7f00:1::1]', 'loopback'],
  ['[2001:0:7f00:1::1]', 'loopback'], // Teredo server 127.0.0.1
  ['[2001:0:808:808:0:0:80ff:fffe]', 'loopback'], // Teredo client 127.0.0.1 (inverted)
  ['0.0.0.0', 'unspecified'],
  ['0', 'unspecified'],
  ['[::]', 'unspecified'],
  // link-local and the cloud metadata service
  ['169.254.169.254', 'link-local'],
  ['2852039166', 'link-local'],
  ['0251.0376.0251.0376', 'link-local'],
  ['0xa9.0xfe.0xa9.0xfe', 'link-local'],
  ['0xa9fea9fe', 'link-local'],
  ['169.254.43518', 'link-local'],
  ['[::169.254.169.254]', 'link-local'],
  ['[::a9fe:a9fe]', 'link-local'],
  ['[::ffff:169.254.169.254]', 'link-local'],
  ['[::ffff:0:a9fe:a9fe]', 'link-local'],
  ['[64:ff9b::a9fe:a9fe]', 'link-local'],
  ['[2002:a9fe:a9fe::]', 'link-local'],
  ['[fe80::1]', 'link-local'],
  ['[fd00:ec2::254]', 'private network'], // the AWS metadata service over IPv6
  // private networks
  ['10.0.0.1', 'private network'],
  ['167772161', 'private network'],
  ['012.0.0.1', 'private network'],
  ['0xa.0.0.1', 'private network'],
  ['10.1', 'private network'],
  ['[::10.0.0.1]', 'private network'],
  ['[::a00:1]', 'private network'],
  ['[::ffff:10.0.0.1]', 'private network'],
  ['[64:ff9b::10.0.0.1]', 'private network'],
  ['[2002:a00:1::1]', 'private network'],
  ['[2001:4860:1:2:0:5efe:a00:1]', 'private network'], // ISATAP
  ['192.168.0.1', 'private network'],
  ['0xc0a80001', 'private network'],
  ['[::192.168.0.1]', 'private network'],
  ['[::c0a8:1]', 'private network'],
  ['172.16.0.1', 'private network'],
  ['[::172.16.0.1]', 'private network'],
  ['[fc00::1]', 'private network'],
  ['[fd12:3456::1]', 'private network'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['[::100.64.0.1]', 'carrier-grade NAT'],
  ['[64:ff9b:1::a00:1]', 'local-use NAT64'],
];

const urlsOf = (host: string) => [`http://${host}/hook`, `https://${host}:8443/hook?x=1`];
const INTERNAL_URLS = INTERNAL_HOSTS.flatMap(([host]) => urlsOf(host));

/** Public addresses in the same notations: still accepted. */
const PUBLIC_URLS = [
  'https://hooks.example.com/wren',
  'http://8.8.8.8/hook',
  'http://134744072/hook', // 8.8.8.8
  'http://[2606:4700:4700::1111]:8080/hook',
  'http://[::ffff:8.8.8.8]/hook',
  'http://[64:ff9b::8.8.8.8]/hook', // NAT64 of a public address (IPv6-only networks)
  'http://[2002:808:808::1]/hook', // 6to4 of a public address
];

describe('the guard function', () => {
  it.each(INTERNAL_HOSTS)('refuses %s (%s), bare and in a URL with and without a port', (host, what) => {
    const bare = host.replace(/^\[|\]$/g, '');
    const why = blockedAddress(bare);
    expect(why, bare).not.toBeNull();
    expect(why).toContain(what);
    for (const url of urlsOf(host))
      expect(webhookUrlProblem(url, false), url).toMatch(/^Webhooks cannot go to/);
  });

  it('accepts public addresses, also written in an IPv6 form that embeds a public IPv4 address', () => {
    for (const url of PUBLIC_URLS) expect(webhookUrlProblem(url, false), url).toBeNull();
  });

  it('at connect time, a name that resolves to any internal address is refused', async () => {
    const answers: Record<string, LookupAddress[]> = {
      'compat.example.com': [{ address: '::7f00:1', family: 6 }],
      'metadata.example.com': [{ address: '::a9fe:a9fe', family: 6 }],
      'mixed.example.com': [
        { address: '93.184.215.14', family: 4 },
        { address: '::ffff:0:a00:1', family: 6 },
      ],
      'public.example.com': [{ address: '93.184.215.14', family: 4 }],
    };
    const fakeDns = ((host: string, _opts: unknown, cb: (e: null, a: LookupAddress[]) => void) =>
      cb(null, answers[host] ?? [])) as never;
    const lookup = guardedLookup(false, fakeDns);
    const ask = (host: string) =>
      new Promise<string>((resolve) =>
        lookup(host, { all: true }, (err, address) => resolve(err ? err.message : JSON.stringify(address))),
      );
    expect(await ask('compat.example.com')).toMatch(/Refused: .* ::7f00:1 is a loopback address/);
    expect(await ask('metadata.example.com')).toMatch(/link-local address .*169\.254\.169\.254/);
    expect(await ask('mixed.example.com')).toMatch(/private network address .*10\.0\.0\.1/);
    expect(await ask('public.example.com')).toContain('93.184.215.14');
  });
});

let server: TestServer;
let owner: ApiClient;
let keyId: string;
let secret: string;

beforeAll(async () => {
  server = await startServer(
    {
      SIMULATOR_DELAY_MS: '20',
      SIMULATOR_MIX: 'DELIVRD=100',
      WEBHOOK_RETRY_BASE_MS: '300',
      API_KEY_RATE_LIMIT_PER_MINUTE: '100000',
    },
    { worker: true },
  );
  owner = server.client();
  await owner.register();
  const created = await owner.post('/api/api-keys', { name: 'Guarded', scopes: ['sms:send'] });
  expect(created.status).toBe(201);
  ({
    key: { id: keyId },
    secret,
  } = created.body as { key: { id: string }; secret: string });
});
afterAll(async () => {
  await server?.close();
});

async function v1Send(callbackUrl: string) {
  const res = await fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ to: '+14155550180', text: 'ssrf notation', callbackUrl }),
  });
  return { status: res.status, body: (await res.json()) as { error?: { param?: string } } };
}

describe('every webhook URL field, through the HTTP API', () => {
  it('refuses every notation on POST /v1/messages callbackUrl, POST and PATCH /api/api-keys and PUT /api/developer/webhook', async () => {
    const accepted: string[] = [];
    for (const url of INTERNAL_URLS) {
      const results = await Promise.all([
        owner.post('/api/api-keys', { name: 'x', scopes: ['sms:send'], webhookUrl: url }),
        owner.request('PATCH', `/api/api-keys/${keyId}`, { webhookUrl: url }),
        owner.request('PUT', '/api/developer/webhook', { webhookUrl: url }),
      ]);
      ['POST /api/api-keys', 'PATCH /api/api-keys/:id', 'PUT /api/developer/webhook'].forEach((where, i) => {
        const res = results[i]!;
        if (res.status !== 400 || !res.body.errors?.webhookUrl)
          accepted.push(`${where} ${url} -> ${res.status}`);
      });
      const sent = await v1Send(url);
      if (sent.status !== 400 || sent.body.error?.param !== 'callbackUrl')
        accepted.push(`callbackUrl ${url} -> ${sent.status}`);
    }
    expect(accepted).toEqual([]);
    const stored = await server.ctx.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('body', '=', 'ssrf notation')
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(0);
    expect((await owner.get(`/api/api-keys/${keyId}`)).body.webhookUrl).toBeNull();
    expect((await owner.get('/api/developer')).body.webhookUrl).toBeNull();
  });

  it('names the embedded address in the refusal', async () => {
    const res = await owner.request('PUT', '/api/developer/webhook', {
      webhookUrl: 'http://[::169.254.169.254]/',
    });
    expect(res.body.errors.webhookUrl[0]).toMatch(/::a9fe:a9fe is a link-local address .*169\.254\.169\.254/);
  });

  it('still accepts public URLs on every field', async () => {
    for (const url of PUBLIC_URLS) {
      expect((await owner.request('PATCH', `/api/api-keys/${keyId}`, { webhookUrl: url })).status, url).toBe(
        200,
      );
      expect((await owner.request('PUT', '/api/developer/webhook', { webhookUrl: url })).status, url).toBe(
        200,
      );
    }
    await owner.request('PATCH', `/api/api-keys/${keyId}`, { webhookUrl: null });
    await owner.request('PUT', '/api/developer/webhook', { webhookUrl: null });
  });
});

describe('delivery: the resolved address is checked when the socket connects', () => {
  const realLookup = resolver.lookup;
  afterEach(() => {
    resolver.lookup = realLookup;
  });

  it('a saved public-looking name that resolves to an internal address is refused at connect, and the receiver is never called', async () => {
    let calls = 0;
    const receiver: Server = createServer((_req, res) => {
      calls += 1;
      res.writeHead(204).end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const port = (receiver.address() as AddressInfo).port;
      // DNS rebinding: the name is public-looking when saved, and answers an IPv4-compatible
      // loopback address when the delivery connects (the old guard let it through to connect).
      resolver.lookup = ((host: string, opts: unknown, cb: (...a: unknown[]) => void) => {
        if (host !== 'rebind.hooks-example.com')
          return (realLookup as never as (...a: unknown[]) => void)(host, opts, cb);
        cb(null, [{ address: '::7f00:1', family: 6 }]);
      }) as never;
      const c = server.client();
      await c.register();
      const saved = await c.request('PUT', '/api/developer/webhook', {
        webhookUrl: `http://rebind.hooks-example.com:${port}/hook`,
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const sent = await c.post('/api/sms/single', { recipients: ['+14155550181'], text: 'rebinding' });
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
      expect(first!.error).toMatch(
        /^Refused: rebind\.hooks-example\.com resolves to ::7f00:1 is a loopback address \(IPv4-compatible, embeds 127\.0\.0\.1\)/,
      );
      expect(calls).toBe(0);
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  }, 60_000);
});
