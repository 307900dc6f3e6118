// Test-only ESME built on the real smpp client (not exported from the package).
import smpp from 'smpp';
import type { BindMode } from './options.js';

export const TIMEOUT = Symbol('timeout');

export class TestClient {
  /** Every deliver_sm received, in arrival order. */
  readonly delivered: smpp.PDU[] = [];
  /** Arrival log: `resp:<message_id>` for submit_sm_resp, `dlr:<receipted_message_id>` for receipts. */
  readonly log: string[] = [];
  /** Answer deliver_sm automatically (with this status). */
  ackStatus: number | undefined = 0;
  closed = false;
  private waiters: (() => void)[] = [];

  private constructor(readonly session: smpp.Session) {
    session.on('error', () => session.destroy());
    session.on('close', () => {
      this.closed = true;
      this.notify();
    });
    session.on('pdu', (pdu) => {
      if (pdu.command === 'deliver_sm') {
        this.delivered.push(pdu);
        this.log.push(`dlr:${pdu.receipted_message_id ?? 'mo'}`);
        if (this.ackStatus !== undefined) session.send(pdu.response({ command_status: this.ackStatus }));
      } else if (pdu.command === 'submit_sm_resp') {
        this.log.push(`resp:${pdu.message_id ?? pdu.command_status}`);
      } else if (pdu.command === 'unbind') {
        session.send(pdu.response());
      }
      this.notify();
    });
  }

  static connect(port: number): Promise<TestClient> {
    return new Promise((resolve, reject) => {
      const session = smpp.connect({ host: '127.0.0.1', port }, () => resolve(new TestClient(session)));
      session.once('error', reject);
    });
  }

  static async bound(port: number, mode: BindMode = 'transceiver', systemId = 'wren'): Promise<TestClient> {
    const c = await TestClient.connect(port);
    const resp = await c.bind(mode, systemId);
    if (resp.command_status !== 0) throw new Error(`bind failed: ${resp.command_status}`);
    return c;
  }

  /** Send a request PDU and resolve with its response (or TIMEOUT). */
  call(command: string, fields: smpp.PduOptions = {}, timeoutMs = 2000): Promise<smpp.PDU | typeof TIMEOUT> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(TIMEOUT), timeoutMs);
      this.session.send(new smpp.PDU(command, fields), (resp) => {
        clearTimeout(timer);
        resolve(resp);
      });
    });
  }

  async request(command: string, fields: smpp.PduOptions = {}): Promise<smpp.PDU> {
    const resp = await this.call(command, fields);
    if (resp === TIMEOUT) throw new Error(`${command}: no response`);
    return resp;
  }

  bind(mode: BindMode, systemId = 'wren', password = 'wrenpass'): Promise<smpp.PDU> {
    return this.request(`bind_${mode}`, { system_id: systemId, password });
  }

  submit(fields: smpp.PduOptions): Promise<smpp.PDU> {
    return this.request('submit_sm', { source_addr: 'Wren', destination_addr: '4915550001', ...fields });
  }

  receipts(): smpp.PDU[] {
    return this.delivered.filter((p) => ((p.esm_class ?? 0) & 0x04) !== 0);
  }

  /** Resolve once `predicate` holds (re-checked on every inbound PDU), or reject after timeoutMs. */
  async until(predicate: () => boolean, timeoutMs = 2000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for condition');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 50));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  waitReceipts(n: number, timeoutMs = 2000): Promise<void> {
    return this.until(() => this.receipts().length >= n, timeoutMs);
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => this.session.destroy(() => resolve()));
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

export function text(pdu: smpp.PDU): string {
  const sm = pdu.short_message;
  if (sm === undefined) return '';
  if (typeof sm === 'string') return sm;
  if (Buffer.isBuffer(sm)) return sm.toString('latin1');
  return typeof sm.message === 'string' ? sm.message : sm.message.toString('latin1');
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Test-only reading of a receipt text in the simulator's own fixed layout (the tolerant parser lives in
 * the server's gateway). Keys: id, sub, dlvrd, submit date, done date, stat, err, text.
 */
export function receiptFields(receiptText: string): Record<string, string> {
  const at = receiptText.indexOf(' text:');
  const head = at >= 0 ? receiptText.slice(0, at) : receiptText;
  const out: Record<string, string> = {};
  for (const m of head.matchAll(/(?:^| )(id|sub|dlvrd|submit date|done date|stat|err):(\S*)/g)) {
    out[m[1]] = m[2]!;
  }
  if (at >= 0) out.text = receiptText.slice(at + ' text:'.length);
  return out;
}
