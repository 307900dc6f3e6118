import { MESSAGE_STATUSES, type MessageStatus } from '@wren/contracts';
import type { SmsLogQueryFilters } from './api/query-keys';

/** The SMS log filters as they appear in the address (dates as YYYY-MM-DD, local days). */
export interface LogFilters {
  from: string | null;
  to: string | null;
  status: MessageStatus | null;
  recipient: string;
  sender: string;
  text: string;
}

export const EMPTY_FILTERS: LogFilters = {
  from: null,
  to: null,
  status: null,
  recipient: '',
  sender: '',
  text: '',
};
const TEXT_KEYS = ['recipient', 'sender', 'text'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const LIMITS = { recipient: 32, sender: 15, text: 100 } as const;

const dayOrNull = (value: string | null) => (value && DAY.test(value) ? value : null);

/** Reads the filters from search params, ignoring anything malformed. */
export function readFilters(params: URLSearchParams): LogFilters {
  const status = params.get('status');
  const filters: LogFilters = {
    ...EMPTY_FILTERS,
    from: dayOrNull(params.get('from')),
    to: dayOrNull(params.get('to')),
    status: (MESSAGE_STATUSES as readonly string[]).includes(status ?? '') ? (status as MessageStatus) : null,
  };
  for (const key of TEXT_KEYS) filters[key] = (params.get(key) ?? '').slice(0, LIMITS[key]);
  return filters;
}

/** Search params with the filters set (empty ones removed); other params are kept. */
export function writeFilters(params: URLSearchParams, filters: LogFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  const values: Record<string, string | null> = { ...filters };
  for (const [key, value] of Object.entries(values)) {
    const trimmed = value?.trim();
    if (trimmed) next.set(key, trimmed);
    else next.delete(key);
  }
  return next;
}

/** How many filters are set (a date range counts once). */
export const activeFilterCount = (f: LogFilters): number =>
  [f.from || f.to, f.status, f.recipient.trim(), f.sender.trim(), f.text.trim()].filter(Boolean).length;

export const hasFilters = (f: LogFilters): boolean => activeFilterCount(f) > 0;

function startOfLocalDay(day: string, addDays = 0): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d + addDays).toISOString();
}

/** The API query: `from` is the start of the first day, `to` the start of the day after the last. */
export function toQueryFilters(f: LogFilters): SmsLogQueryFilters {
  const q: SmsLogQueryFilters = {};
  if (f.from) q.from = startOfLocalDay(f.from);
  if (f.to) q.to = startOfLocalDay(f.to, 1);
  if (f.status) q.status = f.status;
  for (const key of TEXT_KEYS) {
    const value = f[key].trim();
    if (value) q[key] = value;
  }
  return q;
}
