import { ErrorCode } from '@wren/contracts';
import { sql } from 'kysely';
import { insertUnnest, transact, type Db } from '../../platform/db';
import { AppError, FieldError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { toE164 } from '../../shared/phone';
import type { MessagesService } from '../messages/messages.service';
import type { SendHook } from '../messages/send-batcher';
import type { SmppPrincipal } from '../smpp-accounts/smpp-accounts.service';
import { decodeSubmitText } from './smpp-text';
import { STATUS, type SubmitFields } from './smpp-wire';

/** What a submit_sm gets back: the SMPP id of the submit (its message_id), or a refusal. */
export type SubmitOutcome = { ok: true; smppId: number } | { ok: false; status: number; reason: string };

interface LinkData {
  smppAccountId: string;
  /** Each submit_sm of the message (one, or one per concatenated part) with its registered_delivery. */
  parts: { smppId: number; registeredDelivery: number }[];
}

/**
 * The submit's links to its message (smpp_messages), written by the message core's send batcher in
 * the transaction that inserts and charges the message: a message is committed with its SMPP ids
 * or not at all, and the submit_sm_resp goes out only after that commit.
 */
const smppLinks: SendHook<LinkData> = {
  async write(trx, items) {
    const rows = linkRows(items);
    if (rows.length) await linkStatement(rows).execute(trx);
  },
  // The links need only the ids the send made: one statement with the send's (no transaction).
  statement(items) {
    const rows = linkRows(items);
    return rows.length ? linkStatement(rows) : null;
  },
};

function linkRows(items: readonly { rows: readonly { id: string }[]; data: LinkData }[]) {
  return items.flatMap((it) =>
    it.rows.flatMap((m) =>
      it.data.parts.map((p) => ({
        smpp_id: p.smppId,
        smpp_account_id: it.data.smppAccountId,
        message_id: m.id,
        registered_delivery: p.registeredDelivery,
      })),
    ),
  );
}

const linkStatement = (rows: ReturnType<typeof linkRows>) =>
  insertUnnest(
    'smpp_messages',
    { smpp_id: 'bigint', smpp_account_id: 'uuid', message_id: 'uuid', registered_delivery: 'smallint' },
    rows,
    [['smpp_account_id', 'registered_delivery']],
  );

const TON_INTERNATIONAL = 1;
/** SMPP ids a node takes from the sequence at once. */
const ID_BLOCK = 200;
const TON_ALPHANUMERIC = 5;

/** The destination as E.164: TON 1 (international) digits get a `+`; others are read as dialled. */
export function destinationOf(f: Pick<SubmitFields, 'destination' | 'destTon'>, defaultCountry: string) {
  const d = f.destination.trim();
  if (!d) return null;
  const dialled = f.destTon === TON_INTERNATIONAL && /^\d+$/.test(d) ? `+${d}` : d;
  return toE164(dialled, defaultCountry);
}

/** The sender as Wren's send path takes it: numeric international with `+`, alphanumeric as is. */
export function senderOf(f: Pick<SubmitFields, 'source' | 'sourceTon'>): string | null | undefined {
  const s = f.source.trim();
  if (!s) return undefined;
  if (/^\+?\d{1,15}$/.test(s)) return f.sourceTon === TON_INTERNATIONAL && !s.startsWith('+') ? `+${s}` : s;
  if (f.sourceTon !== TON_ALPHANUMERIC && f.sourceTon !== 0) return null;
  return s.length <= 11 ? s : null;
}

/** A refusal of the send path as a command_status (docs/smpp-server.md lists them). */
export function statusOfError(err: unknown): { status: number; reason: string } | null {
  if (err instanceof FieldError) {
    const fields = Object.keys(err.errors);
    if (fields.includes('text')) return { status: STATUS.ESME_RINVMSGLEN, reason: err.message };
    if (fields.includes('senderId')) return { status: STATUS.ESME_RINVSRCADR, reason: err.message };
    if (fields.includes('recipients')) {
      if (/opted out/i.test(err.message)) return { status: STATUS.ESME_RX_R_APPN, reason: err.message };
      return { status: STATUS.ESME_RINVDSTADR, reason: err.message };
    }
    return { status: STATUS.ESME_RSUBMITFAIL, reason: err.message };
  }
  if (err instanceof AppError) {
    switch (err.code) {
      case ErrorCode.SENDER_ID_NOT_APPROVED:
        return { status: STATUS.ESME_RINVSRCADR, reason: err.message };
      case ErrorCode.INSUFFICIENT_BALANCE:
        return { status: STATUS.ESME_RSUBMITFAIL, reason: err.message };
      case ErrorCode.RATE_LIMITED:
        return { status: STATUS.ESME_RTHROTTLED, reason: err.message };
      case ErrorCode.UNPROCESSABLE:
        return { status: STATUS.ESME_RINVDSTADR, reason: err.message };
      case ErrorCode.SUBACCOUNT_LOCKED:
      case ErrorCode.ACCOUNT_LOCKED:
        return { status: STATUS.ESME_RX_P_APPN, reason: err.message };
      default:
        return err.status < 500 ? { status: STATUS.ESME_RSUBMITFAIL, reason: err.message } : null;
    }
  }
  return null;
}

/**
 * submit_sm on Wren's send path (the same as POST /v1/messages: messages.sendSingle prices it,
 * screens opt-outs, checks the sender ID and the account's limits, debits the ledger and queues it
 * on the single-send lane). A concatenated part (UDH or sar_*) is kept in smpp_parts and
 * acknowledged; the part that completes the set sends the whole text as one message, linked to
 * every part's id (each part gets its receipt).
 */
export function createSmppSend(deps: {
  db: Db;
  messages: MessagesService;
  logger: Logger;
  defaultCountry: string;
}) {
  const { db } = deps;

  // SMPP ids are taken from the sequence a block at a time (unique across nodes, not in order).
  const block: number[] = [];
  let refill: Promise<void> | null = null;
  async function nextIds(n: number): Promise<number[]> {
    while (block.length < n) {
      refill ??= sql<{ id: number }>`
        SELECT nextval('smpp_message_ids')::int8 AS id FROM generate_series(1, ${ID_BLOCK}::int)`
        .execute(db)
        .then((r) => {
          block.push(...r.rows.map((x) => Number(x.id)));
        })
        .finally(() => {
          refill = null;
        });
      await refill;
    }
    return block.splice(0, n);
  }

  async function send(
    p: SmppPrincipal,
    input: { to: string; from: string | undefined; text: string; parts: LinkData['parts'] },
  ): Promise<SubmitOutcome> {
    try {
      await deps.messages.sendSingle({
        recipients: [input.to],
        text: input.text,
        senderId: input.from ?? p.defaultSender ?? undefined,
        accountId: p.accountId,
        userId: null,
        hook: {
          hook: smppLinks,
          data: { smppAccountId: p.smppAccountId, parts: input.parts } satisfies LinkData,
        },
      });
      return { ok: true, smppId: input.parts[input.parts.length - 1].smppId };
    } catch (err) {
      const known = statusOfError(err);
      if (known) return { ok: false, ...known };
      deps.logger.error({ err, systemId: p.systemId }, 'SMPP submit_sm failed');
      return { ok: false, status: STATUS.ESME_RSYSERR, reason: 'system error' };
    }
  }

  return {
    async submit(p: SmppPrincipal, f: SubmitFields): Promise<SubmitOutcome> {
      if (f.scheduleDeliveryTime.trim())
        return { ok: false, status: 0x61, reason: 'schedule_delivery_time is not supported' };
      const decoded = decodeSubmitText(f);
      if (!decoded.ok) {
        if (decoded.reason === 'dcs')
          return {
            ok: false,
            status: STATUS.ESME_RINVDCS,
            reason: `data_coding ${f.dataCoding} is not supported`,
          };
        if (decoded.reason === 'udh')
          return { ok: false, status: STATUS.ESME_RINVESMCLASS, reason: 'bad UDH' };
        return { ok: false, status: STATUS.ESME_RINVMSGLEN, reason: 'odd UCS-2 length' };
      }
      const to = destinationOf(f, deps.defaultCountry);
      if (!to)
        return { ok: false, status: STATUS.ESME_RINVDSTADR, reason: `invalid destination ${f.destination}` };
      const from = senderOf(f);
      if (from === null)
        return { ok: false, status: STATUS.ESME_RINVSRCADR, reason: `invalid source ${f.source}` };
      const rd = f.registeredDelivery;
      const concat = decoded.concat;
      if (!concat) {
        const [smppId] = await nextIds(1);
        return send(p, {
          to,
          from,
          text: decoded.text,
          parts: [{ smppId: smppId, registeredDelivery: rd }],
        });
      }
      if (concat.seq < 1 || concat.seq > concat.total)
        return { ok: false, status: STATUS.ESME_RINVESMCLASS, reason: 'part number outside the total' };
      const [smppId] = await nextIds(1);
      const key = `${f.source}|${f.destination}|${concat.ref}|${concat.total}`;
      // The part is stored (and acknowledged once committed); the one that completes the set takes
      // them all, under a lock of the set, so a set is sent once.
      const complete = await transact(db, async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`smpp_parts:${p.smppAccountId}:${key}`}, 0))`.execute(
          trx,
        );
        await trx
          .insertInto('smpp_parts')
          .values({
            smpp_account_id: p.smppAccountId,
            concat_key: key,
            seq: concat.seq,
            total: concat.total,
            smpp_id: smppId,
            text: decoded.text,
            registered_delivery: rd,
          })
          .onConflict((oc) =>
            oc.columns(['smpp_account_id', 'concat_key', 'seq']).doUpdateSet({
              smpp_id: smppId,
              text: decoded.text,
              registered_delivery: rd,
              created_at: new Date(),
            }),
          )
          .execute();
        const parts = await trx
          .selectFrom('smpp_parts')
          .select(['seq', 'total', 'smpp_id', 'text', 'registered_delivery', 'created_at'])
          .where('smpp_account_id', '=', p.smppAccountId)
          .where('concat_key', '=', key)
          .orderBy('seq')
          .execute();
        if (parts.length < concat.total) return null;
        await trx
          .deleteFrom('smpp_parts')
          .where('smpp_account_id', '=', p.smppAccountId)
          .where('concat_key', '=', key)
          .execute();
        return parts;
      });
      if (!complete) return { ok: true, smppId: smppId };
      const outcome = await send(p, {
        to,
        from,
        text: complete.map((x) => x.text).join(''),
        parts: complete.map((x) => ({
          smppId: Number(x.smpp_id),
          registeredDelivery: x.registered_delivery,
        })),
      });
      if (!outcome.ok) {
        // Refused (balance, sender…): the other parts go back, so the client's retry of this part
        // (the one answered with the error) completes the set again.
        const others = complete.filter((x) => x.seq !== concat.seq);
        if (others.length)
          await db
            .insertInto('smpp_parts')
            .values(others.map((x) => ({ ...x, smpp_account_id: p.smppAccountId, concat_key: key })))
            .onConflict((oc) => oc.doNothing())
            .execute();
        return outcome;
      }
      return { ok: true, smppId: smppId };
    },

    /** Looks a submit up by its id: its message's state, for query_sm and cancel_sm. */
    async find(p: SmppPrincipal, smppId: number) {
      const link = await db
        .selectFrom('smpp_messages')
        .select(['message_id'])
        .where('smpp_id', '=', smppId)
        .where('smpp_account_id', '=', p.smppAccountId)
        .executeTakeFirst();
      if (!link) return undefined;
      const m = await db
        .selectFrom('messages')
        .select(['id', 'status', 'done_at', 'smsc_err'])
        .where('id', '=', link.message_id)
        .where('account_id', '=', p.accountId)
        .executeTakeFirst();
      return m;
    },

    cancel: (p: SmppPrincipal, messageId: string) =>
      deps.messages.cancelWaitingOne(p.accountId, messageId, 'Canceled by the SMPP client (cancel_sm)'),
  };
}

export type SmppSend = ReturnType<typeof createSmppSend>;
