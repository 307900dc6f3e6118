import type { MantineColor } from '@mantine/core';
import {
  MESSAGE_STATUSES,
  type DeliveryPeriod,
  type MessageStatus,
  type PerformanceData,
  type StatusCounts,
} from '@wren/contracts';
import { currentLocale, translate } from '@/lib/i18n';

/*
 * The dashboard is in the first load (200 KB budget), so it formats with Intl directly rather than
 * through lib/format; format.test.ts holds both to the same output. In English the app's format is
 * en-GB's fields ("1 Dec 2026, 21:57") with en-US month names ("Sep", not en-GB's "Sept").
 */
/** The user's language; English's fields are en-GB's, its month names en-US's. */
const loc = () => (currentLocale() === 'en-US' ? 'en-GB' : currentLocale());
const sep = (s: string) => (currentLocale() === 'en-US' ? s.replace('Sept', 'Sep') : s);

export const formatCount = (n: number): string => n.toLocaleString(currentLocale());

/** A fraction (0–1) as a percentage, or an em dash when there is nothing to rate. */
export const formatRate = (rate: number | null): string =>
  rate === null ? '—' : rate.toLocaleString(loc(), { style: 'percent', maximumFractionDigits: 1 });

/** A YYYY-MM-DD day (already in the user's zone) as "5 Jan". */
export const formatDay = (date: string): string =>
  sep(
    new Date(`${date}T00:00:00Z`).toLocaleDateString(loc(), {
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    }),
  );

export const formatDateTime = (iso: string): string =>
  sep(new Date(iso).toLocaleString(loc(), { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' }));

export const PERIOD_LABELS: Record<DeliveryPeriod, string> = {
  today: 'Today',
  week: '7 days',
  month: '30 days',
};

/** A message status as its translated label ("Delivered"); the key is the capitalised status. */
export const statusLabel = (status: string): string =>
  translate(status.charAt(0).toUpperCase() + status.slice(1));

/** Badge colours, as on the SMS log. */
export const STATUS_COLORS: Record<MessageStatus, MantineColor> = {
  scheduled: 'violet',
  queued: 'gray',
  sending: 'blue',
  sent: 'cyan',
  delivered: 'teal',
  undelivered: 'orange',
  expired: 'yellow',
  rejected: 'red',
  failed: 'red',
  canceled: 'gray',
  unknown: 'grape',
};

/** Chart colours: one distinct shade per status. */
export const STATUS_CHART_COLORS: Record<MessageStatus, MantineColor> = {
  scheduled: 'violet.5',
  queued: 'gray.5',
  sending: 'blue.5',
  sent: 'cyan.5',
  delivered: 'teal.6',
  undelivered: 'orange.6',
  expired: 'yellow.6',
  rejected: 'pink.6',
  failed: 'red.7',
  canceled: 'gray.7',
  unknown: 'grape.6',
};

export interface StatusSlice {
  status: MessageStatus;
  label: string;
  count: number;
  color: MantineColor;
}

/** The statuses with messages, in lifecycle order. */
export function statusSlices(counts: StatusCounts): StatusSlice[] {
  return MESSAGE_STATUSES.filter((status) => (counts[status] ?? 0) > 0).map((status) => ({
    status,
    label: statusLabel(status),
    count: counts[status],
    color: STATUS_CHART_COLORS[status],
  }));
}

export const totalOf = (counts: StatusCounts): number =>
  MESSAGE_STATUSES.reduce((sum, status) => sum + (counts[status] ?? 0), 0);

/** "Messages today": messages that are or will be sent; a canceled message never was. */
export const messagesCount = (counts: StatusCounts): number => totalOf(counts) - (counts.canceled ?? 0);

export interface PerformanceTotals {
  sent: number;
  delivered: number;
  failed: number;
  /** delivered / sent over the whole series; null when nothing was sent. */
  deliveryRate: number | null;
}

export function performanceTotals(data: PerformanceData): PerformanceTotals {
  const sent = data.reduce((n, p) => n + p.sent, 0);
  const delivered = data.reduce((n, p) => n + p.delivered, 0);
  const failed = data.reduce((n, p) => n + p.failed, 0);
  return { sent, delivered, failed, deliveryRate: sent ? delivered / sent : null };
}
