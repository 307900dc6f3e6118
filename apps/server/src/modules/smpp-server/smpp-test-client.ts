// Test helpers: the `smpp` npm client against Wren's SMPP server (not used by the server itself).
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../../../../../packages/smsc-simulator/src/smpp.d.ts" />
import smpp from 'smpp';

export type Client = smpp.Session & { received: smpp.PDU[] };

/** A connected client (TCP, or TLS accepting the self-signed certificate). */
export function connect(port: number, tls = false): Promise<Client> {
  return new Promise((resolve, reject) => {
    const session = smpp.connect({
      url: `${tls ? 'ssmpp' : 'smpp'}://127.0.0.1:${port}`,
      rejectUnauthorized: false,
    } as smpp.ConnectOptions) as Client;
    session.received = [];
    session.on('error', reject);
    session.on(tls ? 'secureConnect' : 'connect', () => {
      session.socket.setNoDelay(true);
      resolve(session);
    });
  });
}

/** Sends a request and resolves with its response. */
export function call(
  session: smpp.Session,
  command: string,
  fields: smpp.PduOptions = {},
): Promise<smpp.PDU> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command}: no response`)), 10_000);
    session.send(new smpp.PDU(command, fields), (pdu) => {
      clearTimeout(timer);
      resolve(pdu);
    });
  });
}

const BIND = { tx: 'bind_transmitter', rx: 'bind_receiver', trx: 'bind_transceiver' } as const;

/** Connects and binds; resolves with the session and the bind_resp status. */
export async function bind(
  port: number,
  mode: keyof typeof BIND,
  systemId: string,
  password: string,
  opts: { tls?: boolean; answerDelivers?: boolean; onDeliver?: (pdu: smpp.PDU, s: Client) => void } = {},
) {
  const session = await connect(port, opts.tls);
  const onDeliver = opts.onDeliver;
  if (onDeliver) session.on('deliver_sm', (pdu) => onDeliver(pdu, session));
  else if (opts.answerDelivers !== false) {
    session.on('deliver_sm', (pdu) => {
      session.received.push(pdu);
      session.send(pdu.response());
    });
  }
  const resp = await call(session, BIND[mode], { system_id: systemId, password });
  return { session, status: resp.command_status, resp };
}

export function closeClient(session: smpp.Session): Promise<void> {
  return new Promise((resolve) => {
    if (session.socket.destroyed) return resolve();
    session.socket.once('close', () => resolve());
    session.destroy();
  });
}
