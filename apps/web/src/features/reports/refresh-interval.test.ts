import { describe, expect, it } from 'vitest';
import type { MessageDto } from '@wren/contracts';
import { FAST_REFRESH_MS, SLOW_REFRESH_MS, refreshInterval } from './refresh-interval';

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);
const iso = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();

const message = (over: Partial<MessageDto>): MessageDto => ({
  id: 'm1',
  campaignId: null,
  recipient: '+14155552671',
  sender: 'Wren',
  text: 'Hi',
  encoding: 'GSM-7',
  segments: 1,
  priceMinor: 1,
  currency: 'USD',
  status: 'delivered',
  error: null,
  scheduledAt: null,
  createdAt: iso(-5_000),
  submittedAt: null,
  receiptDueAt: null,
  doneAt: null,
  ...over,
});

describe('refreshInterval', () => {
  it('stops once every message is final, or there are none', () => {
    expect(refreshInterval([], NOW)).toBe(false);
    expect(
      refreshInterval([message({}), message({ status: 'canceled' }), message({ status: 'failed' })], NOW),
    ).toBe(false);
  });

  it('refreshes every 3 s while a message is on its way', () => {
    for (const status of ['queued', 'sending', 'sent'] as const) {
      expect(refreshInterval([message({}), message({ status })], NOW)).toBe(FAST_REFRESH_MS);
    }
  });

  it('slows down for messages long in flight', () => {
    expect(
      refreshInterval(
        [message({ status: 'sent', createdAt: iso(-3_600_000), submittedAt: iso(-3_600_000) })],
        NOW,
      ),
    ).toBe(SLOW_REFRESH_MS);
  });

  it('refreshes slowly for scheduled messages until one is due within a minute', () => {
    expect(refreshInterval([message({ status: 'scheduled', scheduledAt: iso(3_600_000) })], NOW)).toBe(
      SLOW_REFRESH_MS,
    );
    expect(refreshInterval([message({ status: 'scheduled', scheduledAt: iso(30_000) })], NOW)).toBe(
      FAST_REFRESH_MS,
    );
    expect(refreshInterval([message({ status: 'scheduled', scheduledAt: iso(-1_000) })], NOW)).toBe(
      FAST_REFRESH_MS,
    );
  });
});
