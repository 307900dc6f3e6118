import type { MessageEventDto } from '@wren/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { waitForFinal } from '../../../test/messaging';
import { customerHistory, messageHistory } from './message-history';
import type { MessageRow } from './messages.repository';

const step = (detail: string, raw: string | null = null): MessageEventDto => ({
  id: '1',
  status: 'sent',
  detail,
  raw,
  createdAt: '2026-11-24T06:00:00.000Z',
});

describe('the SMS log history a customer sees', () => {
  it('keeps statuses, times, the outcome in words and the SMSC codes; drops raw receipts and internal names', () => {
    const shown = customerHistory([
      step('Accepted and queued'),
      step('Submitted via uk-primary, SMSC id 0A1B'),
      step('Reclaimed after a worker lease expired'),
      step('Partly submitted via uk-primary (1 part(s)): bind vm:8783 closed'),
      step('Part 1: ACCEPTD (err 000) — interim', 'id:1 stat:ACCEPTD err:000 {"tlv":{"0x0427":6}}'),
      step('Final: UNDELIV (err 011)', 'id:0A1B sub:001 dlvrd:000 stat:UNDELIV err:011 text:'),
    ]);
    expect(shown.map((e) => e.detail)).toEqual([
      'Accepted and queued',
      'Submitted to the SMSC, SMSC id 0A1B',
      'Sending took longer than expected; queued again',
      'Partly submitted (1 part(s)); the rest could not be sent',
      'Part 1: ACCEPTD (err 000) — interim',
      'Final: UNDELIV (err 011): the carrier could not deliver it',
    ]);
    expect(shown.every((e) => e.raw === null)).toBe(true);
    expect(shown.map((e) => e.createdAt)).toEqual(Array(6).fill('2026-11-24T06:00:00.000Z'));
    expect(JSON.stringify(shown)).not.toMatch(/uk-primary|vm:|worker|tlv/);
  });
});

let server: TestServer;
describe('the done step of a one-part message', () => {
  const at = new Date('2026-11-24T06:00:00.000Z');
  const message = (receiptRaw: string | null) =>
    ({
      scheduled_at: null,
      created_at: at,
      submitted_at: at,
      done_at: at,
      connection: 'simulator',
      status: 'delivered',
      smsc_stat: 'DELIVRD',
      smsc_err: '000',
      error: null,
      receipt_raw: receiptRaw,
    }) as MessageRow;
  const part = (n: number, raw: string | null) => ({
    part: n,
    smsc_key: `${n + 7}`,
    connection: 'simulator',
    raw,
  });
  const done = (events: ReturnType<typeof messageHistory>) => events.find((e) => e.id === 'done');

  it('shows the raw receipt kept on its part (migration 0026 on)', () => {
    expect(done(messageHistory(message(null), [part(0, 'id:7 stat:DELIVRD err:000')], []))).toMatchObject({
      detail: 'Final: DELIVRD (err 000)',
      raw: 'id:7 stat:DELIVRD err:000',
    });
  });

  it('shows the raw receipt kept on the message row (stored before it)', () => {
    expect(done(messageHistory(message('id:7 stat:DELIVRD'), [part(0, null)], []))?.raw).toBe(
      'id:7 stat:DELIVRD',
    );
  });

  it('shows none for a multipart message, whose receipts are events of their own', () => {
    expect(done(messageHistory(message(null), [part(0, 'id:7'), part(1, 'id:8')], []))?.raw).toBeNull();
  });
});

beforeAll(async () => {
  server = await startServer({}, { worker: true });
});
afterAll(() => server?.close());

describe('GET /api/sms/log/:id', () => {
  it('gives a customer no raw receipt or connection name; an admin gets both', async () => {
    const c = server.client();
    const reg = await c.register();
    const sent = await c.post('/api/sms/single', { recipients: ['+14155550177'], text: 'History' });
    const id = sent.body.messages[0].id as string;
    await waitForFinal(c, [id]);
    const customer = (await c.get(`/api/sms/log/${id}`)).body.events as MessageEventDto[];
    expect(customer.map((e) => e.raw)).toEqual([null, null, null]);
    expect(customer[1]!.detail).toMatch(/^Submitted to the SMSC, SMSC id \S+$/);
    expect(customer[2]!.detail).toMatch(/^Final: [A-Z]+ \(err \d+\): /);

    await server.ctx.services.users.promote(reg.user.username);
    const login = await c.post('/api/auth/login', { username: reg.user.username, password: reg.password });
    c.useSession(login.body);
    const admin = (await c.get(`/api/sms/log/${id}`)).body.events as MessageEventDto[];
    expect(admin[1]!.detail).toMatch(/^Submitted via simulator, SMSC id \S+$/);
    expect(admin[2]!.raw).toMatch(/stat:[A-Z]+/);
  });
});
