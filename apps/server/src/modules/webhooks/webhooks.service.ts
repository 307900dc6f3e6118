import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ApiKeyDto, WebhookDeliveryDto } from '@wren/contracts';
import { Webhook } from 'standardwebhooks';
import { type Db, transact } from '../../platform/db';
import { notFound } from '../../platform/errors';
import { EVERY_SECOND_PASSES, type Jobs } from '../../platform/jobs';
import type { Logger } from '../../platform/logger';
import * as repo from './webhooks.repository';
import { assertWebhookUrl, BlockedAddressError, guardedLookup, webhookUrlProblem } from './url-guard';

export const WEBHOOK_SWEEP_JOB = 'webhooks.sweep';
export const WEBHOOK_DELIVER_JOB = 'webhooks.deliver';
const DAY_MS = 86_400_000;
const BATCH = 50;
const MAX_DELAY_MS = 4 * 3_600_000;

export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export function toDeliveryDto(r: repo.DeliveryRow): WebhookDeliveryDto {
  return {
    id: r.id,
    eventType: r.event_type,
    url: r.url,
    status: r.status,
    attempts: r.attempts,
    lastStatusCode: r.last_status_code,
    lastError: r.last_error,
    lastLatencyMs: r.last_latency_ms,
    nextAttemptAt: r.status === 'pending' ? r.next_attempt_at.toISOString() : null,
    createdAt: r.created_at.toISOString(),
    deliveredAt: r.delivered_at ? r.delivered_at.toISOString() : null,
  };
}

/** The `message.status` event of a message that reached a final status. */
function statusEvent(
  m: repo.FinishedMessage & { client_ref: string | null },
  extra: { campaignId?: string | null } = {},
) {
  return {
    type: 'message.status',
    timestamp: (m.done_at ?? new Date()).toISOString(),
    data: {
      id: m.message_id,
      to: m.recipient,
      from: m.sender,
      status: m.status,
      error: m.error,
      segments: m.segments,
      priceMinor: m.price_minor,
      currency: m.currency,
      clientRef: m.client_ref,
      doneAt: m.done_at ? m.done_at.toISOString() : null,
      ...extra,
    },
  };
}

/** Exponential backoff with full jitter around the doubling delay: base·2^(n-1)·[0.5, 1.5), capped. */
export function retryDelayMs(attempt: number, baseMs: number, random = Math.random) {
  const exp = Math.min(baseMs * 2 ** Math.max(0, attempt - 1), MAX_DELAY_MS);
  return Math.round(exp * (0.5 + random()));
}

/**
 * Delivery webhooks (Standard Webhooks). Final statuses of messages sent through /v1 are found by a
 * sweep over `api_messages` (never on the send or receipt path) and inbound messages by a sweep per
 * account with a webhook URL; each becomes a row in `webhook_deliveries`, POSTed signed, retried
 * with exponential backoff and jitter for 24 h. Every attempt is logged in `webhook_attempts`.
 */
export function createWebhooksService(deps: {
  db: Db;
  jobs: Jobs;
  logger: Logger;
  timeoutMs: number;
  retryBaseMs: number;
  /** WEBHOOK_ALLOW_PRIVATE: deliver to private and loopback addresses (development, tests). */
  allowPrivate: boolean;
}) {
  const { db } = deps;
  const logger = deps.logger.child({ module: 'webhooks' });
  const urlCache = new Map<string, { url: string | null; until: number }>();
  const lookup = guardedLookup(deps.allowPrivate);

  /**
   * POSTs a body with node:http(s) and the guarded lookup: a host name is connected to only at an
   * address that was checked; a literal IP host is checked here (a socket does not look it up).
   * No redirects are followed; the answer's body is drained and dropped.
   */
  function postJson(raw: string, body: string, headers: Record<string, string>) {
    return new Promise<{ status: number }>((resolve, reject) => {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        return reject(new BlockedAddressError('Refused: not a valid URL'));
      }
      // Literal addresses are checked here; a name is checked at connect time by the lookup.
      const problem = webhookUrlProblem(raw, deps.allowPrivate, false);
      if (problem) return reject(new BlockedAddressError(`Refused: ${problem}`));
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(
        url,
        {
          method: 'POST',
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
          lookup: lookup as never,
          timeout: deps.timeoutMs,
          signal: AbortSignal.timeout(deps.timeoutMs),
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })));
      req.on('error', (err) =>
        reject(
          err.name === 'AbortError' ? Object.assign(new Error('timeout'), { name: 'TimeoutError' }) : err,
        ),
      );
      req.end(body);
    });
  }

  async function attempt(
    d: repo.DeliveryRow & { secret: string | null },
    replay: boolean,
  ): Promise<repo.AttemptResult> {
    const n = d.attempts + 1;
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      if (!d.secret) throw new Error('The account has no webhook secret');
      const body = JSON.stringify(d.payload);
      const at = new Date();
      const signature = new Webhook(d.secret).sign(d.id, at, body);
      const res = await postJson(d.url, body, {
        'user-agent': 'Wren-Webhooks/1',
        'webhook-id': d.id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signature,
      });
      statusCode = res.status;
      if (res.status < 200 || res.status >= 300) error = `The receiver answered HTTP ${res.status}`;
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      error = (
        e instanceof BlockedAddressError
          ? e.message
          : e.name === 'TimeoutError'
            ? `No answer within ${deps.timeoutMs} ms`
            : `Could not connect: ${e.code ?? e.message}`
      ).slice(0, 300);
    }
    const latencyMs = Math.round(performance.now() - started);
    const ok = error === null;
    const next = new Date(Date.now() + retryDelayMs(n, deps.retryBaseMs));
    const giveUp = !ok && next.getTime() > d.give_up_at.getTime();
    return {
      deliveryId: d.id,
      attempt: n,
      statusCode,
      latencyMs,
      error,
      ok,
      replay,
      nextAttemptAt: ok || giveUp ? null : next,
      giveUp,
    };
  }

  const service = {
    /** Refuses a callback URL a send names (SSRF guard): a 400 naming `field`. */
    checkUrl: (field: string, url: string | null | undefined) =>
      assertWebhookUrl(field, url, deps.allowPrivate),

    /** The account's settings, created with a fresh secret on first use. */
    async settings(accountId: string) {
      return (
        (await repo.findSettings(db, accountId)) ?? repo.ensureSettings(db, accountId, newWebhookSecret())
      );
    },

    async rotateSecret(accountId: string) {
      await service.settings(accountId);
      await db
        .updateTable('webhook_settings')
        .set({ secret: newWebhookSecret(), rotated_at: new Date() })
        .where('account_id', '=', accountId)
        .execute();
      return service.settings(accountId);
    },

    async setUrl(accountId: string, url: string | null) {
      assertWebhookUrl('webhookUrl', url, deps.allowPrivate);
      await service.settings(accountId);
      await db
        .updateTable('webhook_settings')
        .set({ url, ...(url && { inbound_seen_at: new Date() }) })
        .where('account_id', '=', accountId)
        .execute();
      urlCache.delete(accountId);
      return service.settings(accountId);
    },

    /** The account-wide webhook URL (cached 5 s: read on every API send). */
    async accountUrl(accountId: string) {
      const hit = urlCache.get(accountId);
      if (hit && hit.until > Date.now()) return hit.url;
      const url = (await repo.findSettings(db, accountId))?.url ?? null;
      urlCache.set(accountId, { url, until: Date.now() + 5_000 });
      return url;
    },

    /** Turns newly final API messages and new inbound messages into deliveries. Returns how many. */
    async sweep(): Promise<number> {
      let made = 0;
      const pending = await repo.sweepPending(db);
      while (pending.finished) {
        const n = await transact(db, async (trx) => {
          const done = await repo.claimFinished(trx, 500);
          await repo.ensureSecrets(
            trx,
            [...new Set(done.map((m) => m.account_id))].map((accountId) => ({
              accountId,
              secret: newWebhookSecret(),
            })),
          );
          await repo.insertDeliveries(
            trx,
            done.map((m) => ({
              id: `evt_${m.message_id}`,
              account_id: m.account_id,
              api_key_id: m.api_key_id,
              event_type: 'message.status',
              url: m.callback_url,
              payload: JSON.stringify(statusEvent(m)),
            })),
          );
          return done.length;
        });
        made += n;
        if (n < 500) break;
      }
      // Every other message of an account with a webhook URL (web sends, campaigns), queued by trigger.
      while (pending.outbox) {
        const n = await transact(db, async (trx) => {
          const done = await repo.claimStatusOutbox(trx, 500);
          await repo.insertDeliveries(
            trx,
            done.flatMap((m) =>
              m.url
                ? [
                    {
                      id: `evt_${m.message_id}`,
                      account_id: m.account_id,
                      api_key_id: null,
                      event_type: 'message.status',
                      url: m.url,
                      payload: JSON.stringify(
                        statusEvent({ ...m, client_ref: null }, { campaignId: m.campaign_id }),
                      ),
                    },
                  ]
                : [],
            ),
          );
          return done.length;
        });
        made += n;
        if (n < 500) break;
      }
      const inbound = await repo.newInbound(db, 1000);
      if (inbound.length) {
        await repo.insertDeliveries(
          db,
          inbound.map((i) => ({
            id: `evt_in_${i.id}`,
            account_id: i.account_id,
            api_key_id: null,
            event_type: 'message.inbound',
            url: i.url,
            payload: JSON.stringify({
              type: 'message.inbound',
              timestamp: i.received_at.toISOString(),
              data: {
                id: i.id,
                from: i.sender,
                to: i.recipient,
                text: i.text,
                keyword: i.keyword,
                receivedAt: i.received_at.toISOString(),
              },
            }),
          })),
        );
        const latest = new Map<string, Date>();
        for (const i of inbound) latest.set(i.account_id, i.received_at);
        await repo.advanceInboundSeen(
          db,
          [...latest].map(([accountId, at]) => ({ accountId, at })),
        );
        made += inbound.length;
      }
      return made;
    },

    /** One delivery pass: attempts every due delivery (in parallel, BATCH at a time). */
    async deliverDue(): Promise<number> {
      let total = 0;
      for (;;) {
        const due = await repo.claimDue(db, BATCH, Math.ceil(deps.timeoutMs / 1000) + 30);
        if (due.length === 0) break;
        const results = await Promise.all(due.map((d) => attempt(d, false)));
        for (const r of results) {
          await repo.recordAttempt(db, r);
          if (r.giveUp) logger.info({ delivery: r.deliveryId }, 'webhook given up after 24 h');
        }
        total += due.length;
        if (due.length < BATCH) break;
      }
      return total;
    },

    /** Sends a delivery again now (whatever its status), as its next attempt; returns the result. */
    async replay(accountId: string, id: string): Promise<WebhookDeliveryDto> {
      const d = await repo.findDelivery(db, accountId, id);
      if (!d) throw notFound('Webhook delivery');
      const r = await attempt({ ...d, give_up_at: new Date(Date.now() + DAY_MS) }, true);
      await repo.recordAttempt(db, { ...r, giveUp: !r.ok && d.status === 'failed' });
      const after = await repo.findDelivery(db, accountId, id);
      return toDeliveryDto(after!);
    },

    async deliveriesForKey(accountId: string, key: Pick<ApiKeyDto, 'id'>, limit = 50) {
      const rows = await repo.listDeliveries(db, accountId, key.id, limit);
      return rows.map(toDeliveryDto);
    },

    /** Registers the sweep and delivery passes (run on nodes that work jobs). */
    start() {
      const off = [
        deps.jobs.every(
          WEBHOOK_SWEEP_JOB,
          1,
          async () => {
            await service.sweep();
          },
          { group: EVERY_SECOND_PASSES },
        ),
        deps.jobs.every(WEBHOOK_DELIVER_JOB, 1, async () => {
          await service.deliverDue();
        }),
      ];
      return () => off.forEach((f) => f());
    },
  };
  // Registered with the node's jobs at once: any node that works jobs (all/worker) runs the passes.
  service.start();
  return service;
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
