import type { MarginRowDto } from '@wren/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import { CSV_BOM, csvLine, minorDigitsOf } from '../../shared/csv';
import { countryLabel, countryOf } from '../messages/account-limits';

/** One row of the margin report: what customers paid against what the carrier costs (contracts). */
export type MarginRow = MarginRowDto;

/** Millionths of the unit in one minor unit: 10,000 for a currency of two decimals, 1,000,000 for none. */
export const microsPerMinor = (currency: string) => 10 ** (6 - minorDigitsOf(currency));

/**
 * Routed messages submitted in [from, to), by UTC day, destination country and
 * connection: messages, segments, the price net of refunds, the carriers' cost (cost per segment ×
 * segments accepted) and the margin, most recent day first, then the largest price. Messages no
 * route chose have no cost on record and are not in it (docs/connections.md).
 */
export async function marginReport(db: Db, from: Date, to: Date, currency: string): Promise<MarginRow[]> {
  const perMinor = microsPerMinor(currency);
  // Grouped in PostgreSQL by the number's first 8 characters (a country is never longer), then by
  // country here, as usage-by-country does: libphonenumber tells the country, not a prefix table.
  const groups = await sql<{
    day: string;
    head: string;
    sample: string;
    connection: string;
    messages: number;
    segments: string;
    price: string;
    cost: string;
  }>`
    SELECT to_char(m.submitted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
           left(m.recipient, 8) AS head, min(m.recipient) AS sample, d.connection,
           count(*)::int AS messages, sum(m.segments)::text AS segments,
           coalesce(sum(m.price_minor) FILTER (WHERE NOT m.refunded), 0)::text AS price,
           sum(d.cost_micros * m.segments)::text AS cost
      FROM messages m
      JOIN route_decisions d ON d.id = m.route_decision
     WHERE m.route_decision IS NOT NULL
       AND m.submitted_at >= ${from} AND m.submitted_at < ${to}
       -- A message is created before it is submitted: later partitions are not read.
       AND m.created_at < ${to}
     GROUP BY 1, 2, d.connection`.execute(db);
  const rows = new Map<string, MarginRow>();
  for (const g of groups.rows) {
    const country = countryOf(g.sample);
    const key = `${g.day}|${country ?? ''}|${g.connection}`;
    const row = rows.get(key) ?? {
      day: g.day,
      country,
      countryName: country ? countryLabel(country) : 'Unknown country',
      connection: g.connection,
      messages: 0,
      segments: 0,
      priceMinor: 0,
      costMicros: 0,
      marginMicros: 0,
    };
    row.messages += g.messages;
    row.segments += Number(g.segments);
    row.priceMinor += Number(g.price);
    row.costMicros += Number(g.cost);
    row.marginMicros = row.priceMinor * perMinor - row.costMicros;
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => b.day.localeCompare(a.day) || b.priceMinor - a.priceMinor);
}

/** The report as CSV (RFC 4180, cells guarded), amounts in the currency's unit with six exact decimals. */
export function marginCsv(rows: readonly MarginRow[], currency: string): string {
  const perMinor = microsPerMinor(currency);
  const unit = (micros: number) => {
    const sign = micros < 0 ? '-' : '';
    const abs = Math.abs(micros);
    return `${sign}${Math.trunc(abs / 1_000_000)}.${String(abs % 1_000_000).padStart(6, '0')}`;
  };
  const header = csvLine([
    'day',
    'country',
    'connection',
    'messages',
    'segments',
    `price_${currency}`,
    `cost_${currency}`,
    `margin_${currency}`,
  ]);
  const lines = rows.map((r) =>
    csvLine([
      r.day,
      r.country ?? '',
      r.connection,
      String(r.messages),
      String(r.segments),
      unit(r.priceMinor * perMinor),
      unit(r.costMicros),
      unit(r.marginMicros),
    ]),
  );
  return CSV_BOM + header + lines.join('');
}
