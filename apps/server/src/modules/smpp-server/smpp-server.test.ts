import net from 'node:net';
import smpp from 'smpp';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { bind, call, closeClient } from './smpp-test-client';
import { STATUS } from './smpp-wire';

// The SMPP server through its real listeners (TCP and TLS) with the `smpp` npm client.
const SMPP_ENV = { SMPP_SERVER_PORT: '0', SMPP_SERVER_TLS_PORT: '0', SMPP_SERVER_RETRY_SECONDS: '0.5' };

let server: TestServer;
let owner: ApiClient;
let other: ApiClient;
let ownerAccountId: string;
let port: number;
let tlsPort: number;

const until = async (check: () => Promise<boolean> | boolean, ms = 15_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

async function createSmppAccount(c: ApiClient, body: Record<string, unknown>) {
  const res = await c.post('/api/smpp-accounts', { name: 'Gateway', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { account: { id: string; systemId: string }; password: string };
}

/** The message Wren stored for an SMPP id of a login. */
async function messageOf(systemId: string, messageId: string, notation: 'decimal' | 'hex' = 'decimal') {
  const smppId = Number.parseInt(messageId, notation === 'hex' ? 16 : 10);
  return server.ctx.db
    .selectFrom('smpp_messages as l')
    .innerJoin('smpp_accounts as a', 'a.id', 'l.smpp_account_id')
    .innerJoin('messages as m', 'm.id', 'l.message_id')
    .select(['m.id', 'm.body', 'm.recipient', 'm.sender', 'm.status', 'm.segments', 'm.price_minor'])
    .where('a.system_id', '=', systemId)
    .where('l.smpp_id', '=', smppId)
    .executeTakeFirst();
}

beforeAll(async () => {
  server = await startServer({ ...SMPP_ENV, SENDER_ID_APPROVAL: 'manual' });
  owner = server.client();
  other = server.client();
  const reg = await owner.register();
  ownerAccountId = (reg.user as unknown as { accountId: string }).accountId;
  await other.register();
  const info = server.app.smppServer!.info();
  port = info.port!;
  tlsPort = info.tlsPort!;
});
afterAll(async () => {
  await server?.close();
});

describe('SMPP accounts API', () => {
  it('shows the password once, stores only a hash, and hides the account from another account', async () => {
    const created = await createSmppAccount(owner, { systemId: 'apitest1' });
    expect(created.password).toMatch(/^[A-Za-z0-9]{8}$/);
    const row = await server.ctx.db
      .selectFrom('smpp_accounts')
      .select('password_hash')
      .where('id', '=', created.account.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).not.toContain(created.password);
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    const got = await owner.get(`/api/smpp-accounts/${created.account.id}`);
    expect(got.status).toBe(200);
    expect(JSON.stringify(got.body)).not.toContain(created.password);
    expect((await other.get(`/api/smpp-accounts/${created.account.id}`)).status).toBe(404);
    expect((await other.patch(`/api/smpp-accounts/${created.account.id}`, { maxBinds: 9 })).status).toBe(404);
    expect((await other.post(`/api/smpp-accounts/${created.account.id}/rotate`, {})).status).toBe(404);
    const list = await other.get('/api/smpp-accounts');
    expect(list.body.data).toEqual([]);
    // A taken system_id is a 409, not a 500.
    const dup = await other.post('/api/smpp-accounts', { name: 'x', systemId: 'apitest1' });
    expect(dup.status).toBe(409);
    const server2 = await owner.get('/api/smpp-server');
    expect(server2.body).toMatchObject({ port, tlsPort, selfSignedCertificate: true });
  });

  it('rotates the password: the old one no longer binds, the new one does; audited', async () => {
    const a = await createSmppAccount(owner, { systemId: 'rotate1' });
    const rotated = await owner.post(`/api/smpp-accounts/${a.account.id}/rotate`, {});
    expect(rotated.status).toBe(200);
    const next = (rotated.body as { password: string }).password;
    expect(next).not.toBe(a.password);
    const old = await bind(port, 'trx', 'rotate1', a.password);
    expect(old.status).toBe(STATUS.ESME_RINVPASWD);
    await closeClient(old.session);
    const ok = await bind(port, 'trx', 'rotate1', next);
    expect(ok.status).toBe(STATUS.ESME_ROK);
    await closeClient(ok.session);
    const kinds = await server.ctx.db
      .selectFrom('audit_log')
      .select('kind')
      .where('resource_id', '=', a.account.id)
      .execute();
    expect(kinds.map((k) => k.kind)).toEqual(
      expect.arrayContaining(['smpp.account_created', 'smpp.password_rotated', 'smpp.bind_failed']),
    );
  });
});

describe('binds', () => {
  it('binds over TCP and TLS in each allowed mode and answers enquire_link and unbind', async () => {
    const a = await createSmppAccount(owner, { systemId: 'bindok', maxBinds: 5 });
    for (const [mode, tls] of [
      ['tx', false],
      ['rx', false],
      ['trx', true],
    ] as const) {
      const b = await bind(tls ? tlsPort : port, mode, 'bindok', a.password, { tls });
      expect(b.status, `${mode} tls=${tls}`).toBe(STATUS.ESME_ROK);
      expect(b.resp.system_id).toBe('Wren');
      expect((await call(b.session, 'enquire_link')).command_status).toBe(0);
      const binds = await owner.get(`/api/smpp-accounts/${a.account.id}/binds`);
      expect(binds.body.data).toEqual(
        expect.arrayContaining([expect.objectContaining({ mode, tls, remoteAddress: '127.0.0.1' })]),
      );
      expect((await call(b.session, 'unbind')).command_status).toBe(0);
      await closeClient(b.session);
    }
  });

  it('refuses a wrong password, an unknown system_id, a disallowed IP, a disabled login, a mode not allowed and too many binds; each audited', async () => {
    const a = await createSmppAccount(owner, { systemId: 'refuse1', maxBinds: 1, bindModes: ['tx', 'trx'] });
    const walled = await createSmppAccount(owner, { systemId: 'walled1', ipAllowlist: ['10.1.0.0/16'] });
    const off = await createSmppAccount(owner, { systemId: 'off1' });
    expect((await owner.post(`/api/smpp-accounts/${off.account.id}/disable`, {})).status).toBe(200);

    const cases: [string, string, 'tx' | 'rx' | 'trx', number][] = [
      ['refuse1', 'wrong123', 'trx', STATUS.ESME_RINVPASWD],
      ['nosuch1', 'whatever', 'trx', STATUS.ESME_RINVSYSID],
      ['walled1', walled.password, 'trx', STATUS.ESME_RBINDFAIL],
      ['off1', off.password, 'trx', STATUS.ESME_RBINDFAIL],
      ['refuse1', a.password, 'rx', STATUS.ESME_RBINDFAIL],
    ];
    for (const [systemId, password, mode, status] of cases) {
      const b = await bind(port, mode, systemId, password);
      expect(b.status, `${systemId} ${mode}`).toBe(status);
      await closeClient(b.session);
    }
    const first = await bind(port, 'trx', 'refuse1', a.password);
    expect(first.status).toBe(0);
    const second = await bind(port, 'tx', 'refuse1', a.password);
    expect(second.status).toBe(STATUS.ESME_RBINDFAIL);
    await closeClient(second.session);
    await closeClient(first.session);

    const audited = await server.ctx.db
      .selectFrom('audit_log')
      .select(['message', 'ip', 'account_id'])
      .where('kind', '=', 'smpp.bind_failed')
      .execute();
    const messages = audited.map((r) => r.message).join('\n');
    for (const why of [
      'wrong password',
      'unknown system_id',
      'not in the allowlist',
      'disabled',
      'mode rx',
      'max binds',
    ])
      expect(messages).toContain(why);
    expect(audited.every((r) => r.ip === '127.0.0.1')).toBe(true);
    // Enabled again, it binds.
    await owner.post(`/api/smpp-accounts/${off.account.id}/enable`, {});
    const back = await bind(port, 'trx', 'off1', off.password);
    expect(back.status).toBe(0);
    // Disabling closes its live binds.
    const closed = new Promise<void>((r) => back.session.socket.once('close', () => r()));
    await owner.post(`/api/smpp-accounts/${off.account.id}/disable`, {});
    await closed;
  });

  it('a change closes the live binds and the new settings apply; a deletion closes them too and is audited', async () => {
    const a = await createSmppAccount(owner, { systemId: 'change1', bindModes: ['trx', 'rx'] });
    const open = await bind(port, 'rx', 'change1', a.password);
    expect(open.status).toBe(0);
    const closed = new Promise<void>((r) => open.session.socket.once('close', () => r()));
    const patched = await owner.patch(`/api/smpp-accounts/${a.account.id}`, {
      bindModes: ['trx'],
      windowSize: 7,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ bindModes: ['trx'], windowSize: 7 });
    await closed;
    const rx = await bind(port, 'rx', 'change1', a.password);
    expect(rx.status).toBe(STATUS.ESME_RBINDFAIL);
    await closeClient(rx.session);
    const trx = await bind(port, 'trx', 'change1', a.password);
    expect(trx.status).toBe(0);
    const gone = new Promise<void>((r) => trx.session.socket.once('close', () => r()));
    expect((await owner.delete(`/api/smpp-accounts/${a.account.id}`)).status).toBe(204);
    await gone;
    expect((await owner.get(`/api/smpp-accounts/${a.account.id}`)).status).toBe(404);
    const audited = await server.ctx.db
      .selectFrom('audit_log')
      .select('kind')
      .where('resource_id', '=', a.account.id)
      .where('kind', '=', 'smpp.account_deleted')
      .execute();
    expect(audited).toHaveLength(1);
  });

  it('rate-limits failed binds per system_id: after 5 in a minute even the right password is refused', async () => {
    const a = await createSmppAccount(owner, { systemId: 'limited1' });
    for (let i = 0; i < 5; i++) {
      const b = await bind(port, 'trx', 'limited1', 'nope' + i);
      expect(b.status).toBe(STATUS.ESME_RINVPASWD);
      await closeClient(b.session);
    }
    const b = await bind(port, 'trx', 'limited1', a.password);
    expect(b.status).toBe(STATUS.ESME_RBINDFAIL);
    await closeClient(b.session);
  });
});

describe('submit_sm on the send path', () => {
  let password: string;
  let tx: smpp.Session;
  beforeAll(async () => {
    password = (
      await createSmppAccount(owner, {
        systemId: 'sender1',
        maxBinds: 5,
        throughputPerSecond: 1000,
        windowSize: 50,
      })
    ).password;
    tx = (await bind(port, 'trx', 'sender1', password)).session;
  });
  afterAll(async () => {
    await closeClient(tx);
  });

  const submit = (fields: smpp.PduOptions) =>
    call(tx, 'submit_sm', { destination_addr: '14155550123', dest_addr_ton: 1, dest_addr_npi: 1, ...fields });

  it('decodes data_coding 0, 1, 3 and 8 (emoji included), priced and debited as a /v1 send', async () => {
    const cases: [number, Buffer, string][] = [
      [0, smpp.encodings.ASCII.encode('Hello @ GSM {x}'), 'Hello @ GSM {x}'],
      [1, Buffer.from('Plain ASCII text', 'ascii'), 'Plain ASCII text'],
      [3, Buffer.from('Café crème', 'latin1'), 'Café crème'],
      [8, Buffer.from('Привет 👋', 'utf16le').swap16(), 'Привет 👋'],
    ];
    for (const [dc, bytes, text] of cases) {
      const resp = await submit({ data_coding: dc, short_message: bytes });
      expect(resp.command_status, `dc ${dc}`).toBe(0);
      expect(resp.message_id).toMatch(/^\d+$/);
      const m = await messageOf('sender1', resp.message_id!);
      expect(m?.body, `dc ${dc}`).toBe(text);
      expect(m?.recipient).toBe('+14155550123');
      expect(m?.price_minor).toBeGreaterThan(0);
    }
    const ledger = await server.ctx.services.ledger.verify(server.ctx.db, ownerAccountId);
    expect(ledger.cached).toBe(ledger.sum);
  });

  it('joins UDH and sar_* concatenated parts into one message; every part gets its own id', async () => {
    const parts = ['This is the first part, ', 'then the second, ', 'and the end.'];
    const ids: string[] = [];
    for (let i = 0; i < parts.length; i++) {
      const udh = Buffer.from([0x05, 0x00, 0x03, 0x42, parts.length, i + 1]);
      const resp = await submit({
        data_coding: 0,
        esm_class: 0x40,
        short_message: Buffer.concat([udh, Buffer.from(parts[i]!, 'latin1')]),
      });
      expect(resp.command_status).toBe(0);
      ids.push(resp.message_id!);
    }
    expect(new Set(ids).size).toBe(3);
    const msgs = await Promise.all(ids.map((id) => messageOf('sender1', id)));
    expect(msgs.every((m) => m?.id === msgs[0]?.id)).toBe(true);
    expect(msgs[0]?.body).toBe(parts.join(''));

    const sar = ['Über ', 'sar parts 🙂'];
    const sarIds: string[] = [];
    // Out of order: part 2 first.
    for (const i of [1, 0]) {
      const resp = await submit({
        data_coding: 8,
        short_message: Buffer.from(sar[i]!, 'utf16le').swap16(),
        sar_msg_ref_num: 777,
        sar_total_segments: 2,
        sar_segment_seqnum: i + 1,
      });
      expect(resp.command_status).toBe(0);
      sarIds.push(resp.message_id!);
    }
    const m = await messageOf('sender1', sarIds[0]!);
    expect(m?.body).toBe(sar.join(''));
    expect((await messageOf('sender1', sarIds[1]!))?.id).toBe(m?.id);
  });

  it('takes message_payload for a long text', async () => {
    const text = 'Long message over message_payload. '.repeat(10).trim();
    const resp = await submit({ data_coding: 0, message_payload: smpp.encodings.ASCII.encode(text) });
    expect(resp.command_status).toBe(0);
    const m = await messageOf('sender1', resp.message_id!);
    expect(m?.body).toBe(text);
    expect(m?.segments).toBeGreaterThan(1);
  });

  it('answers each refusal with its command_status', async () => {
    const sm = Buffer.from('hello', 'latin1');
    const expectStatus = async (fields: smpp.PduOptions, status: number, why: string) =>
      expect((await submit({ data_coding: 0, short_message: sm, ...fields })).command_status, why).toBe(
        status,
      );
    await expectStatus(
      { destination_addr: 'not-a-number', dest_addr_ton: 0 },
      STATUS.ESME_RINVDSTADR,
      'bad destination',
    );
    await expectStatus({ destination_addr: '' }, STATUS.ESME_RINVDSTADR, 'no destination');
    await expectStatus(
      { source_addr: 'WayTooLongSender', source_addr_ton: 5 },
      STATUS.ESME_RINVSRCADR,
      'bad source',
    );
    await expectStatus(
      { source_addr: 'NotApproved', source_addr_ton: 5 },
      STATUS.ESME_RINVSRCADR,
      'unapproved sender',
    );
    await expectStatus(
      { message_payload: Buffer.from('x'.repeat(5000), 'latin1'), short_message: Buffer.alloc(0) },
      STATUS.ESME_RINVMSGLEN,
      'too long',
    );
    await expectStatus({ data_coding: 4 }, STATUS.ESME_RINVDCS, 'binary');
    await expectStatus(
      { data_coding: 8, short_message: Buffer.from([0x00, 0x41, 0x00]) },
      STATUS.ESME_RINVMSGLEN,
      'odd UCS-2',
    );
    // Opted out (the account's suppression list).
    await sql`INSERT INTO suppressions (account_id, phone, reason)
              VALUES (${ownerAccountId}::uuid, '+14155550199', 'manual')`.execute(server.ctx.db);
    await expectStatus({ destination_addr: '14155550199' }, STATUS.ESME_RX_R_APPN, 'opted out');
  });

  it('answers insufficient balance with ESME_RSUBMITFAIL, and a receiver bind cannot submit', async () => {
    const poor = server.client();
    await poor.register();
    const p = await createSmppAccount(poor, { systemId: 'poor1', maxBinds: 3 });
    const accountId = (
      await server.ctx.db
        .selectFrom('smpp_accounts')
        .select('account_id')
        .where('system_id', '=', 'poor1')
        .executeTakeFirstOrThrow()
    ).account_id;
    await sql`UPDATE accounts SET balance_minor = 0 WHERE id = ${accountId}::uuid`.execute(server.ctx.db);
    const b = await bind(port, 'tx', 'poor1', p.password);
    const resp = await call(b.session, 'submit_sm', {
      destination_addr: '14155550123',
      dest_addr_ton: 1,
      data_coding: 0,
      short_message: Buffer.from('hi'),
    });
    expect(resp.command_status).toBe(STATUS.ESME_RSUBMITFAIL);
    const count = await server.ctx.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
    await closeClient(b.session);
    const rx = await bind(port, 'rx', 'poor1', p.password);
    const r2 = await call(rx.session, 'submit_sm', {
      destination_addr: '14155550123',
      short_message: Buffer.from('x'),
    });
    expect(r2.command_status).toBe(STATUS.ESME_RINVBNDSTS);
    await closeClient(rx.session);
  });

  it('a concatenated message refused on its last part is sent when the client retries that part', async () => {
    const c = server.client();
    await c.register();
    const p = await createSmppAccount(c, { systemId: 'retrypart1' });
    const accountId = (
      await server.ctx.db
        .selectFrom('smpp_accounts')
        .select('account_id')
        .where('system_id', '=', 'retrypart1')
        .executeTakeFirstOrThrow()
    ).account_id;
    const b = await bind(port, 'tx', 'retrypart1', p.password);
    const part = (seq: number, text: string) =>
      call(b.session, 'submit_sm', {
        destination_addr: '14155550123',
        dest_addr_ton: 1,
        data_coding: 0,
        esm_class: 0x40,
        short_message: Buffer.concat([Buffer.from([0x05, 0x00, 0x03, 0x09, 2, seq]), Buffer.from(text)]),
      });
    expect((await part(1, 'First half, ')).command_status).toBe(0);
    await sql`UPDATE accounts SET balance_minor = 0 WHERE id = ${accountId}::uuid`.execute(server.ctx.db);
    expect((await part(2, 'second half.')).command_status).toBe(STATUS.ESME_RSUBMITFAIL);
    await sql`UPDATE accounts SET balance_minor = 500 WHERE id = ${accountId}::uuid`.execute(server.ctx.db);
    const retried = await part(2, 'second half.');
    expect(retried.command_status).toBe(0);
    expect((await messageOf('retrypart1', retried.message_id!))?.body).toBe('First half, second half.');
    await closeClient(b.session);
  });

  it('throttles over the throughput limit with ESME_RTHROTTLED and answers every submit', async () => {
    const t = await createSmppAccount(owner, { systemId: 'slow1', throughputPerSecond: 3, windowSize: 100 });
    const b = await bind(port, 'tx', 'slow1', t.password);
    const resps = await Promise.all(
      Array.from({ length: 12 }, () =>
        call(b.session, 'submit_sm', {
          destination_addr: '14155550123',
          dest_addr_ton: 1,
          data_coding: 0,
          short_message: Buffer.from('t'),
        }),
      ),
    );
    const statuses = resps.map((r) => r.command_status);
    expect(statuses.filter((s) => s === 0).length).toBeLessThanOrEqual(4);
    expect(statuses.filter((s) => s === STATUS.ESME_RTHROTTLED).length).toBeGreaterThanOrEqual(8);
    expect(statuses.every((s) => s === 0 || s === STATUS.ESME_RTHROTTLED)).toBe(true);
    await closeClient(b.session);
  });

  it('refuses submits beyond the window with ESME_RMSGQFUL', async () => {
    const w = await createSmppAccount(owner, {
      systemId: 'window1',
      throughputPerSecond: 1000,
      windowSize: 2,
    });
    const b = await bind(port, 'tx', 'window1', w.password);
    const resps = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(b.session, 'submit_sm', {
          destination_addr: '14155550123',
          dest_addr_ton: 1,
          data_coding: 0,
          short_message: Buffer.from('w'),
        }),
      ),
    );
    const statuses = resps.map((r) => r.command_status);
    expect(statuses.filter((s) => s === 0).length).toBeGreaterThanOrEqual(2);
    expect(statuses.filter((s) => s === STATUS.ESME_RMSGQFUL).length).toBeGreaterThanOrEqual(1);
    await closeClient(b.session);
  });

  it('answers query_sm with the state and cancels a message still waiting', async () => {
    const resp = await submit({ data_coding: 0, short_message: Buffer.from('to cancel') });
    expect(resp.command_status).toBe(0);
    const q = await call(tx, 'query_sm', { message_id: resp.message_id, source_addr: '' });
    expect(q.command_status).toBe(0);
    expect(q.message_id).toBe(resp.message_id);
    expect(q.message_state).toBe(1); // ENROUTE: queued (no worker on this node)
    const c = await call(tx, 'cancel_sm', {
      message_id: resp.message_id,
      source_addr: '',
      destination_addr: '',
    });
    expect(c.command_status).toBe(0);
    const q2 = await call(tx, 'query_sm', { message_id: resp.message_id, source_addr: '' });
    expect(q2.message_state).toBe(4); // DELETED
    expect((await messageOf('sender1', resp.message_id!))?.status).toBe('canceled');
    // Again: nothing left to cancel; an unknown id is not found.
    expect((await call(tx, 'cancel_sm', { message_id: resp.message_id })).command_status).toBe(
      STATUS.ESME_RCANCELFAIL,
    );
    expect((await call(tx, 'query_sm', { message_id: '999999999' })).command_status).toBe(
      STATUS.ESME_RQUERYFAIL,
    );
  });
});

describe('malformed PDUs', () => {
  /** A raw TCP connection that collects what the server writes. */
  async function raw() {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((r) => socket.once('connect', () => r()));
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    return { socket, read: () => Buffer.concat(chunks), closed };
  }
  const header = (len: number, id: number, status: number, seq: number) => {
    const b = Buffer.alloc(16);
    b.writeUInt32BE(len, 0);
    b.writeUInt32BE(id, 4);
    b.writeUInt32BE(status, 8);
    b.writeUInt32BE(seq, 12);
    return b;
  };

  it('answers generic_nack, keeps the session, and never disturbs another session', async () => {
    const a = await createSmppAccount(owner, { systemId: 'bystander', maxBinds: 3 });
    const bystander = (await bind(port, 'trx', 'bystander', a.password)).session;

    const r = await raw();
    // An unknown command id, then a submit_sm whose body ends in the middle of a field, then enquire_link.
    r.socket.write(header(16, 0x000000ff, 0, 7));
    r.socket.write(Buffer.concat([header(20, 0x00000004, 0, 8), Buffer.from([0x41, 0x42, 0x43, 0x44])]));
    r.socket.write(header(16, 0x00000015, 0, 9));
    await until(() => r.read().length >= 48);
    const out = r.read();
    const pdus = [0, 16, 32].map((o) => ({
      id: out.readUInt32BE(o + 4),
      status: out.readUInt32BE(o + 8),
      seq: out.readUInt32BE(o + 12),
    }));
    expect(pdus[0]).toEqual({ id: 0x80000000, status: STATUS.ESME_RINVCMDID, seq: 7 });
    // The submit_sm before a bind: refused for the bind state, or nacked as malformed.
    expect([0x80000000, 0x80000004]).toContain(pdus[1]!.id);
    expect(pdus[2]).toEqual({ id: 0x80000015, status: 0, seq: 9 });

    // A bound session's malformed submit_sm: generic_nack, and the session still works.
    const bad = (await bind(port, 'trx', 'bystander', a.password)).session;
    const nack = new Promise<smpp.PDU>((res) => bad.once('generic_nack', res));
    bad.socket.write(
      Buffer.concat([header(22, 0x00000004, 0, 55), Buffer.from([0, 1, 1, 0x31, 0x32, 0x33])]),
    );
    const n = await nack;
    expect(n.sequence_number).toBe(55);
    expect(n.command_status).toBe(STATUS.ESME_RINVCMDLEN);
    expect((await call(bad, 'enquire_link')).command_status).toBe(0);

    // An impossible length: generic_nack and this connection closes; the others go on.
    const r2 = await raw();
    r2.socket.write(header(8, 0x00000015, 0, 3));
    await r2.closed;
    expect(r2.read().readUInt32BE(8)).toBe(STATUS.ESME_RINVCMDLEN);
    expect((await call(bystander, 'enquire_link')).command_status).toBe(0);
    expect((await call(bad, 'enquire_link')).command_status).toBe(0);
    r.socket.destroy();
    await closeClient(bad);
    await closeClient(bystander);
  });
});

describe('account locks and id notation', () => {
  it('a locked account (SUBACCOUNT_LOCKED on /v1) cannot submit on an open bind, nor bind again', async () => {
    const c = server.client();
    await c.register();
    const p = await createSmppAccount(c, { systemId: 'locked1', maxBinds: 3 });
    const accountId = (
      await server.ctx.db
        .selectFrom('smpp_accounts')
        .select('account_id')
        .where('system_id', '=', 'locked1')
        .executeTakeFirstOrThrow()
    ).account_id;
    const b = await bind(port, 'tx', 'locked1', p.password);
    expect(b.status).toBe(0);
    await sql`UPDATE accounts SET parent_locked_at = now() WHERE id = ${accountId}::uuid`.execute(
      server.ctx.db,
    );
    const resp = await call(b.session, 'submit_sm', {
      destination_addr: '14155550123',
      dest_addr_ton: 1,
      data_coding: 0,
      short_message: Buffer.from('locked'),
    });
    expect(resp.command_status).toBe(STATUS.ESME_RX_P_APPN);
    await closeClient(b.session);
    const again = await bind(port, 'tx', 'locked1', p.password);
    expect(again.status).toBe(STATUS.ESME_RBINDFAIL);
    await closeClient(again.session);
  });

  it('writes message ids in hex for a hex login, and reads them back in query_sm', async () => {
    const h = await createSmppAccount(owner, { systemId: 'hexid1', idNotation: 'hex' });
    const b = await bind(port, 'trx', 'hexid1', h.password);
    const resp = await call(b.session, 'submit_sm', {
      destination_addr: '14155550123',
      dest_addr_ton: 1,
      data_coding: 0,
      short_message: Buffer.from('hex id'),
    });
    expect(resp.command_status).toBe(0);
    expect(resp.message_id).toMatch(/^[0-9A-F]+$/);
    expect((await messageOf('hexid1', resp.message_id!, 'hex'))?.body).toBe('hex id');
    const q = await call(b.session, 'query_sm', { message_id: resp.message_id });
    expect(q.command_status).toBe(0);
    expect(q.message_id).toBe(resp.message_id);
    await closeClient(b.session);
  });
});

// Last in this file: it leaves 127.0.0.1 rate-limited for a minute.
describe('failed binds per address', () => {
  it('after 20 failed binds from one address in a minute, a bind from it is refused whatever the login', async () => {
    const good = await createSmppAccount(owner, { systemId: 'ipgood1' });
    for (let i = 0; i < 20; i++) {
      const b = await bind(port, 'trx', `ipflood${i}`, 'wrong');
      expect([STATUS.ESME_RINVSYSID, STATUS.ESME_RBINDFAIL]).toContain(b.status);
      await closeClient(b.session);
    }
    const b = await bind(port, 'trx', 'ipgood1', good.password);
    expect(b.status).toBe(STATUS.ESME_RBINDFAIL);
    await closeClient(b.session);
    // Rate-limited attempts are not audited one by one: the log holds at most the 20 that were checked.
    const audited = await server.ctx.db
      .selectFrom('audit_log')
      .select('message')
      .where('kind', '=', 'smpp.bind_failed')
      .where('message', 'like', '%ipflood%')
      .execute();
    expect(audited.length).toBeLessThanOrEqual(20);
    expect(audited.length).toBeGreaterThan(0);
  });
});
