// Formatting only: parsing receipt texts is the gateway's job (apps/server/src/gateway/receipt-text.ts).

/** Final delivery states the simulator can produce (SMPP 3.4 appendix B stat values). */
export type FinalStat = 'DELIVRD' | 'UNDELIV' | 'EXPIRED' | 'REJECTD';
/** Any stat value that may appear in a receipt, including intermediate ones. */
export type ReceiptStat = FinalStat | 'ENROUTE' | 'ACCEPTD' | 'DELETED' | 'UNKNOWN';

export const FINAL_STATS: readonly FinalStat[] = ['DELIVRD', 'UNDELIV', 'EXPIRED', 'REJECTD'];

/** SMPP message_state TLV values per stat. */
export const MESSAGE_STATE: Readonly<Record<ReceiptStat, number>> = {
  ENROUTE: 1,
  DELIVRD: 2,
  EXPIRED: 3,
  DELETED: 4,
  UNDELIV: 5,
  ACCEPTD: 6,
  UNKNOWN: 7,
  REJECTD: 8,
};

/** Default err: codes (3 digits, nonzero for failures). */
export const DEFAULT_ERROR_CODES: Readonly<Record<FinalStat, string>> = {
  DELIVRD: '000',
  UNDELIV: '001',
  EXPIRED: '003',
  REJECTD: '008',
};

export interface ReceiptFields {
  id: string;
  stat: ReceiptStat;
  submitDate: Date;
  doneDate: Date;
  /** Defaults to 1. */
  sub?: number;
  /** Defaults to 1 for DELIVRD, else 0. */
  dlvrd?: number;
  /** Defaults to '000'. Numbers are zero-padded to 3 digits. */
  err?: string | number;
  /** Only the first 20 characters are used. */
  text?: string;
}

const pad = (v: number | string, len: number): string => String(v).padStart(len, '0');

/** YYMMDDhhmm in UTC. */
export function formatReceiptDate(d: Date): string {
  return (
    pad(d.getUTCFullYear() % 100, 2) +
    pad(d.getUTCMonth() + 1, 2) +
    pad(d.getUTCDate(), 2) +
    pad(d.getUTCHours(), 2) +
    pad(d.getUTCMinutes(), 2)
  );
}

/**
 * `id:<id> sub:001 dlvrd:001 submit date:YYMMDDhhmm done date:YYMMDDhhmm stat:DELIVRD err:000 text:<20 chars>`
 */
export function formatReceiptText(f: ReceiptFields): string {
  const dlvrd = f.dlvrd ?? (f.stat === 'DELIVRD' ? 1 : 0);
  const err = typeof f.err === 'number' ? pad(f.err, 3) : (f.err ?? '000');
  return (
    `id:${f.id} sub:${pad(f.sub ?? 1, 3)} dlvrd:${pad(dlvrd, 3)}` +
    ` submit date:${formatReceiptDate(f.submitDate)} done date:${formatReceiptDate(f.doneDate)}` +
    ` stat:${f.stat} err:${err} text:${(f.text ?? '').slice(0, 20)}`
  );
}
