import type { MessageDto, V1Message, V1SendMessage, V1SendResult } from '@wren/contracts';
import type { Db } from '../../platform/db';
import type { Jobs } from '../../platform/jobs';
import type { Logger } from '../../platform/logger';
import type { ApiKeyPrincipal } from '../api-keys/api-keys.service';
import type { LedgerService } from '../ledger/ledger.service';
import type { MessagesService } from '../messages/messages.service';
import type { WebhooksService } from '../webhooks/webhooks.service';
import { purgeIdempotencyKeys } from './idempotency';

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

/**
 * Group commit for the api_messages rows of concurrent sends (one insert per batch), like the
 * message core's send batcher: every caller is answered after its own rows are committed.
 */
function createLinkWriter(db: Db) {
  const queue: { rows: LinkRow[]; done: (err?: unknown) => void }[] = [];
  let running = false;
  async function drain() {
    running = true;
    while (queue.length) {
      const batch = queue.splice(0, 500);
      const rows = batch.flatMap((b) => b.rows);
      try {
        for (let i = 0; i < rows.length; i += 5000) {
          await db
            .insertInto('api_messages')
            .values(rows.slice(i, i + 5000))
            .execute();
        }
        batch.forEach((b) => b.done());
      } catch (err) {
        batch.forEach((b) => b.done(err));
      }
    }
    running = false;
  }
  return (rows: LinkRow[]) =>
    new Promise<void>((resolve, reject) => {
      queue.push({
        rows,
        done: (err) =>
          err
            ? reject(err instanceof Error ? err : new Error('Could not store the API message links'))
            : resolve(),
      });
      if (!running) void drain();
    });
}

/** The public API's use cases, on the same services the web app uses. */
export function createV1Service(deps: {
  db: Db;
  jobs: Jobs;
  logger: Logger;
  messages: MessagesService;
  ledger: LedgerService;
  webhooks: WebhooksService;
}) {
  const { db } = deps;
  const writeLinks = createLinkWriter(db);
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
    async send(key: ApiKeyPrincipal, body: V1SendMessage): Promise<V1SendResult> {
      const recipients = Array.isArray(body.to) ? body.to : [body.to];
      const result = await deps.messages.sendSingle({
        recipients,
        text: body.text,
        senderId: body.from,
        scheduleAt: body.scheduleAt,
        accountId: key.accountId,
        userId: key.userId,
      });
      const callbackUrl =
        body.callbackUrl ?? key.webhookUrl ?? (await deps.webhooks.accountUrl(key.accountId));
      await writeLinks(
        result.messages.map((m) => ({
          message_id: m.id,
          account_id: key.accountId,
          api_key_id: key.keyId,
          client_ref: body.clientRef ?? null,
          callback_url: callbackUrl,
          notify_pending: callbackUrl !== null,
        })),
      );
      return {
        data: result.messages.map((m) => toV1Message(m, body.clientRef ?? null)),
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
