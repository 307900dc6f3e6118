/** Message statuses (ARCHITECTURE.md §5). A status only moves forward. */
export const MESSAGE_STATUSES = [
  'scheduled',
  'queued',
  'sending',
  'sent',
  'delivered',
  'undelivered',
  'expired',
  'rejected',
  'failed',
  'canceled',
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const FINAL_STATUSES: readonly MessageStatus[] = [
  'delivered',
  'undelivered',
  'expired',
  'rejected',
  'failed',
  'canceled',
];
