/**
 * How long a campaign's counts may be reused: a second up to COUNTS_SCALE_MESSAGES messages, then a
 * second more per COUNTS_SCALE_MESSAGES. A count reads every message of the campaign, so its cost
 * grows with the campaign; at 1M messages one count costs PostgreSQL hundreds of milliseconds. This
 * keeps counting's share of the database about flat (one count of COUNTS_SCALE_MESSAGES rows a
 * second per campaign), however many screens watch it.
 */
export const COUNTS_EVERY_MS = 1000;
export const COUNTS_SCALE_MESSAGES = 100_000;

export const countsEveryMs = (messages: number) =>
  COUNTS_EVERY_MS * Math.max(1, messages / COUNTS_SCALE_MESSAGES);

/** The same, but a campaign under COUNTS_SCALE_MESSAGES is counted on every ask (it is cheap). */
export const countsHoldMs = (messages: number) =>
  messages < COUNTS_SCALE_MESSAGES ? 0 : countsEveryMs(messages);
