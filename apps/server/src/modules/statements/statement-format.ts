import { majorUnits } from '../../shared/csv';

const local = new Map<string, Intl.DateTimeFormat>();

/** `at` as "YYYY-MM-DD HH:mm:ss" on the wall clock of `timeZone`. */
export function localTime(at: Date | string, timeZone: string): string {
  let f = local.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    local.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(at)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

const money = new Map<string, Intl.NumberFormat>();

/** Minor units as money of `currency`: 1234 USD → "$12.34", -5 → "-$0.05". */
export function formatMoney(minor: number, currency: string): string {
  let f = money.get(currency);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    money.set(currency, f);
  }
  return f.format(Number(majorUnits(minor, currency)));
}

/** "March 2026" for 2026-03. */
export function monthTitle(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(y, m - 1, 1)),
  );
}
