import type { MantineColor } from '@mantine/core';
import { currentLocale, translate } from '@/lib/i18n';
import type { MessageStatus } from '@wren/contracts';
import { formatDateTime as formatAppDateTime } from '@/lib/format';

/** A timestamp of the logs in the browser's time zone, with seconds: "29 Nov 2026, 14:05:09". */
export const formatDateTime = (iso: string): string => formatAppDateTime(iso, { seconds: true });

export { formatInZone } from '@/lib/format';

/** A rate (0.953) as a percentage with one decimal in the app's language: "95.3%", "95,3 %" (fr). */
export const formatRate = (rate: number): string =>
  new Intl.NumberFormat(currentLocale(), {
    style: 'percent',
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(rate);

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

/** Timeline event statuses beyond the message statuses. */
const EVENT_COLORS: Record<string, MantineColor> = { receipt: 'grape' };

export const statusColor = (status: string): MantineColor =>
  STATUS_COLORS[status as MessageStatus] ?? EVENT_COLORS[status] ?? 'gray';

/** Each status's name as shown (a key of the locale files). */
const STATUS_LABELS: Record<string, string> = {
  scheduled: 'Scheduled',
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  delivered: 'Delivered',
  undelivered: 'Undelivered',
  expired: 'Expired',
  rejected: 'Rejected',
  failed: 'Failed',
  canceled: 'Canceled',
  unknown: 'Unknown',
  receipt: 'Receipt',
};

/** A status's name in the current language, at the moment it is shown. */
export const statusLabel = (status: string): string =>
  translate(STATUS_LABELS[status] ?? status.charAt(0).toUpperCase() + status.slice(1));
