import type { MessageDto, V1Message, V1SendMessage, V1SendResult } from '@wren/contracts';
import { insertUnnest, type Db } from '../../platform/db';
import type { Jobs } from '../../platform/jobs';
import type { Logger } from '../../platform/logger';
import type { ApiKeyPrincipal } from '../api-keys/api-keys.service';
import type { LedgerService } from '../ledger/ledger.service';
import type { MessagesService } from '../messages/messages.service';
import type { WebhooksService } from '../webhooks/webhooks.service';
import { toE164 } from '../../shared/phone';
import { toMessageDto, type MessageDtoRow } from '../messages/message-dto';
import type { SendHook } from '../messages/send-batcher';
import { type IdempotencyClaim, purgeIdempotencyKeys, storeAnswers } from './idempotency';

export function toV1Message(m: MessageDto, clientRef: string | null): V1Message {
  return {
    id: m.id,
    to: m.recipient,
    from: m.sender,
    text: m.text,
    status: m.status,
    encoding: m.encoding,
    segments: m.segments,
    priceMinor: m.priceMinor,
    currency: m.currency,
    clientRef,
    error: m.error,
    scheduledAt: m.scheduledAt,
    createdAt: m.createdAt,
    submittedAt: m.submittedAt,
    awaitingReceipt:
      m.status === 'sent' && m.submittedAt && m.receiptDueAt
        ? { since: m.submittedAt, deadline: m.receiptDueAt }
        : null,
    doneAt: m.doneAt,
  };
}

interface LinkRow {
  message_id: string;
  account_id: string;
  api_key_id: string;
  client_ref: string | null;
  callback_url: string | null;
  notify_pending: boolean;
}

/** What a /v1 send writes with its messages, in the send's own transaction. */
interface SendRecord {
  link: Omit<LinkRow, 'message_id'>;
  /** The Idempotency-Key record to store the answer in (null: the request has no key). */
  claim: IdempotencyClaim | null;
  answer: (rows: MessageDtoRow[]) => V1SendResult;
}

/**
 * The /v1 send's records, written by the message core's send batcher inside the transaction that
 * inserts and charges the messages (one insert and one update for every API send of the batch): a
 * send is committed with its api_messages rows and its idempotency answer, or not at all. So an
 * error after the send can no longer leave a sent message without its record, and a client's retry
 * with the same Idempotency-Key replays the answer instead of sending again.
 */
const sendRecords: SendHook<SendRecord> = {
  async write(trx, items) {
    await insertLinks(items).execute(trx);
    await storeAnswers(
      trx,
      items.flatMap((it) =>
        it.data.claim ? [{ claim: it.data.claim, status: 202, body: it.data.answer(it.rows) }] : [],
      ),
    );
  },
  // Without an Idempotency-Key there is no answer to store (it is built from the inserted rows):
  // the links are then a part of the send's one statement.
  statement(items) {
    return items.some((it) => it.data.claim) ? null : insertLinks(items);
  },
};

/**
 * The api_messages rows of a send's messages, one array per column (unnest): a VALUES list of 100
 * recipients' links was 600 parameters for Kysely to compile, pg to serialise and PostgreSQL to
 * parse, on every bulk request.
 */
function insertLinks(items: { rows: readonly { id: string }[]; data: SendRecord }[]) {
  const links: LinkRow[] = items.flatMap((it) => it.rows.map((m) => ({ message_id: m.id, ...it.data.link })));
  return insertUnnest(
    'api_messages',
    {
      message_id: 'uuid',
      account_id: 'uuid',
      api_key_id: 'uuid',
      client_ref: 'text',
      callback_url: 'text',
      notify_pending: 'boolean',
    },
    links,
    [['account_id', 'api_key_id', 'client_ref', 'callback_url', 'notify_pending']],
  );
}

/** The public API's use cases, on the same services the web app uses. */
export function createV1Service(deps: {
  db: Db;
  jobs: Jobs;
  logger: Logger;
  messages: MessagesService;
  ledger: LedgerService;
  webhooks: WebhooksService;
  defaultCountry: string;
}) {
  const { db } = deps;
  deps.jobs.every('v1.idempotency-purge', 3600, () => purgeIdempotencyKeys(db));

  async function clientRefs(ids: string[]) {
    if (ids.length === 0) return new Map<string, string | null>();
    const rows = await db
      .selectFrom('api_messages')
      .select(['message_id', 'client_ref'])
      .where('message_id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.message_id, r.client_ref]));
  }

  return {
    /** POST /v1/messages: the message core's sendSingle, plus the key, reference and callback. */
    async send(
      key: ApiKeyPrincipal,
      body: V1SendMessage,
      claim: IdempotencyClaim | null = null,
    ): Promise<V1SendResult> {
      deps.webhooks.checkUrl('callbackUrl', body.callbackUrl);
      const recipients = Array.isArray(body.to) ? body.to : [body.to];
      const callbackUrl =
        body.callbackUrl ?? key.webhookUrl ?? (await deps.webhooks.accountUrl(key.accountId));
      const clientRef = body.clientRef ?? null;
      // The answer as the send returns it, built from the inserted rows (the recipients the send
      // skipped are the suppressed ones: every other refusal fails the whole send).
      const answer = (rows: MessageDtoRow[]): V1SendResult => {
        const sent = new Set(rows.map((m) => m.recipient));
        const asked = new Set(recipients.map((r) => toE164(r, deps.defaultCountry)));
        return {
          data: rows.map((m) => toV1Message(toMessageDto(m), clientRef)),
          totalPriceMinor: rows.reduce((sum, m) => sum + m.price_minor, 0),
          currency: rows[0]?.currency ?? '',
          suppressed: [...asked].filter((r): r is string => r !== null && !sent.has(r)),
        };
      };
      const result = await deps.messages.sendSingle({
        recipients,
        text: body.text,
        senderId: body.from,
        scheduleAt: body.scheduleAt,
        accountId: key.accountId,
        userId: key.userId,
        hook: {
          hook: sendRecords,
          data: {
            link: {
              account_id: key.accountId,
              api_key_id: key.keyId,
              client_ref: clientRef,
              callback_url: callbackUrl,
              notify_pending: callbackUrl !== null,
            },
            claim,
            answer,
          } satisfies SendRecord,
        },
      });
      return {
        data: result.messages.map((m) => toV1Message(m, clientRef)),
        totalPriceMinor: result.totalPriceMinor,
        currency: result.currency,
        suppressed: (result.suppressed ?? []).map((s) => s.recipient),
      };
    },

    async get(accountId: string, id: string): Promise<V1Message> {
      const { message } = await deps.messages.detail(accountId, id);
      const refs = await clientRefs([message.id]);
      return toV1Message(message, refs.get(message.id) ?? null);
    },

    async list(
      accountId: string,
      q: {
        status?: MessageDto['status'];
        to?: string;
        since?: string;
        until?: string;
        cursor?: string;
        limit: number;
      },
    ) {
      const page = await deps.messages.log(accountId, {
        status: q.status,
        recipient: q.to,
        from: q.since,
        to: q.until,
        cursor: q.cursor,
        limit: q.limit,
      });
      const refs = await clientRefs(page.items.map((m) => m.id));
      return {
        data: page.items.map((m) => toV1Message(m, refs.get(m.id) ?? null)),
        nextCursor: page.nextCursor,
      };
    },

    balance: (accountId: string) => deps.ledger.balance(db, accountId),
  };
}

export type V1Service = ReturnType<typeof createV1Service>;
