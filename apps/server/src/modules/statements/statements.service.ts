import {
  STATEMENT_CATEGORIES,
  STATEMENT_CATEGORY_LABELS,
  STATEMENT_MONTHS_LIMIT,
  STATEMENT_PAGE_SIZE,
  type StatementDto,
  type StatementEntryDto,
  type StatementEntryPage,
  type StatementMonthList,
} from '@wren/contracts';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db';
import { notFound } from '../../platform/errors';
import type { AccountProfile } from '../users/account-profile';
import { describeEntry, describeKind } from './kinds';
import type { StatementSources } from './ports';
import { checkMonth, monthBounds, monthOf } from './statement-month';

/** A statement's frame: whose, which month, in which zone, between which instants. */
export interface StatementPeriod {
  account: AccountProfile;
  month: string;
  timeZone: string;
  timeZoneNote: string;
  start: Date;
  end: Date;
  closed: boolean;
}

const zoneOf = (account: AccountProfile) =>
  account.ownerTimeZone
    ? { timeZone: account.ownerTimeZone, timeZoneNote: `the account owner's time zone` }
    : { timeZone: 'UTC', timeZoneNote: 'UTC: the account owner has no time zone set' };

/**
 * Monthly statements (issue 39 item 5). Every function takes an account id and a month, and reads
 * only that account's data, so a reseller can build a child account's statement with the same
 * calls. The figures of one statement come from one REPEATABLE READ snapshot: opening + the sum of
 * the month's entries = closing, and closing is the ledger's sum up to the month's end.
 */
export function createStatementsService(deps: { db: Db; clock: Clock; sources: StatementSources }) {
  const { db, clock, sources } = deps;

  /** One read-only snapshot for all of a statement's reads. */
  const snapshot = <T>(fn: (trx: Db) => Promise<T>) =>
    db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(fn);

  async function accountOf(accountId: string) {
    // Outside the snapshot: the zone check reads PostgreSQL's zone list through the pool.
    const account = await sources.account(db, accountId);
    if (!account) throw notFound('Account');
    return account;
  }

  async function period(accountId: string, month: string): Promise<StatementPeriod> {
    const account = await accountOf(accountId);
    const zone = zoneOf(account);
    const current = monthOf(clock.now(), zone.timeZone);
    checkMonth(month, current);
    const { start, end } = await monthBounds(db, month, zone.timeZone);
    return { account, month, ...zone, start, end, closed: month < current };
  }

  async function entryPage(
    trx: Db,
    p: StatementPeriod,
    opening: number,
    after: number | undefined,
    limit: number,
  ): Promise<StatementEntryPage> {
    const id = p.account.id;
    const rows = await sources.ledger.entriesPage(trx, id, p.start, p.end, after, limit + 1);
    const page = rows.slice(0, limit);
    let balance =
      opening + (after === undefined ? 0 : await sources.ledger.sumThrough(trx, id, p.start, p.end, after));
    const items: StatementEntryDto[] = page.map((e) => {
      balance += e.amountMinor;
      const kind = describeKind(e.kind);
      return {
        id: String(e.id),
        at: e.createdAt.toISOString(),
        kind: e.kind,
        kindLabel: kind.label,
        category: kind.category,
        reference: e.reference,
        description: describeEntry(e),
        amountMinor: e.amountMinor,
        balanceMinor: balance,
      };
    });
    const last = page[page.length - 1];
    return { items, nextAfter: rows.length > limit && last ? last.id : null };
  }

  async function statementIn(trx: Db, p: StatementPeriod): Promise<StatementDto> {
    const accountId = p.account.id;
    const [opening, kinds, usage] = await Promise.all([
      sources.ledger.sumBefore(trx, accountId, p.start),
      sources.ledger.totalsByKind(trx, accountId, p.start, p.end),
      sources.usageByCountry(trx, accountId, p.start, p.end),
    ]);
    const entries = await entryPage(trx, p, opening, undefined, STATEMENT_PAGE_SIZE);
    const sum = (f: (k: (typeof kinds)[number]) => number, of = kinds) => of.reduce((n, k) => n + f(k), 0);
    const totals = STATEMENT_CATEGORIES.map((category) => {
      const of = kinds.filter((k) => describeKind(k.kind).category === category);
      return {
        category,
        label: STATEMENT_CATEGORY_LABELS[category],
        entries: sum((k) => k.entries, of),
        amountMinor: sum((k) => k.totalMinor, of),
      };
    });
    return {
      accountId,
      accountName: p.account.name,
      currency: p.account.currency,
      month: p.month,
      timeZone: p.timeZone,
      timeZoneNote: p.timeZoneNote,
      periodStart: p.start.toISOString(),
      periodEnd: p.end.toISOString(),
      closed: p.closed,
      generatedAt: clock.now().toISOString(),
      openingBalanceMinor: opening,
      closingBalanceMinor: opening + sum((k) => k.totalMinor),
      creditsMinor: sum((k) => k.creditsMinor),
      debitsMinor: sum((k) => k.debitsMinor),
      totals,
      entryCount: sum((k) => k.entries),
      entries,
      usage,
    };
  }

  return {
    /**
     * The months with ledger entries (newest first, at most STATEMENT_MONTHS_LIMIT), always with the
     * current month first, with or without entries.
     */
    async months(accountId: string): Promise<StatementMonthList> {
      const account = await accountOf(accountId);
      const { timeZone } = zoneOf(account);
      const currentMonth = monthOf(clock.now(), timeZone);
      const rows = await sources.ledger.monthsWithEntries(db, accountId, timeZone, STATEMENT_MONTHS_LIMIT);
      const items = rows.filter((r) => r.month <= currentMonth);
      if (items[0]?.month !== currentMonth) items.unshift({ month: currentMonth, entries: 0 });
      return { items: items.slice(0, STATEMENT_MONTHS_LIMIT), timeZone, currentMonth };
    },

    /** The month's statement with its first page of entries. */
    async statement(accountId: string, month: string): Promise<StatementDto> {
      const p = await period(accountId, month);
      return snapshot((trx) => statementIn(trx, p));
    },

    /** A page of the month's entries after entry id `after`, with running balances. */
    async entries(accountId: string, month: string, after: number | undefined, limit: number) {
      const p = await period(accountId, month);
      return snapshot(async (trx) => {
        const opening = await sources.ledger.sumBefore(trx, accountId, p.start);
        return entryPage(trx, p, opening, after, limit);
      });
    },

    /**
     * The whole statement for a file (CSV, PDF): its summary, then every entry in batches of
     * `batch`, all from one snapshot (the transaction stays open while the caller consumes it).
     */
    async document<T>(
      accountId: string,
      month: string,
      write: (s: StatementDto, entries: () => AsyncGenerator<StatementEntryDto[]>) => Promise<T>,
      batch = 1000,
    ): Promise<T> {
      const p = await period(accountId, month);
      return snapshot(async (trx) => {
        const summary = await statementIn(trx, p);
        async function* all() {
          let after: number | undefined;
          for (;;) {
            const page = await entryPage(trx, p, summary.openingBalanceMinor, after, batch);
            if (page.items.length) yield page.items;
            if (page.nextAfter === null) return;
            after = page.nextAfter;
          }
        }
        return write(summary, all);
      });
    },
  };
}

export type StatementsService = ReturnType<typeof createStatementsService>;
