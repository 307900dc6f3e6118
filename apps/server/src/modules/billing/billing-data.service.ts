import { Readable } from 'node:stream';
import {
  ROLE_PERMISSIONS,
  type AccountRole,
  type BillingPriceList,
  type LedgerEntryDto,
  type LedgerPage,
  type LowBalanceDto,
} from '@wren/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../platform/db';
import type { EventBus } from '../../platform/events';
import { notFound } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import type { Mailer } from '../../platform/mailer';
import { CSV_BOM, csvLine, majorUnits } from '../../shared/csv';
import { decodeCursor, encodeCursor } from '../../shared/cursor';
import * as audit from '../audit/audit.service';
import { ledgerCsvLines } from '../ledger/ledger-csv';
import { format } from '../ledger/ledger.service';
import type { PricingService } from '../pricing/pricing.service';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
/** 'GB' → 'United Kingdom'; a plan's combined label 'US/CA' → 'United States / Canada'. */
const countryName = (code: string | null) => {
  if (!code) return null;
  const names = code.split('/').map((c) => {
    if (!/^[A-Z]{2}$/.test(c)) return c;
    try {
      return regionNames.of(c) ?? c;
    } catch {
      return c;
    }
  });
  return names.join(' / ');
};

const idCursor = z.object({ id: z.number().int().positive() });
export interface LedgerFilter {
  kind?: string;
  from?: string;
  to?: string;
}

/** The roles whose members hear a low-balance alert by email (those who may read billing). */
const ALERTED_ROLES = (Object.keys(ROLE_PERMISSIONS) as AccountRole[]).filter((r) =>
  ROLE_PERMISSIONS[r].includes('billing:read'),
);

/**
 * The account's own billing data (issue 47 item 1): its price list by country (its rate plan), its
 * ledger with filters and as CSV, and its low-balance alert (set, and fired once per crossing).
 */
export function createBillingDataService(deps: {
  db: Db;
  pricing: PricingService;
  mailer: Mailer;
  events: EventBus;
  logger: Logger;
  publicUrl: string;
}) {
  const { db, pricing } = deps;

  async function prices(accountId: string, q?: string): Promise<BillingPriceList> {
    const plan = await pricing.ratePlan(accountId);
    const all = plan.prices.map((p) => ({
      prefix: p.prefix,
      country: p.country,
      countryName: countryName(p.country),
      priceMinor: p.priceMinor,
    }));
    const needle = q?.trim().toLowerCase().replace(/^\+/, '');
    const items = needle
      ? all.filter(
          (p) =>
            (/^\d+$/.test(needle) && p.prefix.replace(/^\+/, '').startsWith(needle)) ||
            (p.country?.toLowerCase().split('/').includes(needle) ?? false) ||
            (p.countryName?.toLowerCase().includes(needle) ?? false),
        )
      : all;
    // By country name; the catch-all (no country) last.
    items.sort((a, b) =>
      a.countryName === null || b.countryName === null
        ? Number(a.countryName === null) - Number(b.countryName === null)
        : a.countryName.localeCompare(b.countryName) || a.prefix.localeCompare(b.prefix),
    );
    return { currency: plan.currency, items, total: all.length };
  }

  function filtered(accountId: string, f: LedgerFilter) {
    let q = db
      .selectFrom('ledger_entries')
      .select(['id', 'amount_minor', 'currency', 'kind', 'reference', 'note', 'created_at'])
      .where('account_id', '=', accountId);
    if (f.kind) q = q.where('kind', '=', f.kind);
    if (f.from) q = q.where('created_at', '>=', new Date(`${f.from}T00:00:00Z`));
    if (f.to) q = q.where('created_at', '<', new Date(Date.parse(`${f.to}T00:00:00Z`) + 86_400_000));
    return q;
  }

  async function balanceOf(accountId: string) {
    const acc = await db
      .selectFrom('accounts')
      .select(['balance_minor', 'currency', 'name'])
      .where('id', '=', accountId)
      .executeTakeFirst();
    if (!acc) throw notFound('Account');
    return acc;
  }

  /** Sets `armed` by the balance and answers whether the alert fires now (one statement: once). */
  async function check(accountId: string) {
    const fired = await sql<{
      threshold_minor: string;
      balance_minor: string;
      currency: string;
      name: string;
    }>`
      UPDATE low_balance_alerts l SET armed = false, fired_at = now()
      FROM accounts a
      WHERE l.account_id = a.id AND a.id = ${accountId} AND l.armed AND a.balance_minor < l.threshold_minor
      RETURNING l.threshold_minor, a.balance_minor, a.currency, a.name`.execute(db);
    if (fired.rows.length === 0) {
      await sql`
        UPDATE low_balance_alerts l SET armed = true
        FROM accounts a
        WHERE l.account_id = a.id AND a.id = ${accountId} AND NOT l.armed AND a.balance_minor >= l.threshold_minor`.execute(
        db,
      );
      return false;
    }
    const row = fired.rows[0];
    const balance = format(Number(row.balance_minor), row.currency);
    const threshold = format(Number(row.threshold_minor), row.currency);
    await audit.recordAudit(db, {
      accountId,
      userId: null,
      kind: 'billing.low_balance',
      message: `Low balance: ${balance} is below your alert threshold of ${threshold}`,
      resourceType: 'account',
      resourceId: accountId,
    });
    deps.events.publish('account.event', {
      accountId,
      kind: 'billing.low_balance',
      message: `Your balance (${balance}) is below ${threshold}`,
    });
    const recipients = await db
      .selectFrom('account_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['u.email'])
      .where('m.account_id', '=', accountId)
      .where('m.role', 'in', ALERTED_ROLES)
      .execute();
    const link = `${deps.publicUrl.replace(/\/$/, '')}/billing/balance`;
    for (const r of recipients) {
      await deps.mailer
        .send({
          to: r.email,
          subject: `Wren: your balance is below ${threshold}`,
          text: `The balance of "${row.name}" is ${balance}, below the alert threshold of ${threshold} you set.\n\nTop up so that your messages keep sending: ${link}\n\nThis alert is sent once each time the balance drops below the threshold.`,
        })
        .catch((err: unknown) => deps.logger.warn({ err, accountId }, 'low-balance email failed'));
    }
    return true;
  }

  // Every balance change (sends, refunds, top-ups) on this node: checked once per account per
  // moment (a burst of sends is one check), after the change committed.
  const waiting = new Map<string, NodeJS.Timeout>();
  const off = deps.events.subscribe('balance.changed', ({ accountId }) => {
    if (waiting.has(accountId)) return;
    const timer = setTimeout(() => {
      waiting.delete(accountId);
      check(accountId).catch((err: unknown) =>
        deps.logger.warn({ err, accountId }, 'low-balance check failed'),
      );
    }, 200);
    timer.unref();
    waiting.set(accountId, timer);
  });

  return {
    prices,

    async pricesCsv(accountId: string) {
      const list = await prices(accountId);
      const lines = [csvLine(['country', 'country_name', 'prefix', 'price_per_segment', 'currency'])];
      for (const p of list.items)
        lines.push(
          csvLine([
            p.country ?? '',
            p.countryName ?? (p.prefix ? '' : 'All other destinations'),
            p.prefix,
            majorUnits(p.priceMinor, list.currency),
            list.currency,
          ]),
        );
      return CSV_BOM + lines.join('');
    },

    async ledgerPage(
      accountId: string,
      f: LedgerFilter & { cursor?: string; limit: number },
    ): Promise<LedgerPage> {
      const acc = await balanceOf(accountId);
      const before = f.cursor ? decodeCursor(f.cursor, idCursor).id : undefined;
      let q = filtered(accountId, f);
      if (before) q = q.where('id', '<', before);
      const rows = await q
        .orderBy('id', 'desc')
        .limit(f.limit + 1)
        .execute();
      const page = rows.slice(0, f.limit);
      const last = page[page.length - 1];
      return {
        items: page.map((e): LedgerEntryDto => ({
          id: String(e.id),
          amountMinor: Number(e.amount_minor),
          currency: e.currency,
          kind: e.kind,
          reference: e.reference,
          note: e.note,
          createdAt: e.created_at.toISOString(),
        })),
        nextCursor: rows.length > f.limit && last ? encodeCursor({ id: Number(last.id) }) : null,
        balanceMinor: Number(acc.balance_minor),
        currency: acc.currency,
      };
    },

    /** The filtered ledger as CSV, oldest first, streamed page by page. */
    ledgerCsv(accountId: string, f: LedgerFilter) {
      return Readable.from(
        ledgerCsvLines((after) =>
          filtered(accountId, f).where('id', '>', after).orderBy('id').limit(2000).execute(),
        ),
      );
    },

    async lowBalance(accountId: string): Promise<LowBalanceDto> {
      const acc = await balanceOf(accountId);
      const row = await db
        .selectFrom('low_balance_alerts')
        .select(['threshold_minor', 'fired_at'])
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      const threshold = row ? Number(row.threshold_minor) : null;
      return {
        thresholdMinor: threshold,
        currency: acc.currency,
        below: threshold !== null && Number(acc.balance_minor) < threshold,
        firedAt: row?.fired_at?.toISOString() ?? null,
      };
    },

    /**
     * Sets (or, with null, removes) the threshold. Armed only while the balance is at or above it:
     * a threshold set above the balance does not fire until the balance has been back above it.
     */
    async setLowBalance(
      actor: { accountId: string; userId: string; ip: string | null },
      thresholdMinor: number | null,
    ) {
      const acc = await balanceOf(actor.accountId);
      if (thresholdMinor === null) {
        await db.deleteFrom('low_balance_alerts').where('account_id', '=', actor.accountId).execute();
      } else {
        const armed = Number(acc.balance_minor) >= thresholdMinor;
        await db
          .insertInto('low_balance_alerts')
          .values({ account_id: actor.accountId, threshold_minor: thresholdMinor, armed })
          .onConflict((oc) =>
            oc
              .column('account_id')
              .doUpdateSet({ threshold_minor: thresholdMinor, armed, updated_at: sql`now()` }),
          )
          .execute();
      }
      await audit.recordAudit(db, {
        accountId: actor.accountId,
        userId: actor.userId,
        ip: actor.ip,
        kind: 'billing.low_balance_set',
        message:
          thresholdMinor === null
            ? 'Turned the low-balance alert off'
            : `Set the low-balance alert to ${format(thresholdMinor, acc.currency)}`,
        resourceType: 'account',
        resourceId: actor.accountId,
      });
      return this.lowBalance(actor.accountId);
    },

    /** For tests and shutdown: the pending checks are dropped. */
    close() {
      off();
      for (const t of waiting.values()) clearTimeout(t);
      waiting.clear();
    },
    check,
  };
}

export type BillingDataService = ReturnType<typeof createBillingDataService>;
