import smpp from 'smpp';
import { bind, closeClient, type Client } from '../../apps/server/src/modules/smpp-server/smpp-test-client';
import { recipient } from './load';

/**
 * bench:smpp-server's client: the `smpp` npm library bound as a transceiver to an SMPP server (Wren's,
 * or Kannel's opensmppbox), submitting with registered_delivery=1 and at most `window` submit_sm
 * unanswered, answering every deliver_sm at once and matching receipts to the ids of submit_sm_resp.
 */

export interface SubmitRun {
  /** submit_sm sent / answered ESME_ROK / answered with an error. */
  sent: number;
  accepted: number;
  errors: Map<number, number>;
  /** submit_sm → submit_sm_resp, ms, in the order answered. */
  latencies: number[];
  /** performance.now(): first submit, last submit_sm_resp, last receipt of this run's messages. */
  started: number;
  answeredAt: number;
  lastReceiptAt: number;
  /** This run's distinct messages with a receipt, and receipts for one of them seen again. */
  receipts: number;
  duplicates: number;
  /** Whether every accepted message got its receipt before the wait ran out. */
  complete: boolean;
  /** What `onComplete` returned (CPU counters read at the last receipt). */
  measured: unknown;
}

/** A receipt's message id: the receipted_message_id TLV, else the `id:` of its text. */
function receiptId(pdu: smpp.PDU): string | undefined {
  if (typeof pdu.receipted_message_id === 'string' && pdu.receipted_message_id)
    return pdu.receipted_message_id.replace(/\0+$/, '');
  const sm = pdu.short_message as smpp.DecodedMessage | Buffer | string | undefined;
  const text =
    typeof sm === 'string'
      ? sm
      : Buffer.isBuffer(sm)
        ? sm.toString('latin1')
        : typeof sm?.message === 'string'
          ? sm.message
          : (sm?.message?.toString('latin1') ?? '');
  return /id:(\S+)/.exec(text)?.[1];
}

/** Ids compared as written, and decimal ids also as numbers (leading zeros). */
const norm = (id: string) => (/^\d+$/.test(id) ? BigInt(id).toString() : id.toLowerCase());

export class SmppClientLoad {
  private ids = new Map<string, number>();
  private receiptsById = new Map<string, number>();
  private run: {
    target: number;
    base: number;
    lastReceiptAt: number;
    receipts: number;
    duplicates: number;
    done?: () => void;
  } | null = null;
  /** Every deliver_sm that was a receipt, this session. */
  receiptPdus = 0;
  unknownReceipts = 0;

  private constructor(readonly session: Client) {
    session.on('deliver_sm', (pdu: smpp.PDU) => {
      session.send(pdu.response());
      if (((pdu.esm_class ?? 0) & 0x04) !== 0x04) return;
      this.receiptPdus++;
      const id = receiptId(pdu);
      if (id === undefined) {
        this.unknownReceipts++;
        return;
      }
      this.onReceipt(norm(id));
    });
  }

  static async connect(port: number, systemId: string, password: string) {
    const { session, status } = await bind(port, 'trx', systemId, password, { answerDelivers: false });
    if (status !== 0) {
      await closeClient(session);
      throw new Error(`bind_transceiver as ${systemId}: status 0x${status.toString(16)}`);
    }
    return new SmppClientLoad(session);
  }

  private onReceipt(id: string) {
    const seen = this.receiptsById.get(id) ?? 0;
    this.receiptsById.set(id, seen + 1);
    const r = this.run;
    const index = this.ids.get(id);
    if (!r || index === undefined || index < r.base) return;
    if (seen > 0) {
      r.duplicates++;
      return;
    }
    r.receipts++;
    r.lastReceiptAt = performance.now();
    if (r.receipts >= r.target) r.done?.();
  }

  /**
   * Submits `n` messages (recipients from index `first`), at most `window` unanswered, at `ratePerSecond`
   * if given (else as fast as the window allows), then waits up to `receiptTimeoutMs` after the last
   * answer for every accepted message's receipt. `onComplete` runs at the last receipt (or at the timeout).
   */
  async submit(o: {
    n: number;
    first: number;
    window: number;
    ratePerSecond?: number;
    receiptTimeoutMs: number;
    onComplete?: () => unknown;
  }): Promise<SubmitRun> {
    const res: SubmitRun = {
      sent: 0,
      accepted: 0,
      errors: new Map(),
      latencies: [],
      started: performance.now(),
      answeredAt: 0,
      lastReceiptAt: 0,
      receipts: 0,
      duplicates: 0,
      complete: false,
      measured: undefined,
    };
    const base = this.ids.size;
    const run: NonNullable<SmppClientLoad['run']> = {
      target: Infinity,
      base,
      lastReceiptAt: 0,
      receipts: 0,
      duplicates: 0,
    };
    this.run = run;
    let inFlight = 0;
    let answered = 0;
    await new Promise<void>((resolve) => {
      const sendOne = () => {
        const i = res.sent++;
        inFlight++;
        const t = performance.now();
        this.session.send(
          new smpp.PDU('submit_sm', {
            source_addr: 'Wren',
            source_addr_ton: 5,
            source_addr_npi: 0,
            destination_addr: recipient(o.first + i).slice(1),
            dest_addr_ton: 1,
            dest_addr_npi: 1,
            data_coding: 0,
            registered_delivery: 1,
            short_message: Buffer.from(`Bench message ${o.first + i}`, 'latin1'),
          }),
          (resp: smpp.PDU) => {
            res.latencies.push(performance.now() - t);
            inFlight--;
            answered++;
            if (resp.command_status === 0 && resp.message_id) {
              res.accepted++;
              const id = norm(resp.message_id);
              this.ids.set(id, base + i);
              // A receipt that came before its submit_sm_resp.
              if (this.receiptsById.has(id)) {
                this.receiptsById.delete(id);
                this.onReceipt(id);
              }
            } else {
              res.errors.set(resp.command_status, (res.errors.get(resp.command_status) ?? 0) + 1);
            }
            if (answered === o.n) {
              res.answeredAt = performance.now();
              return resolve();
            }
            pump();
          },
        );
      };
      let timer: NodeJS.Timeout | undefined;
      const pump = () => {
        if (!o.ratePerSecond) {
          while (res.sent < o.n && inFlight < o.window) sendOne();
          return;
        }
        const due = Math.min(
          o.n,
          Math.floor(((performance.now() - res.started) * o.ratePerSecond) / 1000) + 1,
        );
        while (res.sent < due && inFlight < o.window) sendOne();
        if (res.sent < o.n && !timer)
          timer = setTimeout(() => {
            timer = undefined;
            pump();
          }, 1);
      };
      pump();
    });
    run.target = res.accepted;
    if (run.receipts < run.target) {
      await new Promise<void>((resolve) => {
        const timeout = setTimeout(resolve, o.receiptTimeoutMs);
        run.done = () => {
          clearTimeout(timeout);
          resolve();
        };
      });
    }
    res.measured = o.onComplete?.();
    res.receipts = run.receipts;
    res.duplicates = run.duplicates;
    res.lastReceiptAt = run.lastReceiptAt;
    res.complete = run.receipts >= run.target;
    return res;
  }

  /** Receipts of this run's messages seen more than once so far (read after a pause). */
  duplicatesSoFar() {
    return this.run?.duplicates ?? 0;
  }

  close() {
    return closeClient(this.session);
  }
}
