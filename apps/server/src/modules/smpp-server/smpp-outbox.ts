import { analyseSmsText } from '@wren/contracts';
import { formatReceiptText, MESSAGE_STATE, type ReceiptStat } from '@wren/smsc-simulator';
import { sql } from 'kysely';
import type smpp from 'smpp';
import { encodeText } from '../../gateway/pdu';
import type { Db } from '../../platform/db';
import { renderSmppId } from './smpp-text';

/** An outbox row as a node claims it. */
export interface OutboxRow {
  id: number;
  smpp_account_id: string;
  kind: 'receipt' | 'mo';
  smpp_id: number | null;
  payload: Record<string, unknown>;
  attempts: number;
}

/** Receipt stat words of Wren's statuses. */
const STAT_OF: Readonly<Record<string, ReceiptStat>> = {
  sent: 'ENROUTE',
  delivered: 'DELIVRD',
  undelivered: 'UNDELIV',
  failed: 'UNDELIV',
  expired: 'EXPIRED',
  rejected: 'REJECTD',
  canceled: 'DELETED',
  unknown: 'UNKNOWN',
};

const ESM_CLASS_RECEIPT = 0x04;
const TON_INTERNATIONAL = 1;
const TON_ALPHANUMERIC = 5;
const SHORT_MESSAGE_MAX = 254;

function address(value: string): { addr: string; ton: number; npi: number } {
  const v = value.trim();
  if (/^\+?\d+$/.test(v)) return { addr: v.replace(/^\+/, ''), ton: TON_INTERNATIONAL, npi: 1 };
  return { addr: v, ton: TON_ALPHANUMERIC, npi: 0 };
}

/** A deliver_sm's source and destination fields. */
function addresses(from: string, to: string) {
  const src = address(from);
  const dst = address(to);
  return {
    source_addr_ton: src.ton,
    source_addr_npi: src.npi,
    source_addr: src.addr,
    dest_addr_ton: dst.ton,
    dest_addr_npi: dst.npi,
    destination_addr: dst.addr,
  };
}

/** Characters the GSM-7 receipt text cannot carry are written as '?'. */
const gsmSafe = (text: string) =>
  [...text].map((ch) => (analyseSmsText(ch).encoding === 'GSM-7' ? ch : '?')).join('');

/** The 3-digit err: of a receipt: the carrier's code, or 000 (delivered, en route) / 001 (failed). */
function errOf(status: string, err: unknown) {
  const digits = typeof err === 'string' ? err.replace(/\D/g, '') : '';
  if (digits) return digits.padStart(3, '0').slice(-3);
  return status === 'delivered' || status === 'sent' ? '000' : '001';
}

/**
 * The deliver_sm of an outbox row: a receipt (esm_class 0x04, the standard text, the
 * receipted_message_id and message_state TLVs; from the handset to the sender, as SMSCs send them)
 * or an inbound message (GSM-7, else UCS-2; longer than short_message holds: message_payload).
 */
export function deliverFields(row: OutboxRow, notation: 'decimal' | 'hex'): smpp.PduOptions {
  const p = row.payload as Record<string, string | number | null>;
  if (row.kind === 'receipt') {
    const status = String(p.status);
    const stat = STAT_OF[status] ?? 'UNKNOWN';
    const id = renderSmppId(Number(row.smpp_id), notation);
    const text = formatReceiptText({
      id,
      stat,
      err: errOf(status, p.err),
      submitDate: new Date(String(p.submittedAt)),
      doneDate: new Date(String(p.doneAt)),
      text: gsmSafe(String(p.body ?? '').slice(0, 20)),
    });
    return {
      // A receipt comes from the recipient, to the sender.
      ...addresses(String(p.recipient), String(p.sender)),
      esm_class: ESM_CLASS_RECEIPT,
      data_coding: 0,
      short_message: encodeText(text, 'GSM-7'),
      receipted_message_id: id,
      message_state: MESSAGE_STATE[stat],
    };
  }
  const text = String(p.text ?? '');
  const encoding = analyseSmsText(text).encoding;
  const body = encodeText(text, encoding);
  const fields: smpp.PduOptions = {
    ...addresses(String(p.sender), String(p.recipient)),
    esm_class: 0,
    data_coding: encoding === 'UCS-2' ? 8 : 0,
  };
  if (body.length <= SHORT_MESSAGE_MAX) fields.short_message = body;
  else fields.message_payload = body;
  return fields;
}

/** Claims up to `limit` of a login's waiting rows, oldest first, for `claimSeconds`. */
export async function claim(db: Db, smppAccountId: string, limit: number, claimSeconds: number) {
  const { rows } = await sql<OutboxRow>`
    UPDATE smpp_outbox o SET claimed_until = now() + make_interval(secs => ${claimSeconds}), attempts = o.attempts + 1
     WHERE o.id IN (SELECT id FROM smpp_outbox
                     WHERE smpp_account_id = ${smppAccountId}::uuid
                       AND (claimed_until IS NULL OR claimed_until < now())
                     ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING o.id, o.smpp_account_id, o.kind, o.smpp_id, o.payload, o.attempts`.execute(db);
  return rows
    .map((r) => ({ ...r, id: Number(r.id), smpp_id: r.smpp_id === null ? null : Number(r.smpp_id) }))
    .sort((a, b) => a.id - b.id);
}

/** Delivered (deliver_sm_resp ESME_ROK): gone. */
export async function remove(db: Db, ids: readonly number[]) {
  if (ids.length) await db.deleteFrom('smpp_outbox').where('id', 'in', ids).execute();
}

/** Not delivered: sent again after `delaySeconds` (0: as soon as a bind has room). */
export async function release(db: Db, ids: readonly number[], delaySeconds: number) {
  if (!ids.length) return;
  await db
    .updateTable('smpp_outbox')
    .set({
      claimed_until: delaySeconds > 0 ? sql<Date>`now() + make_interval(secs => ${delaySeconds})` : null,
    })
    .where('id', 'in', ids)
    .execute();
}

/** Drops rows older than the TTL and counts them on their login (expired_count). */
export async function expire(db: Db, ttlMinutes: number) {
  const { rows } = await sql<{ n: number }>`
    WITH gone AS (
      DELETE FROM smpp_outbox WHERE created_at < now() - make_interval(mins => ${ttlMinutes})
      RETURNING smpp_account_id),
    counted AS (
      UPDATE smpp_accounts a SET expired_count = a.expired_count + g.n
        FROM (SELECT smpp_account_id, count(*) AS n FROM gone GROUP BY smpp_account_id) g
       WHERE a.id = g.smpp_account_id RETURNING g.n)
    SELECT coalesce(sum(n), 0)::int AS n FROM counted`.execute(db);
  return rows[0]?.n ?? 0;
}

/** Concatenated parts whose siblings never came (an hour): dropped. */
export async function dropStaleParts(db: Db) {
  await sql`DELETE FROM smpp_parts WHERE created_at < now() - interval '1 hour'`.execute(db);
}
