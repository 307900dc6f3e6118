import type { AddressInfo } from 'node:net';
import smpp from 'smpp';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, gateway, sms, until } from './smpp-test-kit';

/** A scripted SMSC built directly on the smpp library, for protocol details the simulator does not do. */
async function scriptedSmsc(submitStatus: () => number) {
  const binds: smpp.PDU[] = [];
  const inbound: smpp.PDU[] = [];
  const sessions: smpp.Session[] = [];
  const server = smpp.createServer({}, (session) => {
    sessions.push(session);
    session.on('error', () => session.destroy());
    session.on('pdu', (pdu) => {
      inbound.push(pdu);
      if (pdu.command === 'bind_transceiver') {
        binds.push(pdu);
        session.send(pdu.response({ system_id: 'scripted' }));
      } else if (pdu.command === 'unbind') {
        session.send(pdu.response());
      } else if (pdu.command === 'submit_sm') {
        const status = submitStatus();
        session.send(
          status === 0x80
            ? new smpp.PDU('generic_nack', { sequence_number: pdu.sequence_number, command_status: 0x03 })
            : pdu.response(status ? { command_status: status } : { message_id: `id${pdu.sequence_number}` }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const s of sessions) s.destroy();
      server.close(() => resolve());
    });
  return { port, binds, inbound, sessions, close };
}

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup();
  await closeServer?.();
  closeServer = undefined;
});

const config = (port: number) => ({
  name: 'scripted',
  host: '127.0.0.1',
  port,
  systemId: 'acme',
  password: 'secret',
  systemType: 'OTP',
  reconnectBaseMs: 20,
  reconnectMaxMs: 50,
  responseTimeoutMs: 500,
});

describe('SMPP session protocol', () => {
  it('binds as an SMPP 3.4 transceiver and answers enquire_link, unknown requests and unbind', async () => {
    const smsc = await scriptedSmsc(() => 0);
    closeServer = smsc.close;
    const gw = await gateway([config(smsc.port)]);
    expect(smsc.binds[0]).toMatchObject({
      system_id: 'acme',
      password: 'secret',
      system_type: 'OTP',
      interface_version: 0x34,
    });
    const session = smsc.sessions[0]!;
    const ask = (command: string) =>
      new Promise<smpp.PDU>((resolve) => session.send(new smpp.PDU(command, {}), resolve));
    expect(await ask('enquire_link')).toMatchObject({ command: 'enquire_link_resp', command_status: 0 });
    expect(await ask('query_sm')).toMatchObject({ command: 'query_sm_resp', command_status: 0x03 });
    expect(await ask('unbind')).toMatchObject({ command: 'unbind_resp', command_status: 0 });
    await until(() => smsc.binds.length === 2, 2000, 'rebind after unbind');
    await until(() => gw.status()[0]?.bound === 1, 1000, 'bound again');
    expect(await gw.submit(sms())).toEqual({ kind: 'accepted', connection: 'scripted', smscIds: ['id2'] });
  });

  it('maps submit_sm_resp errors and generic_nack to outcomes', async () => {
    const statuses = [0x0b, 0x08, 0x80, 0x45, 0x65];
    const smsc = await scriptedSmsc(() => statuses.shift() ?? 0);
    closeServer = smsc.close;
    const gw = await gateway([config(smsc.port)]);
    expect(await gw.submit(sms())).toMatchObject({ kind: 'rejected', commandStatus: 0x0b });
    expect(await gw.submit(sms())).toMatchObject({ kind: 'retry', reason: 'ESME_RSYSERR (0x08)' });
    expect(await gw.submit(sms())).toMatchObject({ kind: 'rejected', commandStatus: 0x03 });
    expect(await gw.submit(sms())).toMatchObject({ kind: 'rejected', commandStatus: 0x45 });
    expect(await gw.submit(sms())).toMatchObject({ kind: 'rejected', commandStatus: 0x65 });
    expect(await gw.submit(sms())).toMatchObject({ kind: 'accepted' });
  });

  it('recycles the session when the SMSC says it is not bound', async () => {
    const statuses = [0x04];
    const smsc = await scriptedSmsc(() => statuses.shift() ?? 0);
    closeServer = smsc.close;
    const gw = await gateway([config(smsc.port)]);
    expect(await gw.submit(sms())).toMatchObject({ kind: 'retry', reason: 'ESME_RINVBNDSTS (0x04)' });
    await until(() => smsc.binds.length === 2, 2000, 'rebind');
    expect(await gw.submit(sms())).toMatchObject({ kind: 'accepted' });
  });
});
