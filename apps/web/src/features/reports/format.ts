import type { MantineColor } from '@mantine/core';
import type { MessageStatus } from '@wren/contracts';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' });

/** A timestamp in the browser's time zone, e.g. "Jan 5, 2025, 9:30:12 AM". */
export const formatDateTime = (iso: string): string => dateTime.format(new Date(iso));

/** A timestamp in a given IANA zone, with the zone named. */
export function formatInZone(iso: string, timeZone: string): string {
  const text = new Intl.DateTimeFormat('en-US', {
    timeZone,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(iso));
  return `${text} (${timeZone})`;
}

const money = new Map<string, Intl.NumberFormat>();

/** An amount in minor units as en-US currency. */
export function formatMoney(minor: number, currency: string): string {
  let format = money.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    money.set(currency, format);
  }
  return format.format(minor / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

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
};

/** Timeline event statuses beyond the message statuses. */
const EVENT_COLORS: Record<string, MantineColor> = { receipt: 'grape' };

export const statusColor = (status: string): MantineColor =>
  STATUS_COLORS[status as MessageStatus] ?? EVENT_COLORS[status] ?? 'gray';

export const statusLabel = (status: string): string => status.charAt(0).toUpperCase() + status.slice(1);
